import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  AppsV1Api,
  CoreV1Api,
  KubernetesObjectApi,
  type KubeConfig,
  type KubernetesObject,
  type V1Pod,
  type V1PodSpec,
} from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { discover } from '../../../src/kube/api/discovery.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { ZONE_LABEL } from '../../../src/kube/nodes/nodes.js';
import { eventually } from '../../helpers/cli/cli.js';
import { namespaceReady } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const exec = promisify(execFile);
const kubeconfig = sandbox().kubeconfig;

function ctx(name: string): KubeConfig {
  return configForContext(loadKubeconfig({ kubeconfig }).config, name);
}

async function createNamespace(core: CoreV1Api, name: string): Promise<void> {
  await core.createNamespace({ body: { metadata: { name } } });
  await namespaceReady(core, name);
}

function podsOf(core: CoreV1Api, ns: string, selector: string): Promise<V1Pod[]> {
  return core.listNamespacedPod({ namespace: ns, labelSelector: selector }).then((l) => l.items);
}

/** A Deployment of pause containers labelled app=<name>, with optional extra pod spec. */
async function createDeployment(
  apps: AppsV1Api,
  namespace: string,
  name: string,
  replicas: number,
  podSpec: Partial<V1PodSpec> = {},
): Promise<void> {
  const labels = { app: name };
  await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { ...podSpec, containers: [{ name, image: 'registry.k8s.io/pause:3.9' }] } },
      },
    },
  });
}

const running = (p: V1Pod) =>
  p.status?.phase === 'Running' &&
  p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') &&
  !p.metadata?.deletionTimestamp;

describe('pods on the simulated nodes, with the real scheduler and controllers', () => {
  it('(a) schedules a 3-replica Deployment with the real scheduler onto simulated nodes in 3 zones', async () => {
    const kc = ctx('kind-workload-1');
    const core = makeClient(kc, CoreV1Api);
    const apps = makeClient(kc, AppsV1Api);
    await createNamespace(core, 'spread');
    await createDeployment(apps, 'spread', 'web', 3, {
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: ZONE_LABEL, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } },
      ],
    });
    const pods = await eventually(
      '3 Running pods',
      async () => {
        const p = (await podsOf(core, 'spread', 'app=web')).filter(running);
        return p.length === 3 ? p : undefined;
      },
      60_000,
    );
    const nodes = (await core.listNode()).items;
    const zoneOf = (n: string) => nodes.find((x) => x.metadata?.name === n)?.metadata?.labels?.[ZONE_LABEL];
    const zones = new Set(pods.map((p) => zoneOf(p.spec!.nodeName!)));
    expect(zones.size).toBe(3);
    // Pod IPs from the simulated pod network, unique in the cluster.
    for (const p of pods) expect(p.status?.podIP).toMatch(/^10\.24\d\.\d+\.\d+$/);
    expect(new Set(pods.map((p) => p.status?.podIP)).size).toBe(3);
    // The Deployment controller sees the simulated kubelet's status.
    await eventually(
      'deployment reports 3 ready',
      async () => (await apps.readNamespacedDeployment({ name: 'web', namespace: 'spread' })).status?.readyReplicas === 3,
    );
  });

  it('(b) refuses an eviction that would break a PodDisruptionBudget with 429', async () => {
    const kc = ctx('kind-workload-2');
    const core = makeClient(kc, CoreV1Api);
    const apps = makeClient(kc, AppsV1Api);
    const d = await discover(kc, 5000);
    // v1.20 offers eviction only as policy/v1beta1; fleetdeck must discover that.
    expect(d.evictionVersion).toBe('policy/v1beta1');
    await createNamespace(core, 'pdb');
    await createDeployment(apps, 'pdb', 'db', 3);
    // PodDisruptionBudget is policy/v1beta1 on v1.20: the generic client speaks any version.
    const objects = KubernetesObjectApi.makeApiClient(kc);
    const pdbRef = { apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { name: 'db', namespace: 'pdb' } };
    await objects.create({ ...pdbRef, spec: { minAvailable: 3, selector: { matchLabels: { app: 'db' } } } } as KubernetesObject);
    const pods = await eventually(
      '3 Running db pods',
      async () => {
        const p = (await podsOf(core, 'pdb', 'app=db')).filter(running);
        return p.length === 3 ? p : undefined;
      },
      60_000,
    );
    // The disruption controller computes the budget from the real pod status.
    await eventually('PDB observed', async () => {
      const pdb = (await objects.read(pdbRef)) as KubernetesObject & {
        status?: { currentHealthy?: number; disruptionsAllowed?: number; observedGeneration?: number };
      };
      return (
        pdb.status?.currentHealthy === 3 &&
        pdb.status.disruptionsAllowed === 0 &&
        pdb.status.observedGeneration === pdb.metadata?.generation
      );
    });
    const victim = pods[0]!.metadata!.name!;
    const err = await core
      .createNamespacedPodEviction({
        name: victim,
        namespace: 'pdb',
        body: { apiVersion: d.evictionVersion, kind: 'Eviction', metadata: { name: victim, namespace: 'pdb' } },
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(statusCode(err)).toBe(429);
    const still = await core.readNamespacedPod({ name: victim, namespace: 'pdb' });
    expect(still.metadata?.deletionTimestamp).toBeUndefined();
  });

  it('(c) `kubectl drain` of a simulated node completes and its pods are really gone', async () => {
    const kc = ctx('kind-workload-1');
    const core = makeClient(kc, CoreV1Api);
    const apps = makeClient(kc, AppsV1Api);
    await createNamespace(core, 'drain');
    await createDeployment(apps, 'drain', 'api', 6);
    const pods = await eventually(
      '6 Running api pods',
      async () => {
        const p = (await podsOf(core, 'drain', 'app=api')).filter(running);
        return p.length === 6 ? p : undefined;
      },
      60_000,
    );
    const node = pods[0]!.spec!.nodeName!;
    const before = pods.filter((p) => p.spec?.nodeName === node).map((p) => p.metadata!.uid!);
    expect(before.length).toBeGreaterThan(0);
    const { stdout } = await exec(
      'kubectl',
      [
        '--kubeconfig',
        kubeconfig,
        '--context',
        'kind-workload-1',
        'drain',
        node,
        '--ignore-daemonsets',
        '--delete-emptydir-data',
        '--timeout=90s',
      ],
      { timeout: 120_000 },
    );
    expect(stdout).toContain('drained');
    const after = (await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` })).items;
    expect(after.filter((p) => before.includes(p.metadata!.uid!))).toEqual([]);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBe(true);
    // The Deployment replaced them elsewhere.
    await eventually(
      '6 Running again, none on the drained node',
      async () => {
        const p = (await podsOf(core, 'drain', 'app=api')).filter(running);
        return p.length === 6 && p.every((x) => x.spec?.nodeName !== node);
      },
      60_000,
    );
    await exec('kubectl', ['--kubeconfig', kubeconfig, '--context', 'kind-workload-1', 'uncordon', node]);
  });
});
