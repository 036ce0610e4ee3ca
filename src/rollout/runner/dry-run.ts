/** What a rollout would do, changing nothing: the drain's dry run of every planned node, and the room check per batch. */
import type { KubeConfig } from '@kubernetes/client-node';
import { listNodePods } from '../../kube/pods/pod-ops.js';
import { dryRunDrain, type DrainDryRun } from '../drain/dry-run.js';
import type { PodRequests } from '../drain/filters.js';
import { nodeRooms, roomCheck, roomNeeded, type RoomCheck } from '../drain/room.js';
import { batches, type Plan, type PlannedNode } from '../plan.js';
import type { RolloutSpec } from '../types.js';

export interface BatchRoom extends RoomCheck {
  priority: number;
  nodes: string[];
}

export interface RolloutDryRun {
  drain: DrainDryRun;
  /** Per batch: would the pods evicted from it fit on the other nodes (with delete-node: also those of the batches before, whose nodes are gone)? */
  room: BatchRoom[];
}

/**
 * What the rollout would do, changing nothing: every pod of every planned node classified by
 * dryRunDrain (evict, ignored DaemonSet, skipped mirror, needs --force, needs
 * --delete-emptydir-data, blocked now by a PDB), and the room check per batch.
 */
export async function dryRunRollout(kc: KubeConfig, spec: RolloutSpec, plan: Plan): Promise<RolloutDryRun> {
  const names = plan.nodes.map((n) => n.name);
  const flags = { force: spec.drain.force, deleteEmptyDirData: spec.drain.deleteEmptyDirData };
  const [drain, rooms, pods] = await Promise.all([
    dryRunDrain(kc, names, flags),
    nodeRooms(kc),
    Promise.all(names.map(async (n) => [n, await listNodePods(kc, n)] as const)),
  ]);
  const podsOf = new Map(pods);
  const need = new Map<string, PodRequests[]>();
  for (const n of drain.nodes) need.set(n.node, roomNeeded(n.pods, podsOf.get(n.node) ?? []));
  const room: BatchRoom[] = [];
  const gone: PlannedNode[] = [];
  for (const batch of batches(plan.nodes, Math.max(1, spec.maxUnavailable))) {
    const draining = spec.replace === 'delete-node' ? [...gone, ...batch] : batch;
    const check = roomCheck(
      draining.flatMap((n) => need.get(n.name) ?? []),
      rooms,
      new Set(draining.map((n) => n.name)),
    );
    room.push({ priority: batch[0]!.priority, nodes: batch.map((n) => n.name), ...check });
    gone.push(...batch);
  }
  return { drain, room };
}
