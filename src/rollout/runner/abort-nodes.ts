/**
 * What abort does to each node of a rollout, decided from the nodes as they are now (pure), and
 * said in words: nodes it uncordons, nodes that were schedulable already, nodes gone, nodes it
 * leaves cordoned and why.
 */
import { FINISHED_PHASES, type RolloutState } from '../types.js';

/** A node as it is now; a name missing from the map is a node that no longer exists. */
export type NodesNow = ReadonlyMap<string, { unschedulable: boolean }>;

export interface AbortNodes {
  /** Cordoned by the rollout, not finished, still cordoned: abort uncordons them. */
  uncordon: string[];
  /** Cordoned by the rollout, not finished, but schedulable now (someone uncordoned them): nothing to do. */
  alreadySchedulable: string[];
  /** Cordoned by the rollout, not finished, and no longer in the cluster. */
  gone: string[];
  /** Not finished and cordoned now, but not by the rollout: abort leaves them so. */
  leftCordoned: { node: string; reason: string }[];
}

/** Sorts the rollout's unfinished nodes by what abort does with them. */
export function abortNodes(state: RolloutState, now: NodesNow): AbortNodes {
  const res: AbortNodes = { uncordon: [], alreadySchedulable: [], gone: [], leftCordoned: [] };
  for (const n of state.nodes) {
    if (FINISHED_PHASES.includes(n.phase)) continue;
    const node = now.get(n.name);
    if (n.cordonedByUs) {
      if (!node) res.gone.push(n.name);
      else if (node.unschedulable) res.uncordon.push(n.name);
      else res.alreadySchedulable.push(n.name);
    } else if (node?.unschedulable) {
      const reason =
        n.phase === 'waiting' ? 'cordoned by someone else; the rollout had not reached it' : 'it was cordoned before the rollout took it';
      res.leftCordoned.push({ node: n.name, reason });
    }
  }
  return res;
}

const list = (xs: readonly string[]) => xs.join(', ');

/** The lines `rollout abort` prints before it asks: what it would do to each node. */
export function abortPreviewLines(a: AbortNodes): string[] {
  const lines = [
    a.uncordon.length ? `Nodes to uncordon (cordoned by the rollout, not finished): ${list(a.uncordon)}` : 'No node to uncordon.',
  ];
  if (a.alreadySchedulable.length)
    lines.push(`Already schedulable (cordoned by the rollout, uncordoned since): ${list(a.alreadySchedulable)}`);
  if (a.gone.length) lines.push(`No longer in the cluster: ${list(a.gone)}`);
  for (const l of a.leftCordoned) lines.push(`Left cordoned: ${l.node} (${l.reason})`);
  return lines;
}

/** What abort did, in one sentence (the command's last line, the rollout's log). */
export function abortDoneText(a: Omit<AbortNodes, 'uncordon'> & { uncordoned: string[] }): string {
  const parts = [a.uncordoned.length ? `uncordoned ${list(a.uncordoned)}` : 'uncordoned no node'];
  if (a.alreadySchedulable.length) parts.push(`already schedulable: ${list(a.alreadySchedulable)}`);
  if (a.gone.length) parts.push(`no longer in the cluster: ${list(a.gone)}`);
  for (const l of a.leftCordoned) parts.push(`left ${l.node} cordoned (${l.reason})`);
  return parts.join('; ');
}
