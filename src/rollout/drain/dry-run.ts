/** The drain's dry run: every pod of the nodes classified, the budgets checked, the room judged; nothing changed. */
import type { KubeConfig } from '@kubernetes/client-node';
import type { EvictionVersion } from '../../kube/api/discovery.js';
import { evictionVersionOf } from '../../kube/pods/eviction.js';
import { listPdbs } from '../../kube/pods/pdb.js';
import { refusalMessage, type DrainFlags, type PodClassification, type PodRequests } from './filters.js';
import { markPdbBlocked } from './pdb-check.js';
import { classifyNode } from './pods.js';
import { nodeRooms, roomCheck, roomNeeded, type RoomCheck } from './room.js';

export interface NodeDryRun {
  node: string;
  pods: PodClassification[];
  /** When the drain would refuse to start: which pods need which flag. */
  refused?: string;
}

export interface DrainDryRun {
  evictionVersion: EvictionVersion;
  nodes: NodeDryRun[];
  /** Would the evicted pods of all these nodes fit on the other nodes? */
  room: RoomCheck;
}

/**
 * The dry run: every pod of every node classified (kubectl's filters), the pods a PDB would
 * block right now marked `blocked-pdb` (each node judged as if drained now, with the budgets as
 * they are), and whether the rest of the cluster has room for what is evicted. Changes nothing.
 */
export async function dryRunDrain(kc: KubeConfig, nodes: readonly string[], flags: DrainFlags): Promise<DrainDryRun> {
  const version = await evictionVersionOf(kc);
  const [perNode, pdbs, rooms] = await Promise.all([
    Promise.all(nodes.map(async (node) => ({ node, ...(await classifyNode(kc, node, flags)) }))),
    version === 'none' ? Promise.resolve([]) : listPdbs(kc, version),
    nodeRooms(kc),
  ]);
  const out: NodeDryRun[] = [];
  const need: PodRequests[] = [];
  for (const n of perNode) {
    const classes = markPdbBlocked(n.classes, n.pods, pdbs);
    const refused = refusalMessage(n.node, classes);
    out.push({ node: n.node, pods: classes, ...(refused ? { refused } : {}) });
    need.push(...roomNeeded(classes, n.pods));
  }
  return { evictionVersion: version, nodes: out, room: roomCheck(need, rooms, new Set(nodes)) };
}
