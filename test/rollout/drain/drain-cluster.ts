/**
 * The sandbox cluster (kind-workload-2) of the drain tests: clients, the namespaces of the file's
 * tests, workloads and pods, nodes that drain without flags, and drainNode remembering what it
 * cordoned. Every node a test file cordons is uncordoned at the end; its namespaces are deleted.
 */
import {
  AppsV1Api,
  CoreV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1Pod,
  type V1PodSpec,
} from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { waitFor } from '../../../src/kube/watch/wait.js';
import { uncordon } from '../../../src/kube/nodes/nodes.js';
import { drainNode } from '../../../src/rollout/drain/drain.js';
import { dryRunDrain } from '../../../src/rollout/drain/dry-run.js';
import type { DrainProgress } from '../../../src/rollout/drain/tracker.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

export const kubeconfig = sandbox().kubeconfig;
export const CONTEXT = 'kind-workload-2';
const PAUSE = 'registry.k8s.io/pause:3.9';
export const HOSTNAME = 'kubernetes.io/hostname';
export const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Namespaces of this file: unique per run, deleted at the end. */
const suffix = Math.random().toString(36).slice(2, 7);
export const NS = { app: `drain-app-${suffix}`, flags: `drain-flags-${suffix}`, pdb: `drain-pdb-${suffix}`, dry: `drain-dry-${suffix}` };

export let kc: KubeConfig;
export let core: CoreV1Api;
export let apps: AppsV1Api;
export let objects: KubernetesObjectApi;
/** Every node this file cordoned (directly or through a drain): uncordoned at the end. */
export const touched = new Set<string>();

const podSpec = (over: Partial<V1PodSpec> = {}): V1PodSpec => ({
  containers: [{ name: 'app', image: PAUSE }],
  terminationGracePeriodSeconds: 1,
  ...over,
});

export async function deployment(namespace: string, name: string, replicas: number, spec: Partial<V1PodSpec> = {}): Promise<void> {
  await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name },
      spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec(spec) } },
    },
  });
}

export async function daemonSet(namespace: string, name: string): Promise<void> {
  await apps.createNamespacedDaemonSet({
    namespace,
    body: {
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec() } },
    },
  });
}

export async function unmanagedPod(namespace: string, name: string, node: string, spec: Partial<V1PodSpec> = {}): Promise<V1Pod> {
  return core.createNamespacedPod({
    namespace,
    body: { metadata: { name, labels: { app: name } }, spec: podSpec({ nodeName: node, ...spec }) },
  });
}

const isRunning = (p: V1Pod) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp;

/** Waits (list + watch) until `count` pods matching the selector run in the namespace; returns them. */
export async function running(namespace: string, labelSelector: string, count: number): Promise<V1Pod[]> {
  await waitFor<V1Pod>({
    kc,
    path: `/api/v1/namespaces/${namespace}/pods`,
    labelSelector,
    timeoutMs: 90_000,
    check: (items) => {
      const n = items.filter(isRunning).length;
      return { done: n === count, detail: `${n}/${count} running` };
    },
  });
  return (await core.listNamespacedPod({ namespace, labelSelector })).items.filter(isRunning);
}

export async function schedulableNodes(): Promise<string[]> {
  const nodes = await core.listNode();
  return nodes.items
    .filter((n) => !n.spec?.unschedulable && (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'))
    .map((n) => n.metadata!.name!)
    .sort();
}

/**
 * Schedulable nodes whose pods (other files' pods included: this sandbox is shared) need no
 * flag and are not held by a PodDisruptionBudget, so that a plain drain runs through.
 */
export async function cleanNodes(): Promise<string[]> {
  const nodes = await schedulableNodes();
  const dry = await dryRunDrain(kc, nodes, { force: false, deleteEmptyDirData: false });
  const clean = dry.nodes
    .filter(
      (n) => !n.pods.some((c) => c.action === 'needs-force' || c.action === 'needs-delete-emptydir-data' || c.action === 'blocked-pdb'),
    )
    .map((n) => n.node);
  if (clean.length < 2) throw new Error(`only ${clean.length} of ${nodes.length} nodes can be drained without flags: ${clean.join(', ')}`);
  return clean;
}

/** Pods may go to these nodes only. */
export const onlyOn = (nodes: string[]): Partial<V1PodSpec> => ({
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME, operator: 'In', values: nodes }] }],
      },
    },
  },
});

/** drainNode, remembering the node for the final uncordon; every progress report lands in `seen`. */
export async function drain(
  node: string,
  opts: Parameters<typeof drainNode>[2] = {},
  seen: DrainProgress[] = [],
  onReport?: (p: DrainProgress) => void,
  signal?: AbortSignal,
) {
  touched.add(node);
  return drainNode(
    kc,
    node,
    opts,
    (p) => {
      seen.push(p);
      onReport?.(p);
    },
    signal,
  );
}

export async function exists(namespace: string, name: string, uid?: string): Promise<boolean> {
  try {
    const p = await core.readNamespacedPod({ namespace, name });
    return uid === undefined || p.metadata?.uid === uid;
  } catch (err) {
    if (statusCode(err) === 404) return false;
    throw err;
  }
}

/** The file's clients and namespaces (of `NS`, those its tests use) in beforeAll; nodes uncordoned and namespaces deleted in afterAll. */
export function setUpDrainCluster(...uses: (keyof typeof NS)[]): void {
  const namespaces = uses.map((u) => NS[u]);
  beforeAll(async () => {
    kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
    core = makeClient(kc, CoreV1Api, 30_000);
    apps = makeClient(kc, AppsV1Api, 30_000);
    objects = makeClient(kc, KubernetesObjectApi, 30_000);
    for (const ns of namespaces) await createNamespace(core, ns);
  });

  afterAll(async () => {
    for (const node of touched) await uncordon(kc, node).catch(() => {});
    await Promise.all(namespaces.map((name) => core.deleteNamespace({ name }).catch(() => {})));
    await waitFor<V1Pod>({
      kc,
      path: '/api/v1/pods',
      timeoutMs: 120_000,
      check: (items) => {
        const left = items.filter((p) => namespaces.includes(p.metadata?.namespace ?? '')).length;
        return { done: left === 0, detail: `${left} pods of this file left` };
      },
    });
  });
}
