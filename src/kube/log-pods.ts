/**
 * The pods a log view reads: found by name or label selector, reduced to what choosing a
 * container needs (its containers, the default one, restarts, whether the previous instance's
 * log is the one to show first), and watched for pods that join a selector.
 */
import { eventCount, eventLastSeen } from './events.js';
import { makeJsonClient, statusCode } from './client.js';
import { listJsonPaged } from './list.js';
import { ResilientWatch, type WatchEventType } from './watch.js';
import type { CoreV1Event, KubeConfig } from '@kubernetes/client-node';

const REQUEST_TIMEOUT_MS = 15_000;
export const DEFAULT_CONTAINER_ANNOTATION = 'kubectl.kubernetes.io/default-container';

interface ContainerStatusJson {
  name: string;
  restartCount?: number;
  state?: { waiting?: { reason?: string }; running?: object; terminated?: object };
  lastState?: { terminated?: object };
}

/** The fields of a pod read here, as the server sends them. */
export interface LogPodJson {
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: { containers?: { name: string }[]; initContainers?: { name: string }[] };
  status?: { containerStatuses?: ContainerStatusJson[]; initContainerStatuses?: ContainerStatusJson[] };
}

export interface LogContainer {
  name: string;
  restarts: number;
  /** It restarted and is not running now (CrashLoopBackOff, or terminated after an earlier run). */
  previousPreferred: boolean;
}

export interface LogPod {
  name: string;
  /** App containers in spec order, then init containers. */
  containers: LogContainer[];
  /** The annotation's container when the pod has it, else the first. */
  defaultContainer: string;
}

/** Whether the previous instance's log is the one worth reading first. */
export function prefersPrevious(s: ContainerStatusJson | undefined): boolean {
  if (!s || (s.restartCount ?? 0) === 0) return false;
  if (s.state?.waiting?.reason === 'CrashLoopBackOff') return true;
  return !s.state?.running && s.lastState?.terminated !== undefined;
}

/** The container kubectl would pick: the default-container annotation's when the pod has it, else the first. */
export function defaultContainer(pod: LogPodJson): string {
  const names = (pod.spec?.containers ?? []).map((c) => c.name);
  const wanted = pod.metadata?.annotations?.[DEFAULT_CONTAINER_ANNOTATION];
  return wanted && names.includes(wanted) ? wanted : (names[0] ?? '');
}

export function summarizeLogPod(pod: LogPodJson): LogPod {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const names = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => c.name);
  return {
    name: pod.metadata?.name ?? '',
    containers: names.map((name) => {
      const s = statuses.find((x) => x.name === name);
      return { name, restarts: s?.restartCount ?? 0, previousPreferred: prefersPrevious(s) };
    }),
    defaultContainer: defaultContainer(pod),
  };
}

const podsPath = (namespace: string) => `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods`;

/** The pods of a namespace matching a label selector. */
export async function listLogPods(kc: KubeConfig, namespace: string, selector: string): Promise<LogPod[]> {
  const res = await listJsonPaged<LogPodJson, LogPod>(
    makeJsonClient(kc, REQUEST_TIMEOUT_MS),
    podsPath(namespace),
    { labelSelector: selector },
    summarizeLogPod,
  );
  return res.items;
}

/** A pod by name, with its labels (to match a selector); undefined when there is none. */
export async function readLogPod(
  kc: KubeConfig,
  namespace: string,
  name: string,
): Promise<{ pod: LogPod; labels: Record<string, string> } | undefined> {
  try {
    const p = await makeJsonClient(kc, REQUEST_TIMEOUT_MS).get<LogPodJson>(`${podsPath(namespace)}/${encodeURIComponent(name)}`);
    return { pod: summarizeLogPod(p), labels: p.metadata?.labels ?? {} };
  } catch (err) {
    if (statusCode(err) === 404) return undefined;
    throw err;
  }
}

export interface LogPodWatch {
  start(): void;
  stop(): Promise<void>;
}

/** Watches the pods of a selector: `onPod` for every pod listed or added (again after a re-list). */
export function watchLogPods(
  kc: KubeConfig,
  namespace: string,
  selector: string,
  onPod: (pod: LogPod) => void,
  onError: (message: string) => void,
): LogPodWatch {
  const json = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  const path = podsPath(namespace);
  return new ResilientWatch<LogPodJson>({
    kc,
    path,
    queryParams: { labelSelector: selector },
    list: () => json.get<{ items: LogPodJson[]; metadata?: { resourceVersion?: string } }>(path, { labelSelector: selector }),
    onList: (items) => {
      for (const p of items) onPod(summarizeLogPod(p));
    },
    onEvent: (type: WatchEventType, p) => {
      if (type !== 'DELETED') onPod(summarizeLogPod(p));
    },
    onError: (message) => onError(message),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
}

/** One Event of an object, newest first in lists. */
export interface ObjectEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastSeen: number;
}

/** At most this many Events of an object are kept (the newest). */
export const OBJECT_EVENT_LIMIT = 50;

/** The Events of one object (by kind and name, in its namespace), newest first. */
export async function listObjectEvents(kc: KubeConfig, namespace: string, kind: string, name: string): Promise<ObjectEvent[]> {
  const fieldSelector = `involvedObject.kind=${kind},involvedObject.name=${name}`;
  const res = await listJsonPaged<CoreV1Event, ObjectEvent>(
    makeJsonClient(kc, REQUEST_TIMEOUT_MS),
    `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`,
    { fieldSelector },
    (e) => ({
      type: e.type ?? 'Normal',
      reason: e.reason ?? '',
      message: (e.message ?? '').replace(/\s+/g, ' ').trim(),
      count: eventCount(e),
      lastSeen: eventLastSeen(e),
    }),
  );
  return res.items.sort((a, b) => b.lastSeen - a.lastSeen).slice(0, OBJECT_EVENT_LIMIT);
}
