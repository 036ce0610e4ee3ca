/**
 * The pods whose logs are read: a workload's selector (Deployment, StatefulSet, DaemonSet), the
 * pods of a namespace by selector or by name, listed once or watched. Read-only: only GETs and
 * watches. Pods are reduced to what choosing containers and following them needs.
 */
import type { KubeConfig, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import { makeJsonClient, statusCode } from '../transport/client.js';
import { listJsonPaged } from '../watch/list.js';
import { type LabelSelector, selectorString } from '../api/selector.js';
import { ResilientWatch, type WatchEventType } from '../watch/watch.js';

export type WorkloadKind = 'deployment' | 'statefulset' | 'daemonset';

const PLURAL: Record<WorkloadKind, string> = { deployment: 'deployments', statefulset: 'statefulsets', daemonset: 'daemonsets' };

/** One container's state as the log reader cares for it. */
export interface LogContainerStatus {
  restarts: number;
  /** The runtime's id of the current instance ('' before it started). */
  containerID: string;
  state: 'waiting' | 'running' | 'terminated';
  /** Why it waits (CrashLoopBackOff, ContainerCreating…). */
  reason?: string;
}

/** A pod reduced to its containers and their states. */
export interface LogPod {
  namespace: string;
  name: string;
  uid: string;
  labels: Record<string, string>;
  containers: string[];
  initContainers: string[];
  /** The `kubectl.kubernetes.io/default-container` annotation. */
  defaultContainer?: string;
  statuses: Record<string, LogContainerStatus>;
  deleting: boolean;
  /** Succeeded or Failed: no container of it runs again. */
  finished: boolean;
}

/** Which pods: by name, by a label selector the server applies, and/or a filter applied here. */
export interface PodQuery {
  name?: string;
  labelSelector?: string;
  match?: (labels: Readonly<Record<string, string>>) => boolean;
}

function containerStatus(s: V1ContainerStatus): LogContainerStatus {
  const st = s.state ?? {};
  const state = st.running ? 'running' : st.terminated ? 'terminated' : 'waiting';
  const out: LogContainerStatus = { restarts: s.restartCount ?? 0, containerID: s.containerID ?? '', state };
  if (st.waiting?.reason) out.reason = st.waiting.reason;
  return out;
}

export function summarizeLogPod(pod: V1Pod): LogPod {
  const statuses: Record<string, LogContainerStatus> = {};
  for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    statuses[s.name] = containerStatus(s);
  }
  const annotations = pod.metadata?.annotations ?? {};
  const out: LogPod = {
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid ?? '',
    labels: { ...(pod.metadata?.labels ?? {}) },
    containers: (pod.spec?.containers ?? []).map((c) => c.name),
    initContainers: (pod.spec?.initContainers ?? []).map((c) => c.name),
    statuses,
    deleting: !!pod.metadata?.deletionTimestamp,
    finished: pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed',
  };
  const dflt = annotations['kubectl.kubernetes.io/default-container'];
  if (dflt) out.defaultContainer = dflt;
  return out;
}

/**
 * The label selector of a Deployment, StatefulSet or DaemonSet, in kubectl's syntax
 * (`app=web,tier in (a,b)`). A workload that is not there: one line, exit 1.
 */
export async function readWorkloadSelector(kc: KubeConfig, namespace: string, kind: WorkloadKind, name: string): Promise<string> {
  const client = makeJsonClient(kc);
  const path = `/apis/apps/v1/namespaces/${encodeURIComponent(namespace)}/${PLURAL[kind]}/${encodeURIComponent(name)}`;
  let obj: { spec?: { selector?: LabelSelector } };
  try {
    obj = await client.get(path);
  } catch (err) {
    if (statusCode(err) === 404) throw new UserError(`${kind} "${name}" not found in namespace ${namespace}`);
    throw err;
  }
  const text = obj.spec?.selector ? selectorString(obj.spec.selector) : '';
  if (!text) throw new UserError(`${kind} "${name}" in namespace ${namespace} has no pod selector`);
  return text;
}

function queryParams(q: PodQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (q.labelSelector) params.labelSelector = q.labelSelector;
  if (q.name) params.fieldSelector = `metadata.name=${q.name}`;
  return params;
}

const podsPath = (namespace: string) => `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;

/** The pods of `namespace` that the query selects, as a list (with the list's resourceVersion). */
export async function listLogPods(kc: KubeConfig, namespace: string, q: PodQuery): Promise<LogPod[]> {
  const client = makeJsonClient(kc);
  const res = await listJsonPaged<V1Pod, LogPod>(client, podsPath(namespace), queryParams(q), summarizeLogPod);
  return res.items.filter((p) => !q.match || q.match(p.labels));
}

export interface PodWatchHandlers {
  /** Every (re-)list: the complete set. */
  onList: (pods: LogPod[]) => void;
  onEvent: (type: WatchEventType, pod: LogPod) => void;
  onError?: (message: string) => void;
}

/** Watches the pods the query selects until stop(); restarts and re-lists as ResilientWatch does. */
export function watchLogPods(kc: KubeConfig, namespace: string, q: PodQuery, h: PodWatchHandlers): { stop: () => Promise<void> } {
  const client = makeJsonClient(kc);
  const keep = (p: LogPod) => !q.match || q.match(p.labels);
  const watch = new ResilientWatch<V1Pod, LogPod>({
    kc,
    path: podsPath(namespace),
    queryParams: queryParams(q),
    list: () => listJsonPaged<V1Pod, LogPod>(client, podsPath(namespace), queryParams(q), summarizeLogPod),
    onList: (items) => h.onList(items.filter(keep)),
    onEvent: (type, obj) => {
      const pod = summarizeLogPod(obj);
      if (keep(pod)) h.onEvent(type, pod);
      // A pod relabelled out of the selection ends as if deleted.
      else if (type === 'MODIFIED') h.onEvent('DELETED', pod);
    },
    onError: (message) => h.onError?.(message),
  });
  watch.start();
  return { stop: () => watch.stop() };
}
