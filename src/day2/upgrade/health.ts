/**
 * The upgrade's health gate between two steps: the workload rolled out (every replica updated
 * and ready, no old one left), the control plane's API answering through its load balancer, and
 * every agent still connected (its Cluster Ready in the control plane). A pod that cannot start
 * its new image (ImagePullBackOff, CrashLoopBackOff, …) fails the gate at once, with its reason.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { makeJsonClient } from '../../kube/transport/client.js';
import { waitApiSettled } from '../../kube/fleet/api-settled.js';
import { waitFor } from '../../kube/watch/wait.js';
import { StepError } from '../../install/runner.js';

/** Waiting reasons that do not go away by waiting. */
export const BAD_WAITING = ['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName', 'CrashLoopBackOff', 'CreateContainerConfigError'];

interface WorkloadJson {
  metadata?: { name?: string; generation?: number; resourceVersion?: string };
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
  };
}

interface PodJson {
  metadata?: { name?: string; resourceVersion?: string; deletionTimestamp?: string };
  spec?: { containers?: { name: string; image?: string }[] };
  status?: { containerStatuses?: { name: string; state?: { waiting?: { reason?: string; message?: string } } }[] };
}

/** Whether a Deployment or StatefulSet has rolled out its current spec, and a line saying where it is. */
export function rolledOut(kind: string, w: WorkloadJson | undefined): { done: boolean; detail: string } {
  if (!w) return { done: false, detail: 'not found' };
  const want = w.spec?.replicas ?? 1;
  const s = w.status ?? {};
  const observed = (s.observedGeneration ?? 0) >= (w.metadata?.generation ?? 0);
  const updated = s.updatedReplicas ?? 0;
  const ready = s.readyReplicas ?? 0;
  const revisionDone = kind !== 'StatefulSet' || !s.updateRevision || s.currentRevision === s.updateRevision;
  const done = observed && updated >= want && ready >= want && (s.replicas ?? 0) <= want && revisionDone;
  return {
    done,
    detail: `${updated}/${want} updated, ${ready}/${want} ready${(s.replicas ?? 0) > want ? `, ${(s.replicas ?? 0) - want} old still running` : ''}`,
  };
}

/** The images of a pod template or pod, `name=image` per container, in order. */
const imagesOf = (containers: readonly { name: string; image?: string }[] | undefined) =>
  (containers ?? []).map((c) => `${c.name}=${c.image ?? ''}`).join(',');

/**
 * The first pod that cannot start a container, as `pod: reason (message)`. With `images` (the
 * workload's template now), only pods of that template count: an old pod still in
 * ImagePullBackOff while a rollback replaces it is not the new spec failing.
 */
export function badPod(pods: readonly PodJson[], images?: string): string | undefined {
  for (const p of pods) {
    if (p.metadata?.deletionTimestamp) continue;
    if (images !== undefined && imagesOf(p.spec?.containers) !== images) continue;
    for (const c of p.status?.containerStatuses ?? []) {
      const w = c.state?.waiting;
      if (w?.reason && BAD_WAITING.includes(w.reason)) return `pod ${p.metadata?.name}: ${w.reason}${w.message ? ` (${w.message})` : ''}`;
    }
  }
  return undefined;
}

export interface RolloutWait {
  kc: KubeConfig;
  namespace: string;
  kind: 'Deployment' | 'StatefulSet';
  name: string;
  /** The pods' label selector. */
  selector: string;
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress: (detail: string) => void;
}

/** Waits until the workload rolled out; rejects at once when one of its pods cannot start (StepError naming the pod and reason). */
export async function waitRollout(o: RolloutWait): Promise<string> {
  const stop = new AbortController();
  const signal = o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal;
  let bad: string | undefined;
  const resource = o.kind === 'Deployment' ? 'deployments' : 'statefulsets';
  const current = await makeJsonClient(o.kc, 30_000)
    .get<{ spec?: { template?: { spec?: PodJson['spec'] } } }>(`/apis/apps/v1/namespaces/${o.namespace}/${resource}/${o.name}`)
    .catch(() => undefined);
  const images = current ? imagesOf(current.spec?.template?.spec?.containers) : undefined;
  const rollout = waitFor<WorkloadJson>({
    kc: o.kc,
    path: `/apis/apps/v1/namespaces/${o.namespace}/${resource}`,
    fieldSelector: `metadata.name=${o.name}`,
    timeoutMs: o.timeoutMs,
    signal,
    check: (items) => rolledOut(o.kind, items[0]),
    onProgress: o.onProgress,
  });
  const pods = waitFor<PodJson>({
    kc: o.kc,
    path: `/api/v1/namespaces/${o.namespace}/pods`,
    labelSelector: o.selector,
    timeoutMs: o.timeoutMs + 60_000,
    signal,
    check: (items) => {
      bad = badPod(items, images);
      return { done: bad !== undefined, detail: bad ?? '' };
    },
  });
  try {
    return await Promise.race([rollout, pods.then(() => Promise.reject(new StepError(`${o.kind} ${o.name}: ${bad}`)))]);
  } finally {
    stop.abort(new Error('done'));
    await Promise.allSettled([rollout, pods]);
  }
}

const SETTLE_ANSWERS = 3;

/** Waits (up to `timeoutMs`) until the control plane's /readyz answers ready a few times in a row. */
export async function waitApiAnswering(kc: KubeConfig, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  await waitApiSettled(kc, { inARow: SETTLE_ANSWERS, timeoutMs, ...(signal ? { signal } : {}) });
  return `answered ${SETTLE_ANSWERS} times in a row (/readyz)`;
}

interface ClusterJson {
  metadata?: { name?: string; resourceVersion?: string };
  status?: { conditions?: { type: string; status: string }[] };
}

/** Waits until every named Cluster is Ready in the control plane. */
export function waitAgentsConnected(
  kc: KubeConfig,
  clusters: readonly string[],
  timeoutMs: number,
  signal?: AbortSignal,
  onProgress?: (d: string) => void,
): Promise<string> {
  if (clusters.length === 0) return Promise.resolve('no workload cluster');
  return waitFor<ClusterJson>({
    kc,
    path: '/apis/cluster.elotl.co/v1alpha1/clusters',
    timeoutMs,
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress } : {}),
    check: (items) => {
      const ready = (name: string) =>
        items.find((c) => c.metadata?.name === name)?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
      const down = clusters.filter((c) => !ready(c));
      return {
        done: down.length === 0,
        detail: down.length === 0 ? `${clusters.length}/${clusters.length} connected` : `not Ready: ${down.join(', ')}`,
      };
    },
  });
}
