/**
 * The storage estimate: which pools serve shared and unshared volumes, how much each kind
 * requires from the enabled features and the chosen sizes, how much each node has, and the
 * verdict. Pure functions: the inventory comes in as a ClusterStorage.
 *
 * GB are binary (1024³ bytes), as `lsblk` and `vgs --units g` print them: the seed prints
 * vg_data as "93.1 GB" and its partition /dev/sdb1 as "93.1G".
 */
import { UsageError } from '../errors.js';
import { catalogueVolumes, type Catalogue, type CatalogueFeature, type VolumeKind } from './catalogue.js';
import type { ClusterStorage, NodeStorage, VolumeGroup } from './inventory.js';

export const GB = 1024 ** 3;

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

export const REMINDER = 'Remember each node needs this amount of storage';
export const OK_VERDICT = 'The configuration looks OK';

/** Whole GB, rounded down, as the seed prints availability (87.1 GB free → 87). */
export function floorGB(bytes: number): number {
  return Math.floor(bytes / GB);
}

/** "87.1": one decimal, as the seed prints volume groups. */
export function gb1(bytes: number): string {
  return (Math.round((bytes / GB) * 10) / 10).toFixed(1);
}

/** A GB amount without float noise: 10 → "10", 2.5 → "2.5", 0.1 + 0.2 → "0.3". */
export function formatGB(gb: number): string {
  return String(round(gb));
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Pools

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
    sharedWhy = best ? `${named.length ? 'named for shared storage' : rest.length > 1 ? 'the largest other volume group' : 'the other volume group'}, ${gb1(best.minSize)} GB` : '';
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

// ---------------------------------------------------------------------------------------------
// Selection

/** The catalogue's features the names select (name or label, any case); unknown → UsageError naming the known ones. */
export function selectFeatures(catalogue: Catalogue, names: string[]): CatalogueFeature[] {
  const wanted = new Set<string>();
  for (const raw of names.map((n) => n.trim()).filter(Boolean)) {
    const f = catalogue.features.find((x) => x.name.toLowerCase() === raw.toLowerCase() || x.label.toLowerCase() === raw.toLowerCase());
    if (!f) throw new UsageError(`unknown feature "${raw}" in catalogue ${catalogue.name} (known: ${catalogue.features.map((x) => x.name).join(', ')})`);
    wanted.add(f.name);
  }
  return catalogue.features.filter((f) => wanted.has(f.name));
}

/** The features enabled by default. */
export function defaultFeatures(catalogue: Catalogue): string[] {
  return catalogue.features.filter((f) => f.default).map((f) => f.name);
}

/**
 * `--size VOLUME=GB`: a whole or decimal number of GB greater than 0. Any mistake is a
 * UsageError of one line.
 */
export function parseSizeArg(arg: string): { name: string; gb: number } {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`--size ${arg}: expected VOLUME=GB (e.g. --size etcd-data=8)`);
  const name = arg.slice(0, eq).trim();
  const value = arg.slice(eq + 1).trim();
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(value)) throw new UsageError(`--size ${arg}: "${value}" is not a number of GB`);
  const gb = Number(value);
  if (!(gb > 0)) throw new UsageError(`--size ${arg}: the size must be greater than 0 GB`);
  return { name, gb };
}

/** Checks the sizes against the catalogue and the enabled features. */
export function checkSizes(catalogue: Catalogue, features: CatalogueFeature[], sizes: Record<string, number>): void {
  const all = catalogueVolumes(catalogue);
  const enabled = new Set(features.map((f) => f.name));
  for (const [name, gb] of Object.entries(sizes)) {
    const v = all.find((x) => x.name === name);
    if (!v) throw new UsageError(`unknown volume "${name}" in --size (volumes of the enabled features: ${all.filter((x) => enabled.has(x.feature)).map((x) => x.name).join(', ') || 'none'})`);
    if (!enabled.has(v.feature)) throw new UsageError(`volume "${name}" belongs to feature ${v.feature}, which is not enabled (add it to --features)`);
    if (!(typeof gb === 'number' && Number.isFinite(gb) && gb > 0)) throw new UsageError(`the size of volume "${name}" must be greater than 0 GB`);
  }
}

// ---------------------------------------------------------------------------------------------
// Estimate

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
  const find = (name: string | undefined): VolumeGroup | undefined => (name === undefined ? undefined : node.volumeGroups.find((g) => g.name === name));
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
    if (pool !== undefined && !known.includes(pool)) throw new UsageError(`volume group ${pool} (for ${kind} volumes) is on no node (volume groups: ${known.join(', ') || 'none'})`);
  }
  const { pools, reason } = defaultPools(storage, input.pools ?? {});

  const volumes: EstimateVolume[] = features.flatMap((f) =>
    f.components.flatMap((c) => c.volumes.map((v) => ({ name: v.name, label: v.label, kind: v.kind, gb: input.sizes[v.name] ?? v.defaultGB, feature: f.name, component: c.name }))),
  );
  const sum = (kind: VolumeKind) => round(volumes.filter((v) => v.kind === kind).reduce((s, v) => s + v.gb, 0));
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
      shortfall: { shared: round(Math.max(0, required.shared - available.shared)), unshared: round(Math.max(0, required.unshared - available.unshared)) },
      missingPools,
    };
  });
  const available: ByKind = perNode.length
    ? { shared: Math.min(...perNode.map((n) => n.available.shared)), unshared: Math.min(...perNode.map((n) => n.available.unshared)) }
    : { shared: 0, unshared: 0 };
  const ok = perNode.length ? perNode.every((n) => n.shortfall.shared === 0 && n.shortfall.unshared === 0) : required.shared === 0 && required.unshared === 0;
  return { features: features.map((f) => f.name), volumes, required, available, perNode, skipped, ok, verdict: verdict(required, perNode, skipped, pools, ok), pools, poolReason: reason };
}

function verdict(required: ByKind, perNode: NodeEstimate[], skipped: string[], pools: Pools, ok: boolean): string {
  if (ok) return OK_VERDICT;
  if (perNode.length === 0) {
    const none = skipped.length ? `no node reports a volume group or a disk (${skipped.join(', ')})` : 'no node storage found';
    return `Not enough storage: ${none} for the ${formatGB(required.shared)} GB shared and ${formatGB(required.unshared)} GB unshared required`;
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
        return `${formatGB(g.gb)} GB short on ${where}${why}`;
      })
      .join(', ');
    parts.push(`${kind === 'shared' ? 'Shared' : 'Unshared'} ${text}`);
  }
  return `Not enough storage: ${parts.join('; ')}`;
}

// ---------------------------------------------------------------------------------------------
// Text, in the seed's shape (the inventory itself: describeNodeStorage in inventory.ts)

/** The estimate's lines after the inventory: features, pools, available, sizes, required, verdict, reminder. */
export function estimateLines(catalogue: Catalogue, est: Estimate): string[] {
  const on = new Set(est.features);
  const lines: string[] = [];
  lines.push(`Features (catalogue ${catalogue.name}):`);
  const width = Math.max(...catalogue.features.map((f) => f.label.length));
  for (const f of catalogue.features) lines.push(`  Enable ${f.label.padEnd(width)} : ${on.has(f.name) ? 'Yes' : 'No'}`);
  lines.push(est.poolReason);
  lines.push(`Available: Shared ${est.available.shared} GB, Unshared ${est.available.unshared} GB`);
  if (est.perNode.length > 1) {
    const w = Math.max(...est.perNode.map((n) => n.node.length));
    for (const n of est.perNode) lines.push(`  ${n.node.padEnd(w)}  Shared ${n.available.shared} GB, Unshared ${n.available.unshared} GB`);
  }
  if (est.skipped.length) lines.push(`Not counted (no volume group or disk reported): ${est.skipped.join(', ')}`);
  lines.push('');
  lines.push('Volumes:');
  const lw = Math.max(0, ...est.volumes.map((v) => v.label.length + 5));
  const nw = Math.max(0, ...est.volumes.map((v) => formatGB(v.gb).length));
  for (const v of est.volumes) lines.push(`  ${`${v.label} (GB)`.padEnd(lw)} : ${formatGB(v.gb).padEnd(nw)}  ${v.kind}, ${v.name}`);
  if (est.volumes.length === 0) lines.push('  none (no feature enabled)');
  lines.push(`Required: Shared ${formatGB(est.required.shared)} GB, Unshared ${formatGB(est.required.unshared)} GB`);
  lines.push(est.verdict);
  lines.push(REMINDER);
  return lines;
}

// ---------------------------------------------------------------------------------------------
// Values file

/** A size as a Kubernetes quantity: GB here are GiB, so 10 → "10Gi", 2.5 → "2.5Gi". */
export function quantity(gb: number): string {
  return `${formatGB(gb)}Gi`;
}

/**
 * The chosen configuration as Helm-style values: the catalogue, the pools, every feature
 * (enabled or not) and each enabled volume's size, kind and pool.
 */
export function valuesOf(catalogue: Catalogue, est: Estimate): { storage: Record<string, unknown> } {
  const enabled = new Set(est.features);
  return {
    storage: {
      catalogue: catalogue.name,
      pools: { ...(est.pools.shared ? { shared: est.pools.shared } : {}), ...(est.pools.unshared ? { unshared: est.pools.unshared } : {}) },
      features: Object.fromEntries(catalogue.features.map((f) => [f.name, enabled.has(f.name)])),
      volumes: Object.fromEntries(
        est.volumes.map((v) => [v.name, { size: quantity(v.gb), sizeGB: v.gb, kind: v.kind, ...(est.pools[v.kind] ? { pool: est.pools[v.kind] } : {}) }]),
      ),
      required: { sharedGB: est.required.shared, unsharedGB: est.required.unshared },
    },
  };
}
