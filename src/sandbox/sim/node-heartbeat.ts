import { PatchStrategy, setHeaderOptions, V1MicroTime, type CoordinationV1Api, type CoreV1Api, type V1Node } from '@kubernetes/client-node';
import { describeError } from '../../kube/client.js';
import { FIELD_MANAGER, isConflict, isNotFound } from './context.js';
import { NOT_READY_TAINT, nodeStatus, type NodeState } from './node-status.js';

/** A kubelet's heartbeats: the node's status posted again, and its Lease in kube-node-lease renewed. */

export const LEASE_NAMESPACE = 'kube-node-lease';
const LEASE_SECONDS = 40;

const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Posts the node's status (conditions with a fresh heartbeat); undefined when the Node is gone. */
export async function postStatus(core: CoreV1Api, state: NodeState): Promise<V1Node | undefined> {
  try {
    return await core.patchNodeStatus({ name: state.name, body: { status: nodeStatus(state) }, fieldManager: FIELD_MANAGER }, mergePatch());
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
    state.last = await core.patchNode(
      {
        name: state.name,
        body: { metadata: { resourceVersion: node.metadata?.resourceVersion }, spec: { taints } },
        fieldManager: FIELD_MANAGER,
      },
      mergePatch(),
    );
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
