/**
 * Room on the other nodes: would the pods a drain evicts fit elsewhere? The sum per resource
 * (pure), and the nodes' allocatable and requests read from the cluster.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { listNodeCapacity } from '../../kube/nodes/nodes.js';
import { listPods } from '../../kube/pods/pod-ops.js';
import { bytes, cpuMilli, formatBytes, formatCpu } from '../../kube/api/quantity.js';
import { controllerOf, podRequests, type DrainPod, type PodClassification, type PodRequests } from './filters.js';

export interface NodeRoom {
  name: string;
  ready: boolean;
  unschedulable: boolean;
  allocatable: { cpuMilli: number; memoryBytes: number; pods: number };
  /** Sum of the requests of the (not finished) pods already bound to the node, and their count. */
  requested: { cpuMilli: number; memoryBytes: number; pods: number };
}

export interface RoomCheck {
  fits: boolean;
  detail: string;
}

const CAVEAT = 'sum per resource over the nodes; selectors, affinity, taints and per-node fragmentation not considered';

/**
 * Would the evicted pods' requests fit on the remaining nodes? Sums per resource (CPU, memory,
 * pod slots) over the schedulable, Ready nodes not being drained: their allocatable minus what
 * their pods already request. A sum, not a scheduling simulation: node selectors, affinity,
 * taints and how the free room is split between nodes are not considered — the detail says so.
 */
export function roomCheck(evicted: readonly PodRequests[], nodes: readonly NodeRoom[], draining: ReadonlySet<string>): RoomCheck {
  const need = { cpuMilli: 0, memoryBytes: 0, pods: evicted.length };
  for (const r of evicted) {
    need.cpuMilli += r.cpuMilli;
    need.memoryBytes += r.memoryBytes;
  }
  const targets = nodes.filter((n) => !draining.has(n.name) && n.ready && !n.unschedulable);
  const free = { cpuMilli: 0, memoryBytes: 0, pods: 0 };
  for (const n of targets) {
    free.cpuMilli += Math.max(0, n.allocatable.cpuMilli - n.requested.cpuMilli);
    free.memoryBytes += Math.max(0, n.allocatable.memoryBytes - n.requested.memoryBytes);
    free.pods += Math.max(0, n.allocatable.pods - n.requested.pods);
  }
  if (need.pods === 0) return { fits: true, detail: 'nothing to evict' };
  if (targets.length === 0) {
    const off = nodes.length - targets.length;
    return { fits: false, detail: `no schedulable Ready node left for ${need.pods} pods (${off} nodes draining, cordoned or not Ready)` };
  }
  const short: string[] = [];
  if (need.cpuMilli > free.cpuMilli) short.push(`CPU ${formatCpu(need.cpuMilli)} requested, ${formatCpu(free.cpuMilli)} free`);
  if (need.memoryBytes > free.memoryBytes)
    short.push(`memory ${formatBytes(need.memoryBytes)} requested, ${formatBytes(free.memoryBytes)} free`);
  if (need.pods > free.pods) short.push(`${need.pods} pods, ${free.pods} pod slots free`);
  const on = `on ${targets.length} schedulable Ready node${targets.length === 1 ? '' : 's'}`;
  if (short.length) return { fits: false, detail: `does not fit ${on}: ${short.join('; ')} (${CAVEAT})` };
  return {
    fits: true,
    detail: `fits ${on}: CPU ${formatCpu(need.cpuMilli)} of ${formatCpu(free.cpuMilli)} free, memory ${formatBytes(need.memoryBytes)} of ${formatBytes(free.memoryBytes)} free, ${need.pods} of ${free.pods} pod slots (${CAVEAT})`,
  };
}

/** The requests that need room elsewhere: evicted pods a controller recreates (finished, ignored and unmanaged ones do not come back). */
export function roomNeeded(classes: readonly PodClassification[], pods: readonly DrainPod[]): PodRequests[] {
  const byUid = new Map(pods.map((p) => [p.metadata?.uid ?? '', p]));
  return classes
    .filter((c) => c.action === 'evict' || c.action === 'blocked-pdb')
    .filter((c) => {
      const ref = controllerOf(byUid.get(c.uid) ?? {});
      return ref !== undefined && ref.kind !== 'DaemonSet';
    })
    .map((c) => c.requests);
}

/** Every node's allocatable and what its (not finished) pods request. */
export async function nodeRooms(kc: KubeConfig): Promise<NodeRoom[]> {
  const [nodes, pods] = await Promise.all([
    listNodeCapacity(kc),
    listPods(kc, { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' }, (p) => ({
      node: p.spec?.nodeName ?? '',
      requests: podRequests(p),
    })),
  ]);
  const used = new Map<string, { cpuMilli: number; memoryBytes: number; pods: number }>();
  for (const p of pods) {
    if (!p.node) continue;
    const u = used.get(p.node) ?? { cpuMilli: 0, memoryBytes: 0, pods: 0 };
    u.cpuMilli += p.requests.cpuMilli;
    u.memoryBytes += p.requests.memoryBytes;
    u.pods += 1;
    used.set(p.node, u);
  }
  return nodes.map((n) => {
    const a = n.allocatable;
    return {
      name: n.name,
      ready: n.ready,
      unschedulable: n.unschedulable,
      allocatable: { cpuMilli: cpuMilli(a.cpu), memoryBytes: bytes(a.memory), pods: Math.floor(bytes(a.pods)) },
      requested: used.get(n.name) ?? { cpuMilli: 0, memoryBytes: 0, pods: 0 },
    };
  });
}
