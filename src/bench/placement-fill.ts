/**
 * The Workloads tab's bench fleet: a sandbox of four clusters, the first playing Nova's control
 * plane (its CRDs applied, three Clusters w1..w3 with their room, one SchedulePolicy), the others
 * the workload clusters. The control plane gets OBJECTS objects (Deployments, ConfigMaps, headless
 * Services in turn), each labelled with the cluster it is placed on as Nova's scheduler labels
 * it, and each a copy in that cluster — so every row has its copy to read and compare. A fleet file
 * names them. Nova's scheduler and agents do not run: the figure is the tab's, not theirs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { writeFleetFile } from '../config/fleet-config.js';
import { DEFAULT_BUNDLE_DIR } from '../install/bundle.js';
import { Applier, type Manifest } from '../kube/api/apply.js';
import { configForContext, contextInfos, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { makeClient, statusCode } from '../kube/transport/client.js';
import { ensureNamespace } from './populate.js';
import { startSandbox, type BenchSandbox } from './sandbox.js';
import { progress, runPool, waitFor } from './util.js';

export const PLACEMENT_NAMESPACE = 'bench-shop';
const CLUSTER = { group: 'cluster.elotl.co', version: 'v1alpha1', plural: 'clusters' };
const POLICY = { group: 'policy.elotl.co', version: 'v1alpha1', plural: 'schedulepolicies' };

export interface PlacementFleet {
  sandbox: BenchSandbox;
  /** The fleet file naming the control plane and the workload clusters. */
  fleetFile: string;
  objects: number;
  clusters: number;
}

/** An object already there (a second run on the same sandbox) is fine. */
function taken(err: unknown): void {
  if (statusCode(err) !== 409) throw err;
}

/** A Cluster's status as an agent reports it: one node of 4 cores and 16 GiB, half free. */
const clusterStatus = (name: string) => ({
  conditions: [
    { type: 'Ready', status: 'True' },
    { type: 'Idle', status: 'False' },
    { type: 'Standby', status: 'False' },
  ],
  capacityResources: { [`${name}-node`]: { cpu: '4', memory: '16Gi' } },
  availableResources: { [`${name}-node`]: { cpu: '2', memory: '8Gi' } },
  nodeTaints: { [`${name}-node`]: [] },
});

interface Clients {
  apps: AppsV1Api;
  core: CoreV1Api;
}

const clientsOf = (kc: KubeConfig): Clients => ({ apps: makeClient(kc, AppsV1Api), core: makeClient(kc, CoreV1Api) });

/** Object `i`: a Deployment (no replicas: no pods to run), a ConfigMap or a headless Service, labelled for `cluster`. */
function create({ apps, core }: Clients, i: number, cluster: string | undefined): Promise<unknown> {
  const namespace = PLACEMENT_NAMESPACE;
  const labels = { app: `obj-${i}`, ...(cluster ? { 'nova.elotl.co/target-cluster': cluster } : {}) };
  const metadata = { name: `obj-${i}`, namespace, labels };
  const kind = i % 5;
  if (kind < 2) {
    const spec = {
      replicas: 0,
      selector: { matchLabels: { app: `obj-${i}` } },
      template: { metadata: { labels: { app: `obj-${i}` } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } },
    };
    return apps.createNamespacedDeployment({ namespace, body: { metadata, spec } });
  }
  if (kind < 4) return core.createNamespacedConfigMap({ namespace, body: { metadata, data: { index: String(i) } } });
  return core.createNamespacedService({ namespace, body: { metadata, spec: { clusterIP: 'None', selector: { app: `obj-${i}` } } } });
}

async function novaObjects(cp: KubeConfig, clusters: readonly string[], signal: AbortSignal): Promise<void> {
  const text = fs.readFileSync(path.join(DEFAULT_BUNDLE_DIR, 'base', 'control-plane', 'nova_crds.yaml'), 'utf8');
  const applier = new Applier(cp);
  for (const doc of parseAllDocuments(text)) if (doc.contents) await applier.apply(doc.toJS() as Manifest);
  const custom = makeClient(cp, CustomObjectsApi);
  for (const name of clusters) {
    await waitFor(
      `Cluster ${name} created`,
      () =>
        custom
          .createClusterCustomObject({ ...CLUSTER, body: { apiVersion: 'cluster.elotl.co/v1alpha1', kind: 'Cluster', metadata: { name } } })
          .then(
            () => true,
            (err: unknown) => statusCode(err) === 409,
          ),
      { timeoutMs: 60_000, intervalMs: 500, signal },
    );
    const current = (await custom.getClusterCustomObject({ ...CLUSTER, name })) as { metadata: object };
    await custom.replaceClusterCustomObjectStatus({ ...CLUSTER, name, body: { ...current, status: clusterStatus(name) } });
  }
  const policy = {
    apiVersion: 'policy.elotl.co/v1alpha1',
    kind: 'SchedulePolicy',
    metadata: { name: 'bench' },
    spec: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': PLACEMENT_NAMESPACE } }, clusterSelector: {} },
  };
  await custom.createClusterCustomObject({ ...POLICY, body: policy }).catch(taken);
}

/** Starts the sandbox and fills it (bounded concurrency, a deadline). */
export async function preparePlacement(objects: number, signal: AbortSignal, concurrency = 32): Promise<PlacementFleet> {
  const sandbox = await startSandbox('workloads', 3, 1);
  const { config } = loadKubeconfig({ kubeconfig: sandbox.kubeconfig });
  const [cpName, ...workloadNames] = contextInfos(config).map((c) => c.name);
  if (!cpName || workloadNames.length === 0) throw new Error('the workloads sandbox has no workload cluster');
  const cp = configForContext(config, cpName);
  const workloads = workloadNames.map((context, i) => {
    const kc = configForContext(config, context);
    return { context, clusterName: `w${i + 1}`, kc, clients: clientsOf(kc) };
  });
  const cpClients = clientsOf(cp);
  await novaObjects(
    cp,
    workloads.map((w) => w.clusterName),
    signal,
  );
  for (const kc of [cp, ...workloads.map((w) => w.kc)]) await ensureNamespace(makeClient(kc, CoreV1Api), PLACEMENT_NAMESPACE);
  const t0 = performance.now();
  await runPool(
    objects,
    concurrency,
    async (i) => {
      const w = workloads[i % workloads.length]!;
      await create(cpClients, i, w.clusterName).catch(taken);
      await create(w.clients, i, undefined).catch(taken);
    },
    {
      deadline: t0 + 15 * 60_000,
      what: 'workloads: creating objects',
      onProgress: (done) => progress(`workloads: ${done}/${objects} objects and their copies created`),
      signal,
    },
  );
  progress(`workloads: ${objects} objects and their copies created in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const fleetFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-bench-fleet-')), 'fleet.yaml');
  writeFleetFile(fleetFile, {
    hostingContext: cpName,
    controlPlaneContext: cpName,
    namespace: 'elotl',
    workloads: workloads.map(({ context, clusterName }) => ({ context, clusterName })),
  });
  return { sandbox, fleetFile, objects, clusters: workloads.length };
}
