import type { CoreV1Api, KubeConfig, V1Node } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '../transport/client-node.js';
import { lazyClient, makeJsonClient, statusCode } from '../transport/client.js';
import { listJsonPaged, toMs } from '../watch/list.js';
import { waitFor, type WaitVerdict } from '../watch/wait.js';
import { ResilientWatch } from '../watch/watch.js';

export const ZONE_LABEL = 'topology.kubernetes.io/zone';
const LEGACY_ZONE_LABEL = 'failure-domain.beta.kubernetes.io/zone';
const ROLE_PREFIX = 'node-role.kubernetes.io/';

/** The small summary the store keeps for a Node. */
export function summarizeNode(node: V1Node): NodeSummary {
  const labels = node.metadata?.labels ?? {};
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const isReady = ready?.status === 'True';
  const roles = Object.keys(labels)
    .filter((l) => l.startsWith(ROLE_PREFIX))
    .map((l) => l.slice(ROLE_PREFIX.length))
    .filter((r) => r.length > 0)
    .sort();
  const summary: NodeSummary = {
    name: node.metadata?.name ?? '',
    uid: node.metadata?.uid ?? '',
    ready: isReady,
    unschedulable: node.spec?.unschedulable === true,
    roles,
  };
  const zone = labels[ZONE_LABEL] ?? labels[LEGACY_ZONE_LABEL];
  if (zone) summary.zone = zone;
  const kubelet = node.status?.nodeInfo?.kubeletVersion;
  if (kubelet) summary.kubeletVersion = kubelet;
  const createdAt = toMs(node.metadata?.creationTimestamp);
  if (createdAt !== undefined) summary.createdAt = createdAt;
  if (!isReady) {
    summary.notReadyReason = ready
      ? [ready.reason ?? `Ready=${ready.status}`, ready.message].filter(Boolean).join(': ')
      : 'no Ready condition (kubelet never reported)';
  }
  return summary;
}

export interface NodeSummary {
  name: string;
  uid: string;
  ready: boolean;
  /** Reason (and message) of the Ready condition when not Ready. */
  notReadyReason?: string;
  unschedulable: boolean;
  zone?: string;
  roles: string[];
  kubeletVersion?: string;
  /** Epoch ms of the Node's creation (its AGE). */
  createdAt?: number;
}

// ---------------------------------------------------------------------------------------------
// Operations on Nodes (cordon, uncordon, delete, read, list, watch readiness)

const NODE_REQUEST_TIMEOUT_MS = 30_000;
const NODES_PATH = '/api/v1/nodes';
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const core = (kc: KubeConfig) =>
  lazyClient<CoreV1Api>(kc, async () => (await import('../transport/api-classes.js')).CoreV1Api, NODE_REQUEST_TIMEOUT_MS);

/** A Node as the server sends it in a JSON list (the fields read here). */
interface NodeJson {
  metadata?: {
    name?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    creationTimestamp?: string;
    resourceVersion?: string;
  };
  spec?: { unschedulable?: boolean };
  status?: { conditions?: { type: string; status: string }[]; allocatable?: Record<string, string> };
}

const isReadyJson = (n: NodeJson) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

async function setUnschedulable(kc: KubeConfig, node: string, value: boolean): Promise<boolean> {
  const current = await core(kc).readNode({ name: node });
  if ((current.spec?.unschedulable === true) === value) return false;
  await core(kc).patchNode({ name: node, body: { spec: { unschedulable: value ? true : null } } }, mergePatch());
  return true;
}

/** Marks the node unschedulable (a merge patch of spec.unschedulable). Resolves true when it changed something. */
export function cordon(kc: KubeConfig, node: string): Promise<boolean> {
  return setUnschedulable(kc, node, true);
}

/** Makes the node schedulable again. Resolves true when it changed something. */
export function uncordon(kc: KubeConfig, node: string): Promise<boolean> {
  return setUnschedulable(kc, node, false);
}

/** Deletes the Node object. Resolves false when it was gone already. */
export async function deleteNode(kc: KubeConfig, node: string): Promise<boolean> {
  try {
    await core(kc).deleteNode({ name: node });
    return true;
  } catch (err) {
    if (statusCode(err) === 404) return false;
    throw err;
  }
}

/** The node's summary; undefined when there is no such node (other errors are thrown). */
export async function readNodeSummary(kc: KubeConfig, node: string): Promise<NodeSummary | undefined> {
  try {
    return summarizeNode(await core(kc).readNode({ name: node }));
  } catch (err) {
    if (statusCode(err) === 404) return undefined;
    throw err;
  }
}

/** Merges annotations into a node's metadata. */
export async function annotateNode(kc: KubeConfig, node: string, annotations: Record<string, string>): Promise<void> {
  await core(kc).patchNode({ name: node, body: { metadata: { annotations } } }, mergePatch());
}

/** A node with its labels and annotations, as a plan (or anything selecting nodes) reads it. */
export interface LabeledNode {
  name: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  unschedulable: boolean;
  ready: boolean;
}

/** Every node with its labels (one list, read as plain JSON). */
export async function listLabeledNodes(kc: KubeConfig): Promise<LabeledNode[]> {
  const res = await makeJsonClient(kc, NODE_REQUEST_TIMEOUT_MS).get<{ items: NodeJson[] }>(NODES_PATH);
  return res.items.map((n) => ({
    name: n.metadata?.name ?? '',
    labels: n.metadata?.labels ?? {},
    annotations: n.metadata?.annotations ?? {},
    unschedulable: n.spec?.unschedulable === true,
    ready: isReadyJson(n),
  }));
}

/** A node's allocatable resources as the server writes them (quantities), with its state. */
export interface NodeCapacity {
  name: string;
  ready: boolean;
  unschedulable: boolean;
  allocatable: Record<string, string>;
}

/** Every node's allocatable (read page by page). */
export async function listNodeCapacity(kc: KubeConfig): Promise<NodeCapacity[]> {
  const res = await listJsonPaged<NodeJson, NodeCapacity>(makeJsonClient(kc, NODE_REQUEST_TIMEOUT_MS), NODES_PATH, {}, (n) => ({
    name: n.metadata?.name ?? '',
    ready: isReadyJson(n),
    unschedulable: n.spec?.unschedulable === true,
    allocatable: n.status?.allocatable ?? {},
  }));
  return res.items;
}

/** A node as a wait for its replacement sees it. */
export interface NodeIdentity {
  name: string;
  uid: string;
  ready: boolean;
  unschedulable: boolean;
  /** ISO creation time. */
  created: string;
}

/**
 * Waits (list and watch, no polling) until `check` is satisfied by the cluster's nodes. Resolves
 * with the last detail; rejects with WaitTimeout or the signal's reason.
 */
export function waitForNodes(
  kc: KubeConfig,
  check: (nodes: NodeIdentity[]) => WaitVerdict,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string> {
  return waitFor<NodeJson>({
    kc,
    path: NODES_PATH,
    timeoutMs,
    signal,
    check: (items) =>
      check(
        items.map((i) => ({
          name: i.metadata?.name ?? '',
          uid: i.metadata?.uid ?? '',
          ready: isReadyJson(i),
          unschedulable: i.spec?.unschedulable === true,
          created: i.metadata?.creationTimestamp ?? '',
        })),
      ),
  });
}

export interface ReadinessHandlers {
  /** The nodes by name and whether each is Ready, after the (re-)list and every event. */
  onChange: (ready: ReadonlyMap<string, boolean>, listed: boolean) => void;
  onError: (message: string) => void;
}

/** Watches every node's Ready condition. */
export function watchNodeReadiness(kc: KubeConfig, handlers: ReadinessHandlers): { start(): void; stop(): Promise<void> } {
  const json = makeJsonClient(kc, NODE_REQUEST_TIMEOUT_MS);
  const nodes = new Map<string, boolean>();
  let listed = false;
  return new ResilientWatch<NodeJson>({
    kc,
    path: NODES_PATH,
    list: () => json.get(NODES_PATH),
    onList: (items) => {
      nodes.clear();
      for (const n of items) nodes.set(n.metadata?.name ?? '', isReadyJson(n));
      listed = true;
      handlers.onChange(nodes, listed);
    },
    onEvent: (type, n) => {
      if (type === 'DELETED') nodes.delete(n.metadata?.name ?? '');
      else nodes.set(n.metadata?.name ?? '', isReadyJson(n));
      handlers.onChange(nodes, listed);
    },
    onError: (m) => handlers.onError(m),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
}
