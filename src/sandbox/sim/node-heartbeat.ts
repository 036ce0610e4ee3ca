import {
  PatchStrategy,
  setHeaderOptions,
  V1MicroTime,
  type CoordinationV1Api,
  type CoreV1Api,
  type V1Node,
  type V1NodeStatus,
} from '@kubernetes/client-node';
import { describeError } from '../../kube/transport/client.js';
import { FIELD_MANAGER, isConflict, isNotFound } from './context.js';
import { NOT_READY_TAINT, nodeStatus, remember, type NodeState } from './node-status.js';

/**
 * A kubelet's heartbeats, as kubelets since Kubernetes 1.17 send them: the node's Lease in
 * kube-node-lease renewed every 10 s, and the Node's status posted only when it changed (the
 * heartbeat times aside) or every 5 minutes (the kubelet's nodeStatusReportFrequency).
 */

export const LEASE_NAMESPACE = 'kube-node-lease';
const LEASE_SECONDS = 40;
/** The kubelet's nodeStatusReportFrequency: an unchanged status is posted again this often. */
export const STATUS_REPORT_MS = 5 * 60_000;

const seconds = (t: Date | string | undefined) => (t === undefined ? undefined : Math.floor(new Date(t).getTime() / 1000));

/** JSON with keys sorted: the API's order of keys is not the kubelet's. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/**
 * What of a status counts as a change: the conditions the kubelet posts (times to the second,
 * as the API keeps them; heartbeat times left out), addresses, capacity, endpoint and node info.
 */
function essence(status: V1NodeStatus | undefined, types: Set<string | undefined>): string {
  if (!status) return '';
  const conditions = (status.conditions ?? [])
    .filter((c) => types.has(c.type))
    .map((c) => [c.type, c.status, c.reason, c.message, seconds(c.lastTransitionTime)])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  const { addresses, capacity, allocatable, daemonEndpoints, nodeInfo } = status;
  return canonical([conditions, addresses, capacity, allocatable, daemonEndpoints?.kubeletEndpoint?.Port, nodeInfo]);
}

/**
 * Whether the kubelet posts the node's status now: the Node as the API has it (`current`)
 * differs from what it would post (a Ready set to Unknown by the node controller, say), or the
 * last post is STATUS_REPORT_MS old.
 */
export function statusToReport(
  current: V1Node | undefined,
  desired: V1NodeStatus,
  lastReportAt: number | undefined,
  now = Date.now(),
): boolean {
  if (!current || lastReportAt === undefined || now - lastReportAt >= STATUS_REPORT_MS) return true;
  const types = new Set((desired.conditions ?? []).map((c) => c.type));
  return essence(current.status, types) !== essence(desired, types);
}

const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Posts the node's status (conditions with a fresh heartbeat); undefined when the Node is gone. */
export async function postStatus(core: CoreV1Api, state: NodeState, status: V1NodeStatus = nodeStatus(state)): Promise<V1Node | undefined> {
  try {
    return await core.patchNodeStatus({ name: state.name, body: { status }, fieldManager: FIELD_MANAGER }, mergePatch());
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/**
 * Removes the not-ready taint; the resourceVersion makes a concurrent change a conflict.
 * Resolves false on a conflict (read it again on the next sync).
 */
export async function untaint(core: CoreV1Api, state: NodeState, node: V1Node): Promise<boolean> {
  const taints = (node.spec?.taints ?? []).filter((t) => t.key !== NOT_READY_TAINT);
  try {
    const patched = await core.patchNode(
      {
        name: state.name,
        body: { metadata: { resourceVersion: node.metadata?.resourceVersion }, spec: { taints } },
        fieldManager: FIELD_MANAGER,
      },
      mergePatch(),
    );
    remember(state, patched);
    return true;
  } catch (err) {
    if (!isConflict(err)) throw err;
    return false;
  }
}

/** Renews the node's Lease, creating it (owned by the Node) when there is none. */
export async function renewLease(coordination: CoordinationV1Api, state: NodeState): Promise<void> {
  const name = state.name;
  const spec = { holderIdentity: name, leaseDurationSeconds: LEASE_SECONDS, renewTime: new V1MicroTime() };
  try {
    await coordination.patchNamespacedLease(
      { name, namespace: LEASE_NAMESPACE, body: { spec }, fieldManager: FIELD_MANAGER },
      mergePatch(),
    );
    return;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await coordination.createNamespacedLease({
      namespace: LEASE_NAMESPACE,
      body: {
        metadata: {
          name,
          namespace: LEASE_NAMESPACE,
          ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: state.uid ?? '' }],
        },
        spec,
      },
      fieldManager: FIELD_MANAGER,
    });
  } catch (err) {
    if (!isConflict(err)) throw new Error(`lease ${name}: ${describeError(err)}`);
  }
}
