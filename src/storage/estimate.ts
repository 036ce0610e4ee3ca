/**
 * The storage estimate: which pools serve shared and unshared volumes, how much each kind
 * requires from the enabled features and the chosen sizes, how much each node has, and the
 * verdict. Pure functions: the inventory comes in as a ClusterStorage.
 *
 * GB are binary (1024³ bytes), as `lsblk` and `vgs --units g` print them: the seed prints
 * vg_data as "93.1 GB" and its partition /dev/sdb1 as "93.1G".
 */
import { UsageError } from '../errors.js';
import type { Catalogue, VolumeKind } from './catalogue.js';
import type { ClusterStorage, NodeStorage, VolumeGroup } from './inventory.js';
import { defaultPools } from './pools.js';
import { checkSizes, selectFeatures } from './selection.js';
import { floorGB, formatGBAmount, roundGB } from './units.js';

/** The volume groups chosen for each kind of volume. */
export interface Pools {
  shared?: string;
  unshared?: string;
}

export interface EstimateInput {
  /** Feature names (or labels), any case. */
  features: string[];
  /** GB per volume name; volumes not given get the catalogue's default. */
  sizes: Record<string, number>;
  /** Pools chosen by the user; a kind not given gets the default (defaultPools). */
  pools?: Pools;
}

export interface EstimateVolume {
  name: string;
  label: string;
  kind: VolumeKind;
  gb: number;
  feature: string;
  component: string;
}

export interface ByKind {
  shared: number;
  unshared: number;
}

export interface NodeEstimate {
  node: string;
  available: ByKind;
  shortfall: ByKind;
  /** The chosen pools this node does not have. */
  missingPools: string[];
}

export interface Estimate {
  /** The enabled features' names, in catalogue order. */
  features: string[];
  volumes: EstimateVolume[];
  /** GB. */
  required: ByKind;
  /** GB, the smallest node's: each node needs the required amount. */
  available: ByKind;
  perNode: NodeEstimate[];
  /** Nodes with no volume group and no disk reported: not counted (e.g. nodes the storage drivers do not run on). */
  skipped: string[];
  ok: boolean;
  /** "The configuration looks OK", or the exact shortfall per kind and the nodes lacking it. */
  verdict: string;
  pools: Pools;
  /** "Using vg_data for unshared volumes: …" — which pools, and why. */
  poolReason: string;
}

export const OK_VERDICT = 'The configuration looks OK';

/**
 * What one node offers:
 *
 * - unshared: the free space of the unshared pool's volume group, whole GB rounded down.
 *   Unshared volumes become new logical volumes in that group. Seed: vg_data "93.1 GB - 87.1 GB
 *   free" → "Unshared 87 GB".
 * - shared: the whole size of the shared pool's volume group, whole GB rounded down — not its
 *   free space and not the logical volume in it. The group is handed to the replicated pool
 *   entirely (through the logical volume made for it, `lvcreate -n shared`), so its free space
 *   is 0 once that is done and says nothing about what shared volumes can use. Seed: vg_share
 *   "106.9 GB - 0.0 GB free" (its logical volume /dev/mapper/ubuntu--vg-shared is 100G) →
 *   "Shared 106 GB".
 *
 * A node without the chosen group offers 0 of that kind.
 */
export function nodeAvailable(node: NodeStorage, pools: Pools): { available: ByKind; missingPools: string[] } {
  const find = (name: string | undefined): VolumeGroup | undefined =>
    name === undefined ? undefined : node.volumeGroups.find((g) => g.name === name);
  const shared = find(pools.shared);
  const unshared = find(pools.unshared);
  const missingPools = [pools.unshared, pools.shared].filter((p, i): p is string => p !== undefined && (i === 0 ? !unshared : !shared));
  return {
    available: { shared: shared ? floorGB(shared.sizeBytes) : 0, unshared: unshared ? floorGB(unshared.freeBytes) : 0 },
    missingPools,
  };
}

/** Required, available per node and the verdict for the enabled features and sizes. */
export function estimate(catalogue: Catalogue, storage: ClusterStorage, input: EstimateInput): Estimate {
  const features = selectFeatures(catalogue, input.features);
  checkSizes(catalogue, features, input.sizes);
  if (input.pools?.shared !== undefined && input.pools.shared === input.pools.unshared) {
    throw new UsageError(`volume group ${input.pools.shared} cannot serve both shared and unshared volumes`);
  }
  const known = [...new Set(storage.nodes.flatMap((n) => n.volumeGroups.map((g) => g.name)))].sort();
  for (const kind of ['shared', 'unshared'] as const) {
    const pool = input.pools?.[kind];
    if (pool !== undefined && !known.includes(pool))
      throw new UsageError(`volume group ${pool} (for ${kind} volumes) is on no node (volume groups: ${known.join(', ') || 'none'})`);
  }
  const { pools, reason } = defaultPools(storage, input.pools ?? {});

  const volumes: EstimateVolume[] = features.flatMap((f) =>
    f.components.flatMap((c) =>
      c.volumes.map((v) => ({
        name: v.name,
        label: v.label,
        kind: v.kind,
        gb: input.sizes[v.name] ?? v.defaultGB,
        feature: f.name,
        component: c.name,
      })),
    ),
  );
  const sum = (kind: VolumeKind) => roundGB(volumes.filter((v) => v.kind === kind).reduce((s, v) => s + v.gb, 0));
  const required: ByKind = { shared: sum('shared'), unshared: sum('unshared') };

  // A node that reports no volume group and no disk holds none of these volumes (the storage
  // drivers do not run there, e.g. a tainted control-plane node): it is named, not counted.
  const counted = storage.nodes.filter((n) => n.volumeGroups.length > 0 || n.disks.length > 0);
  const skipped = storage.nodes.filter((n) => !counted.includes(n)).map((n) => n.node);
  const perNode: NodeEstimate[] = counted.map((n) => {
    const { available, missingPools } = nodeAvailable(n, pools);
    return {
      node: n.node,
      available,
      shortfall: {
        shared: roundGB(Math.max(0, required.shared - available.shared)),
        unshared: roundGB(Math.max(0, required.unshared - available.unshared)),
      },
      missingPools,
    };
  });
  const available: ByKind = perNode.length
    ? { shared: Math.min(...perNode.map((n) => n.available.shared)), unshared: Math.min(...perNode.map((n) => n.available.unshared)) }
    : { shared: 0, unshared: 0 };
  const ok = perNode.length
    ? perNode.every((n) => n.shortfall.shared === 0 && n.shortfall.unshared === 0)
    : required.shared === 0 && required.unshared === 0;
  return {
    features: features.map((f) => f.name),
    volumes,
    required,
    available,
    perNode,
    skipped,
    ok,
    verdict: verdict(required, perNode, skipped, pools, ok),
    pools,
    poolReason: reason,
  };
}

function verdict(required: ByKind, perNode: NodeEstimate[], skipped: string[], pools: Pools, ok: boolean): string {
  if (ok) return OK_VERDICT;
  if (perNode.length === 0) {
    const none = skipped.length ? `no node reports a volume group or a disk (${skipped.join(', ')})` : 'no node storage found';
    return `Not enough storage: ${none} for the ${formatGBAmount(required.shared)} GB shared and ${formatGBAmount(required.unshared)} GB unshared required`;
  }
  const parts: string[] = [];
  for (const kind of ['unshared', 'shared'] as const) {
    const pool = pools[kind];
    const short = perNode.filter((n) => n.shortfall[kind] > 0);
    if (short.length === 0) continue;
    // Group the nodes by how much they lack (and whether the pool is there at all).
    const groups = new Map<string, { gb: number; absent: boolean; nodes: string[] }>();
    for (const n of short) {
      const absent = pool === undefined || n.missingPools.includes(pool);
      const key = `${n.shortfall[kind]}|${absent}`;
      const g = groups.get(key) ?? { gb: n.shortfall[kind], absent, nodes: [] };
      g.nodes.push(n.node);
      groups.set(key, g);
    }
    const text = [...groups.values()]
      .sort((a, b) => b.gb - a.gb || a.nodes[0]!.localeCompare(b.nodes[0]!))
      .map((g) => {
        const where = g.nodes.length === perNode.length && perNode.length > 1 ? 'every node' : g.nodes.join(', ');
        const why = g.absent ? (pool === undefined ? ` (no volume group for ${kind} volumes)` : ` (no volume group ${pool})`) : '';
        return `${formatGBAmount(g.gb)} GB short on ${where}${why}`;
      })
      .join(', ');
    parts.push(`${kind === 'shared' ? 'Shared' : 'Unshared'} ${text}`);
  }
  return `Not enough storage: ${parts.join('; ')}`;
}
