/**
 * Pods for drains and gates: the pods of a node (listed page by page, watched), one pod read
 * by name, deleted with a UID precondition, the Pending pods watched, and whether a
 * DaemonSet that controls a pod exists. (The Status screen's pod watcher is src/kube/pods/pods.ts.)
 */
import { AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { describeError, makeClient, makeJsonClient, statusCode } from '../transport/client.js';
import { listJsonPaged } from '../watch/list.js';
import { ResilientWatch, type WatchEventType } from '../watch/watch.js';

const REQUEST_TIMEOUT_MS = 30_000;
const PODS_PATH = '/api/v1/pods';

/** The fields of a pod a drain reads; fits client-node's V1Pod and the JSON the server sends. */
export interface PodObject {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean; apiVersion?: string; uid?: string }[];
    deletionTimestamp?: Date | string | null;
  };
  spec?: {
    nodeName?: string;
    volumes?: { name: string; emptyDir?: object | null }[];
    containers?: { resources?: { requests?: Record<string, string | number> } }[];
    initContainers?: { resources?: { requests?: Record<string, string | number> } }[];
    overhead?: Record<string, string | number>;
  };
  status?: { phase?: string };
}

const nodeSelector = (node: string) => `spec.nodeName=${node}`;

/** Pods of the cluster matching a query (field or label selector), each reduced by `map` as its page arrives. */
export async function listPods<U>(kc: KubeConfig, query: Record<string, string>, map: (p: PodObject) => U): Promise<U[]> {
  const res = await listJsonPaged<PodObject, U>(makeJsonClient(kc, REQUEST_TIMEOUT_MS), PODS_PATH, query, map);
  return res.items;
}

/** The pods bound to a node, as the server sends them. */
export function listNodePods(kc: KubeConfig, node: string): Promise<PodObject[]> {
  return listPods(kc, { fieldSelector: nodeSelector(node) }, (p) => p);
}

/** The UID of the pod of that name now; undefined when there is none. */
export async function readPodUid(kc: KubeConfig, namespace: string, name: string): Promise<string | undefined> {
  try {
    const p = await makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS).readNamespacedPod({ name, namespace });
    return p.metadata?.uid ?? '';
  } catch (err) {
    if (statusCode(err) === 404) return undefined;
    throw err;
  }
}

/** Options of a pod's deletion (or eviction): only the pod with this UID, with this grace period (default: the pod's). */
export interface PodDeleteOptions {
  uid: string;
  gracePeriodSeconds?: number;
}

export const deleteOptionsBody = (o: PodDeleteOptions) => ({
  ...(o.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: o.gracePeriodSeconds } : {}),
  preconditions: { uid: o.uid },
});

/** Deletes the pod (a UID precondition: a new pod of the same name is not touched). Errors are client-node's. */
export async function deletePod(kc: KubeConfig, namespace: string, name: string, o: PodDeleteOptions): Promise<void> {
  await makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS).deleteNamespacedPod({ name, namespace, body: deleteOptionsBody(o) });
}

/**
 * Whether the DaemonSet `namespace/name` exists; a read that fails otherwise than 404 throws
 * one line naming it.
 */
export async function daemonSetExists(kc: KubeConfig, namespace: string, name: string): Promise<'exists' | 'missing'> {
  try {
    await makeClient(kc, AppsV1Api, REQUEST_TIMEOUT_MS).readNamespacedDaemonSet({ name, namespace });
    return 'exists';
  } catch (err) {
    if (statusCode(err) === 404) return 'missing';
    throw new Error(`cannot read DaemonSet ${namespace}/${name}: ${describeError(err)}`);
  }
}

export interface PodWatchHandlers {
  /** The initial list and every re-list. */
  onList: (pods: PodObject[]) => void;
  onEvent: (type: WatchEventType, pod: PodObject) => void;
  onError: (message: string) => void;
}

export interface PodWatch {
  start(): void;
  stop(): Promise<void>;
}

function watchPods(kc: KubeConfig, fieldSelector: string, handlers: PodWatchHandlers): PodWatch {
  const json = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  return new ResilientWatch<PodObject>({
    kc,
    path: PODS_PATH,
    queryParams: { fieldSelector },
    list: () => json.get<{ items: PodObject[]; metadata?: { resourceVersion?: string } }>(PODS_PATH, { fieldSelector }),
    onList: handlers.onList,
    onEvent: handlers.onEvent,
    onError: (message) => handlers.onError(message),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
}

/** Watches the pods bound to a node (list, then watch; re-listed after errors). */
export function watchNodePods(kc: KubeConfig, node: string, handlers: PodWatchHandlers): PodWatch {
  return watchPods(kc, nodeSelector(node), handlers);
}

/** Watches the Pending pods of the cluster: leaving Pending arrives as DELETED (field-selected watch). */
export function watchPendingPods(kc: KubeConfig, handlers: PodWatchHandlers): PodWatch {
  return watchPods(kc, 'status.phase=Pending', handlers);
}
