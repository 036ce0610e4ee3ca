/**
 * A Nova control plane the sandbox runs for real (etcd and kube-apiserver as processes behind a
 * LoadBalancer Service, and a second Service published as a hostname) for the real-pod tests, and
 * what they read of it: clients, the recorded process IDs, Ready pods, Warning events.
 */
import { AppsV1Api, CoreV1Api, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import type { KeyMaterial } from '../../../src/kube/certs/pki.js';
import { LB_HOSTNAME_ANNOTATION, LB_HOSTNAME_SUFFIX } from '../../../src/sandbox/sim/index.js';
import { readState } from '../../../src/sandbox/state.js';
import { eventually } from '../../helpers/cli/cli.js';
import {
  apiserverDeployment,
  apiserverService,
  controlPlanePki,
  etcdService,
  etcdStatefulSet,
} from '../../helpers/sandbox/control-plane.js';
import { ignore } from '../../helpers/sandbox/nova.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
export const sandboxDir = sandbox().dir;
const ctx = (name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig }).config, name);

/** A second LoadBalancer Service for the API server, published as a hostname. */
const BY_NAME = 'apiserver-by-name';
/** The hostname the second Service of the control plane in `namespace` is published as. */
export const lbHostname = (namespace: string) => `${BY_NAME}.${namespace}.${LB_HOSTNAME_SUFFIX}`;
export const hosting = ctx('kind-cp');
export const workload1 = ctx('kind-workload-1');
export const workload2 = ctx('kind-workload-2');
export const core = makeClient(hosting, CoreV1Api);
export const CLUSTERS = { group: 'cluster.elotl.co', version: 'v1alpha1', plural: 'clusters' } as const;

/** A client of the new control plane: its server, the CA it trusts, the client certificate it shows. */
export function clientConfig(server: string, caPem: string, client: KeyMaterial): KubeConfig {
  const kc = new KubeConfig();
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  kc.loadFromOptions({
    clusters: [{ name: 'nova', server, caData: b64(caPem), skipTLSVerify: false }],
    users: [{ name: 'user', certData: b64(client.certPem), keyData: b64(client.keyPem) }],
    contexts: [{ name: 'nova', cluster: 'nova', user: 'user' }],
    currentContext: 'nova',
  });
  return kc;
}

/** PIDs the sandbox recorded for pods of a namespace in one cluster. */
export function podPids(cluster: string, namespace: string): Record<string, number> {
  const record = readState(sandboxDir)?.clusters.find((c) => c.context === cluster);
  return Object.fromEntries(Object.entries(record?.podProcesses ?? {}).filter(([k]) => k.startsWith(`${namespace}/`)));
}

export const isReady = (p: V1Pod | undefined) => p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

export async function readyPod(api: CoreV1Api, namespace: string, selector: string, timeoutMs = 150_000): Promise<V1Pod> {
  return eventually(
    `${namespace} ${selector} Ready`,
    async () =>
      (await api.listNamespacedPod({ namespace, labelSelector: selector })).items.find((p) => !p.metadata?.deletionTimestamp && isReady(p)),
    timeoutMs,
    500,
  );
}

export async function warnings(api: CoreV1Api, namespace: string, reason: string): Promise<string[]> {
  const events = (await api.listNamespacedEvent({ namespace, fieldSelector: 'type=Warning' })).items;
  return events.filter((e) => e.reason === reason).map((e) => e.message ?? '');
}

export async function deleteNamespace(api: CoreV1Api, name: string): Promise<void> {
  await api.deleteNamespace({ name }).catch(ignore(404));
}

/**
 * Creates a control plane in `namespace` of the hosting cluster: the API server's two
 * LoadBalancer Services (by address, and by hostname), its certificates for both, etcd and the
 * API server. Returns its load balancer address, server URL and PKI; its pods start meanwhile.
 */
export async function deployControlPlane(
  namespace: string,
): Promise<{ lbIP: string; server: string; pki: Awaited<ReturnType<typeof controlPlanePki>> }> {
  await createNamespace(core, namespace);
  await core.createNamespacedService({ namespace, body: apiserverService(namespace) });
  const lbIP = await eventually('LoadBalancer IP', async () => {
    const s = await core.readNamespacedService({ name: 'apiserver', namespace });
    return s.status?.loadBalancer?.ingress?.[0]?.ip;
  });
  await core.createNamespacedService({ namespace, body: apiserverService(namespace, BY_NAME, { [LB_HOSTNAME_ANNOTATION]: 'true' }) });
  const pki = await controlPlanePki(namespace, lbIP, { extraHosts: [lbHostname(namespace)] });
  for (const body of pki.secrets) await core.createNamespacedSecret({ namespace, body });
  await core.createNamespacedService({ namespace, body: etcdService(namespace) });
  const apps = makeClient(hosting, AppsV1Api);
  await apps.createNamespacedStatefulSet({ namespace, body: etcdStatefulSet(namespace) });
  await apps.createNamespacedDeployment({ namespace, body: apiserverDeployment(namespace) });
  return { lbIP, server: `https://${lbIP}:443`, pki };
}
