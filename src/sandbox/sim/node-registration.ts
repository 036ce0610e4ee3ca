import { randomUUID } from 'node:crypto';
import type { CoreV1Api, V1Node } from '@kubernetes/client-node';
import { ZONE_LABEL } from '../../kube/nodes/nodes.js';
import { FIELD_MANAGER, isConflict } from './context.js';
import { SANDBOX_NODE_ANNOTATION, nodeLabels, nodeStatus, type NodeState } from './node-status.js';
import { REPLACE_WHEN_DRAINED_ANNOTATION } from './replacer.js';

/** How many node addresses a cluster has (`127.1.<cluster>.1`–`.254`). */
export const MAX_NODES = 254;

/** The address of node `ordinal` of cluster `clusterIndex`. */
export function nodeIP(clusterIndex: number, ordinal: number): string {
  return `127.1.${clusterIndex}.${ordinal}`;
}

/** A node's ordinal, from its name (`…-node-<n>`) or else from its address; undefined when neither tells. */
export function ordinalOf(node: V1Node, clusterIndex: number): number | undefined {
  const m = /-node-(\d+)$/.exec(node.metadata?.name ?? '');
  if (m) return Number(m[1]);
  const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
  const prefix = `127.1.${clusterIndex}.`;
  return ip.startsWith(prefix) ? Number(ip.slice(prefix.length)) || undefined : undefined;
}

export function newNodeState(name: string, ordinal: number, ip: string): NodeState {
  const now = new Date();
  return { name, ordinal, ip, ready: true, readySince: now, registeredAt: now, bootID: randomUUID() };
}

/**
 * The state of a Node this sandbox registered before (annotated with its cluster's name and
 * with an ordinal), to take over after a restart; undefined for any other Node.
 */
export function adoptedState(node: V1Node, cluster: { name: string; index: number }): NodeState | undefined {
  const ordinal = ordinalOf(node, cluster.index);
  if (node.metadata?.annotations?.[SANDBOX_NODE_ANNOTATION] !== cluster.name || !ordinal) return undefined;
  const ip = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? nodeIP(cluster.index, ordinal);
  const created = node.metadata?.creationTimestamp ? new Date(node.metadata.creationTimestamp) : new Date();
  return { ...newNodeState(node.metadata?.name ?? '', ordinal, ip), uid: node.metadata?.uid, registeredAt: created, last: node };
}

/**
 * The ordinal of the next node: one above the highest handed out, or, once every address was
 * handed out (replacements take new ones), the lowest free one. Throws when none is left.
 */
export function nextOrdinal(highest: number, used: ReadonlySet<number>): number {
  if (highest + 1 <= MAX_NODES) return highest + 1;
  const free = Array.from({ length: MAX_NODES }, (_, i) => i + 1).find((o) => !used.has(o));
  if (!free) throw new Error(`no free node address left (${MAX_NODES} nodes per cluster)`);
  return free;
}

/**
 * Registers the node as its kubelet does (labels, annotations, provider ID and a first status);
 * a Node of that name already there (an earlier attempt went through) is taken over.
 */
export async function registerNode(
  core: CoreV1Api,
  state: NodeState,
  opts: { clusterName: string; replaceDrained: boolean; log: (line: string) => void },
): Promise<void> {
  const { name, ordinal } = state;
  const body: V1Node = {
    metadata: {
      name,
      labels: state.labels ?? nodeLabels(name, ordinal),
      annotations: {
        [SANDBOX_NODE_ANNOTATION]: opts.clusterName,
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        ...(opts.replaceDrained ? { [REPLACE_WHEN_DRAINED_ANNOTATION]: 'true' } : {}),
        ...state.annotations,
      },
    },
    spec: { providerID: `sandbox://${opts.clusterName}/${name}` },
    status: nodeStatus(state),
  };
  try {
    const created = await core.createNode({ body, fieldManager: FIELD_MANAGER });
    state.uid = created.metadata?.uid;
    state.last = created;
    opts.log(`kubelet: registered node ${name} (${state.ip}, ${body.metadata?.labels?.[ZONE_LABEL]})`);
  } catch (err) {
    if (!isConflict(err)) throw err;
    const existing = await core.readNode({ name });
    state.uid = existing.metadata?.uid;
    state.last = existing;
  }
}
