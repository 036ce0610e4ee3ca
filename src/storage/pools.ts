/** Which volume groups serve shared and unshared volumes by default, and why (pure). */
import type { Pools } from './estimate.js';
import type { ClusterStorage } from './inventory.js';
import { gb1 } from './units.js';

interface GroupSummary {
  name: string;
  /** Nodes that have it. */
  nodes: number;
  /** The smallest node's free and size; a node without it counts 0. */
  minFree: number;
  minSize: number;
  sharedName: boolean;
}

/** Over the nodes that have volume groups (one without any cannot tell the groups apart). */
function groupSummaries(storage: ClusterStorage): GroupSummary[] {
  const nodes = storage.nodes.filter((n) => n.volumeGroups.length > 0);
  const names = [...new Set(nodes.flatMap((n) => n.volumeGroups.map((g) => g.name)))].sort();
  return names.map((name) => {
    const groups = nodes.map((n) => n.volumeGroups.find((g) => g.name === name));
    return {
      name,
      nodes: groups.filter(Boolean).length,
      minFree: Math.min(...groups.map((g) => g?.freeBytes ?? 0)),
      minSize: Math.min(...groups.map((g) => g?.sizeBytes ?? 0)),
      sharedName: /shar/i.test(name),
    };
  });
}

/**
 * The pools the seed would use. Unshared volumes are new logical volumes, so the unshared pool
 * is the volume group with the most free space (the smallest node's, when there are several),
 * leaving out a group named for shared storage (vg_share, shared-vg) unless it is the only one:
 * "Using vg_data for unshared volumes" (87.1 GB free, against vg_share's 0.0 GB). The shared
 * pool is another volume group: the one named for shared storage, else the largest. `given`
 * pins either choice; the other is chosen around it.
 */
export function defaultPools(storage: ClusterStorage, given: Pools = {}): { pools: Pools; reason: string } {
  const groups = groupSummaries(storage);
  const pools: Pools = {};
  let unsharedWhy: string;
  if (given.unshared !== undefined) {
    pools.unshared = given.unshared;
    unsharedWhy = 'chosen';
  } else {
    const candidates = groups.filter((g) => g.name !== given.shared);
    const preferred = candidates.some((g) => !g.sharedName) ? candidates.filter((g) => !g.sharedName) : candidates;
    const best = [...preferred].sort((a, b) => b.minFree - a.minFree || b.nodes - a.nodes || a.name.localeCompare(b.name))[0];
    if (best) pools.unshared = best.name;
    unsharedWhy = best
      ? candidates.length > 1
        ? `most free space${storage.nodes.filter((n) => n.volumeGroups.length > 0).length > 1 ? ` on every node: at least ${gb1(best.minFree)} GB` : `: ${gb1(best.minFree)} GB`}`
        : `the only volume group, ${gb1(best.minFree)} GB free`
      : '';
  }
  let sharedWhy: string;
  if (given.shared !== undefined) {
    pools.shared = given.shared;
    sharedWhy = 'chosen';
  } else {
    const rest = groups.filter((g) => g.name !== pools.unshared);
    const named = rest.filter((g) => g.sharedName);
    const best = [...(named.length ? named : rest)].sort((a, b) => b.minSize - a.minSize || a.name.localeCompare(b.name))[0];
    if (best) pools.shared = best.name;
    sharedWhy = best
      ? `${named.length ? 'named for shared storage' : rest.length > 1 ? 'the largest other volume group' : 'the other volume group'}, ${gb1(best.minSize)} GB`
      : '';
  }
  const first =
    pools.unshared !== undefined
      ? `Using ${pools.unshared} for unshared volumes (${unsharedWhy})`
      : `No volume group for unshared volumes${storage.nodes.length ? '' : ' (no node storage found)'}`;
  const second =
    pools.shared !== undefined
      ? `${pools.unshared !== undefined ? '' : 'using '}${pools.shared} for shared volumes (${sharedWhy})`
      : groups.length
        ? 'no other volume group for shared volumes'
        : '';
  return { pools, reason: second ? `${first}; ${second}` : first };
}
