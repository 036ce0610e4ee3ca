/**
 * Whether a unit's pods fit in a cluster, from the per-node room its agent reports: every pod
 * on one node whose NoSchedule/NoExecute taints it tolerates, packed first-fit onto the nodes
 * with the most room. Says by how much it falls short, or which taint repels it.
 */
import { formatBytes, formatCpu } from '../kube/api/quantity.js';
import type { ClusterView, Room, Taint, Toleration } from './types.js';

export interface PodDemand {
  count: number;
  requests: Room;
  tolerations?: Toleration[];
}

export interface Fit {
  fits: boolean;
  /** Why not, in a few words: the shortfall or the taint. */
  why?: string;
  /** After placing: the room left (for picking among fitting clusters). */
  freeCpu: number;
  /** Refused by this taint (`key=value:Effect`). */
  taint?: string;
  /** Refused because the cluster is not Ready or in standby. */
  down?: boolean;
}

const REPELS = new Set(['NoSchedule', 'NoExecute']);

export function tolerates(tolerations: readonly Toleration[] | undefined, t: Taint): boolean {
  return (tolerations ?? []).some((tol) => {
    if (tol.effect && tol.effect !== t.effect) return false;
    if (tol.operator === 'Exists') return !tol.key || tol.key === t.key;
    return tol.key === t.key && (tol.value ?? '') === (t.value ?? '');
  });
}

export const taintText = (t: Taint) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;

export function roomText(r: Room): string {
  const parts = [r.cpu ? (r.cpu < 1000 ? `${formatCpu(r.cpu)} CPU` : formatCpu(r.cpu)) : '', r.memory ? formatBytes(r.memory) : ''].filter(
    Boolean,
  );
  return parts.join(', ') || 'no requests';
}

function repellingTaint(nodes: ClusterView['nodes'], tolerations: readonly Toleration[] | undefined): Taint | undefined {
  for (const n of nodes) {
    const t = n.taints.find((x) => REPELS.has(x.effect) && !tolerates(tolerations, x));
    if (t) return t;
  }
  return undefined;
}

export function fitPods(cluster: ClusterView, demands: readonly PodDemand[]): Fit {
  const free = cluster.nodes.map((n) => ({ ...n, room: { ...n.available } }));
  const total = () => free.reduce((s, n) => s + n.room.cpu, 0);
  if (demands.every((d) => d.count === 0)) return { fits: true, freeCpu: total() };
  for (const d of demands) {
    const open = free.filter((n) => n.taints.every((t) => !REPELS.has(t.effect) || tolerates(d.tolerations, t)));
    if (open.length === 0) {
      const t = repellingTaint(cluster.nodes, d.tolerations);
      return {
        fits: false,
        why: t ? `every node has a taint it does not tolerate (${taintText(t)})` : 'no node',
        freeCpu: total(),
        ...(t ? { taint: taintText(t) } : {}),
      };
    }
    for (let placed = 0; placed < d.count; placed++) {
      open.sort((a, b) => b.room.cpu - a.room.cpu || b.room.memory - a.room.memory);
      const node = open.find((n) => n.room.cpu >= d.requests.cpu && n.room.memory >= d.requests.memory);
      if (!node) {
        const most = open[0]!.room;
        return {
          fits: false,
          why: `room for ${placed} of ${d.count} pod(s) of ${roomText(d.requests)}; most free on one node: ${roomText(most)}`,
          freeCpu: total(),
        };
      }
      node.room.cpu -= d.requests.cpu;
      node.room.memory -= d.requests.memory;
    }
  }
  return { fits: true, freeCpu: total() };
}

/** Why a cluster cannot take anything now (not Ready, standby), or undefined. */
export function unavailable(c: ClusterView): string | undefined {
  if (!c.ready) return 'not Ready (its agent is not reporting)';
  if (c.standby) return 'in standby';
  return undefined;
}
