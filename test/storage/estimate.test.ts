import { SEED_NMSC02_LINES, seedHost } from '../helpers/objects/seed-storage.js';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue, type Catalogue } from '../../src/storage/catalogue.js';
import { describeNodeStorage } from '../../src/report/storage/describe.js';
import { estimate, OK_VERDICT } from '../../src/storage/estimate.js';
import { estimateLines } from '../../src/report/storage/estimate-text.js';
import { REMINDER } from '../../src/report/storage/estimate-words.js';
import type { ClusterStorage, NodeStorage, VolumeGroup } from '../../src/storage/inventory.js';
import { defaultPools } from '../../src/storage/pools.js';
import { checkSizes, defaultFeatures, parseSizeArg, selectFeatures } from '../../src/storage/selection.js';
import { GB } from '../../src/storage/units.js';
import { UsageError } from '../../src/errors.js';

const bytes = (gb: number) => Math.round(gb * GB);
const vg = (name: string, sizeGB: number, freeGB: number, pvs?: string[]): VolumeGroup => ({
  name,
  sizeBytes: bytes(sizeGB),
  freeBytes: bytes(freeGB),
  ...(pvs ? { pvs } : {}),
});
const cluster = (nodes: NodeStorage[], source: ClusterStorage['source'] = 'cluster'): ClusterStorage => ({
  source,
  nodes,
  storageClasses: [],
  volumes: [],
  claims: [],
  missing: [],
});

const example: Catalogue = loadCatalogue(EXAMPLE_CATALOGUE_FILE);

/** Dialogue 1 (`kloudspot storage estimate` on nmsc02), its inventory as printed (SEED_NMSC02_LINES). */
const nmsc02: NodeStorage = seedHost('nmsc02');
const seed1 = cluster([nmsc02], 'local');

/**
 * Dialogue 2 (`kloudspot init` on k8s-single) prints only "Using ubuntu-vg for unshared volumes"
 * and "Available:  Shared 32 GB, Unshared 49 GB". Inputs consistent with it: the installer's
 * ubuntu-vg with 49.6 GB free, and a second volume group for the replicated pool of 32.4 GB.
 */
const k8sSingle: NodeStorage = {
  node: 'k8s-single',
  volumeGroups: [vg('ubuntu-vg', 98.5, 49.6, ['/dev/sda3']), vg('shared-vg', 32.4, 0, ['/dev/sdb'])],
  disks: [],
};
const seed2 = cluster([k8sSingle], 'local');

describe('the seed dialogues, to the number', () => {
  it('dialogue 1: KloudInsights → Available Shared 106 / Unshared 87, Required Shared 20 / Unshared 14, OK', () => {
    expect(defaultFeatures(example)).toEqual(['kloudinsights']);
    const est = estimate(example, seed1, { features: defaultFeatures(example), sizes: {} });
    expect(est.pools).toEqual({ unshared: 'vg_data', shared: 'vg_share' });
    expect(est.poolReason).toMatch(/^Using vg_data for unshared volumes \(most free space: 87\.1 GB\); vg_share for shared volumes/);
    expect(est.available).toEqual({ shared: 106, unshared: 87 });
    expect(est.volumes.map((v) => [v.label, v.gb])).toEqual([
      ['Stream processing elasticsearch', 10],
      ['Stream processing state storage', 10],
      ['Kloudinsights database', 10],
      ['Kafka distributed messaging', 2],
      ['Zookeeper coordinator', 2],
    ]);
    expect(est.required).toEqual({ shared: 20, unshared: 14 });
    expect(est.ok).toBe(true);
    expect(est.verdict).toBe('The configuration looks OK');

    // The sizes typed in the dialogue, given explicitly, come to the same.
    const typed = estimate(example, seed1, {
      features: ['KloudInsights'],
      sizes: { 'insights-elasticsearch': 10, 'insights-state': 10, 'insights-database': 10, 'insights-kafka': 2, 'insights-zookeeper': 2 },
    });
    expect([typed.required, typed.available, typed.verdict]).toEqual([est.required, est.available, est.verdict]);
  });

  it('dialogue 1: the inventory prints as the seed prints it', () => {
    expect(describeNodeStorage(nmsc02)).toEqual(SEED_NMSC02_LINES);
  });

  it('dialogue 1: the estimate prints the seed’s lines', () => {
    const est = estimate(example, seed1, { features: ['kloudinsights'], sizes: {} });
    const lines = estimateLines(example, est);
    expect(lines).toContain('  Enable KloudManage   : No');
    expect(lines).toContain('  Enable KloudInsights : Yes');
    expect(lines).toContain('  Enable Kloudhybrid   : No');
    expect(lines.some((l) => l.startsWith('Using vg_data for unshared volumes'))).toBe(true);
    expect(lines).toContain('Available: Shared 106 GB, Unshared 87 GB');
    expect(lines).toContain('  Stream processing elasticsearch (GB) : 10  shared, insights-elasticsearch');
    expect(lines).toContain('  Zookeeper coordinator (GB)           : 2   unshared, insights-zookeeper');
    expect(lines.slice(-3)).toEqual([
      'Required: Shared 20 GB, Unshared 14 GB',
      'The configuration looks OK',
      'Remember each node needs this amount of storage',
    ]);
  });

  it('dialogue 2: Kloudhybrid → Available Shared 32 / Unshared 49, Required Shared 0 / Unshared 20', () => {
    const est = estimate(example, seed2, { features: ['Kloudhybrid'], sizes: {} });
    expect(est.poolReason).toMatch(/^Using ubuntu-vg for unshared volumes/);
    expect(est.pools).toEqual({ unshared: 'ubuntu-vg', shared: 'shared-vg' });
    expect(est.available).toEqual({ shared: 32, unshared: 49 });
    expect(est.volumes.map((v) => [v.label, v.gb])).toEqual([
      ['Stream processing elasticsearch', 10],
      ['Kloudinsights database', 10],
    ]);
    expect(est.required).toEqual({ shared: 0, unshared: 20 });
    expect(est.ok).toBe(true);
    const lines = estimateLines(example, est);
    expect(lines).toContain('Available: Shared 32 GB, Unshared 49 GB');
    expect(lines).toContain('Required: Shared 0 GB, Unshared 20 GB');
  });
});

describe('availability', () => {
  it('rounds GB down: unshared from the group’s free space, shared from the shared group’s whole size', () => {
    const est = estimate(example, cluster([{ node: 'n', volumeGroups: [vg('data', 10, 9.99), vg('vg_share', 30.999, 1)], disks: [] }]), {
      features: [],
      sizes: {},
    });
    expect(est.available).toEqual({ shared: 30, unshared: 9 });
  });

  it('several nodes: each must hold the required amount; Available is the smallest node’s', () => {
    const nodes = ['cluster1', 'cluster2', 'cluster3'].map((node, i) => ({
      node,
      volumeGroups: [vg('vg_data', 100, 60 + i * 10), vg('vg_share', 50 - i * 5, 0)],
      disks: [],
    }));
    const est = estimate(example, cluster(nodes), { features: ['kloudinsights'], sizes: {} });
    expect(est.perNode.map((n) => [n.node, n.available])).toEqual([
      ['cluster1', { shared: 50, unshared: 60 }],
      ['cluster2', { shared: 45, unshared: 70 }],
      ['cluster3', { shared: 40, unshared: 80 }],
    ]);
    expect(est.available).toEqual({ shared: 40, unshared: 60 });
    expect(est.ok).toBe(true);
    const lines = estimateLines(example, est);
    expect(lines).toContain('  cluster2  Shared 45 GB, Unshared 70 GB');
  });

  it('picks the unshared group with the most free space on every node, not on one', () => {
    const nodes = [
      { node: 'a', volumeGroups: [vg('big', 100, 90), vg('steady', 50, 40)], disks: [] },
      { node: 'b', volumeGroups: [vg('big', 100, 5), vg('steady', 50, 40)], disks: [] },
    ];
    const { pools, reason } = defaultPools(cluster(nodes));
    expect(pools).toEqual({ unshared: 'steady', shared: 'big' });
    expect(reason).toBe(
      'Using steady for unshared volumes (most free space on every node: at least 40.0 GB); big for shared volumes (the other volume group, 100.0 GB)',
    );
  });

  it('a pool chosen by the user is kept, and the other chosen around it', () => {
    const est = estimate(example, seed1, { features: ['kloudinsights'], sizes: {}, pools: { unshared: 'vg_share' } });
    expect(est.pools).toEqual({ unshared: 'vg_share', shared: 'vg_data' });
    expect(est.poolReason).toMatch(/^Using vg_share for unshared volumes \(chosen\); vg_data for shared volumes/);
    expect(est.available).toEqual({ shared: 93, unshared: 0 });
    expect(() => estimate(example, seed1, { features: [], sizes: {}, pools: { unshared: 'vg_data', shared: 'vg_data' } })).toThrow(
      /cannot serve both/,
    );
  });

  it('a single volume group serves unshared volumes and leaves no shared pool', () => {
    const est = estimate(example, cluster([{ node: 'solo', volumeGroups: [vg('ubuntu-vg', 100, 49.6)], disks: [] }]), {
      features: ['kloudhybrid'],
      sizes: {},
    });
    expect(est.pools).toEqual({ unshared: 'ubuntu-vg' });
    expect(est.poolReason).toBe(
      'Using ubuntu-vg for unshared volumes (the only volume group, 49.6 GB free); no other volume group for shared volumes',
    );
    expect(est.available).toEqual({ shared: 0, unshared: 49 });
    expect(est.ok).toBe(true);
  });
});

describe('shortfalls', () => {
  const three = (freeOf2: number) =>
    cluster(
      ['node-1', 'node-2', 'node-3'].map((node) => ({
        node,
        volumeGroups: [vg('vg_data', 100, node === 'node-2' ? freeOf2 : 87.1), vg('vg_share', 106.9, 0)],
        disks: [],
      })),
    );

  it('one node short: the exact GB and the node', () => {
    const est = estimate(example, three(10.5), { features: ['kloudinsights'], sizes: {} });
    expect(est.ok).toBe(false);
    expect(est.available).toEqual({ shared: 106, unshared: 10 });
    expect(est.perNode.map((n) => n.shortfall)).toEqual([
      { shared: 0, unshared: 0 },
      { shared: 0, unshared: 4 },
      { shared: 0, unshared: 0 },
    ]);
    expect(est.verdict).toBe('Not enough storage: Unshared 4 GB short on node-2');
  });

  it('a size too large: every node short, both kinds, decimal sizes exact', () => {
    const est = estimate(example, three(87.1), {
      features: ['kloudinsights'],
      sizes: { 'insights-database': 80.5, 'insights-state': 96.25 },
    });
    expect(est.required).toEqual({ shared: 106.25, unshared: 84.5 });
    expect(est.verdict).toBe('Not enough storage: Shared 0.25 GB short on every node');
    const more = estimate(example, three(50), { features: ['kloudinsights'], sizes: { 'insights-database': 85.1 } });
    expect(more.required.unshared).toBe(89.1);
    expect(more.verdict).toBe('Not enough storage: Unshared 39.1 GB short on node-2, 2.1 GB short on node-1, node-3');
  });

  it('a node without the chosen volume group is named', () => {
    const storage = cluster([
      { node: 'a', volumeGroups: [vg('vg_data', 100, 50), vg('vg_share', 50, 0)], disks: [] },
      { node: 'b', volumeGroups: [vg('vg_share', 50, 0)], disks: [] },
    ]);
    const est = estimate(example, storage, { features: ['kloudinsights'], sizes: {} });
    expect(est.perNode[1]).toEqual({
      node: 'b',
      available: { shared: 50, unshared: 0 },
      shortfall: { shared: 0, unshared: 14 },
      missingPools: ['vg_data'],
    });
    expect(est.verdict).toBe('Not enough storage: Unshared 14 GB short on b (no volume group vg_data)');
  });

  it('no pools at all: nothing available, the shortfall says why', () => {
    const est = estimate(
      example,
      cluster(
        [{ node: 'bare', volumeGroups: [], disks: [{ path: '/dev/vda', sizeBytes: bytes(256), partitions: [], mountpoint: '/' }] }],
        'local',
      ),
      { features: ['kloudinsights'], sizes: {} },
    );
    expect(est.pools).toEqual({});
    expect(est.poolReason).toBe('No volume group for unshared volumes');
    expect(est.available).toEqual({ shared: 0, unshared: 0 });
    expect(est.verdict).toBe(
      'Not enough storage: Unshared 14 GB short on bare (no volume group for unshared volumes); Shared 20 GB short on bare (no volume group for shared volumes)',
    );
  });

  it('nodes reporting no volume group and no disk are named, not counted', () => {
    const storage = cluster([{ node: 'cp', volumeGroups: [], disks: [] }, nmsc02]);
    const est = estimate(example, storage, { features: ['kloudinsights'], sizes: {} });
    expect([est.skipped, est.perNode.map((n) => n.node), est.ok, est.available]).toEqual([
      ['cp'],
      ['nmsc02'],
      true,
      { shared: 106, unshared: 87 },
    ]);
    expect(est.poolReason).toMatch(/^Using vg_data for unshared volumes \(most free space: 87\.1 GB\)/);
    expect(estimateLines(example, est)).toContain('Not counted (no volume group or disk reported): cp');
    const only = estimate(example, cluster([{ node: 'cp', volumeGroups: [], disks: [] }]), { features: ['kloudinsights'], sizes: {} });
    expect(only.verdict).toBe(
      'Not enough storage: no node reports a volume group or a disk (cp) for the 20 GB shared and 14 GB unshared required',
    );
  });

  it('no nodes: not OK unless nothing is required', () => {
    const none = cluster([]);
    const est = estimate(example, none, { features: ['kloudinsights'], sizes: {} });
    expect(est.ok).toBe(false);
    expect(est.poolReason).toBe('No volume group for unshared volumes (no node storage found)');
    expect(est.verdict).toBe('Not enough storage: no node storage found for the 20 GB shared and 14 GB unshared required');
    const nothing = estimate(example, none, { features: [], sizes: {} });
    expect([nothing.ok, nothing.verdict, nothing.required]).toEqual([true, OK_VERDICT, { shared: 0, unshared: 0 }]);
    expect(estimateLines(example, nothing)).toContain('  none (no feature enabled)');
    expect(REMINDER).toBe('Remember each node needs this amount of storage');
  });
});

describe('input', () => {
  it('features by name or label, any case; unknown ones name the known', () => {
    expect(selectFeatures(example, ['KLOUDHYBRID', 'KloudInsights']).map((f) => f.name)).toEqual(['kloudinsights', 'kloudhybrid']);
    expect(() => selectFeatures(example, ['kloudmagic'])).toThrow(
      new UsageError('unknown feature "kloudmagic" in catalogue kloudspot-example (known: kloudmanage, kloudinsights, kloudhybrid)'),
    );
  });

  it.each([
    ['insights-kafka=2', { name: 'insights-kafka', gb: 2 }],
    ['insights-kafka=2.5', { name: 'insights-kafka', gb: 2.5 }],
    ['insights-kafka=.5', { name: 'insights-kafka', gb: 0.5 }],
  ])('--size %s', (arg, parsed) => {
    expect(parseSizeArg(arg)).toEqual(parsed);
  });

  it.each([
    ['insights-kafka=-2', /the size must be greater than 0 GB/],
    ['insights-kafka=0', /the size must be greater than 0 GB/],
    ['insights-kafka=0.0', /the size must be greater than 0 GB/],
    ['insights-kafka=ten', /"ten" is not a number of GB/],
    ['insights-kafka=10GB', /"10GB" is not a number of GB/],
    ['insights-kafka=', /"" is not a number of GB/],
    ['insights-kafka', /expected VOLUME=GB/],
    ['=3', /expected VOLUME=GB/],
  ])('--size %s is refused', (arg, pattern) => {
    expect(() => parseSizeArg(arg)).toThrow(UsageError);
    expect(() => parseSizeArg(arg)).toThrow(pattern);
  });

  it('unknown volumes and volumes of features not enabled are refused', () => {
    const insights = selectFeatures(example, ['kloudinsights']);
    expect(() => checkSizes(example, insights, { kafka: 3 })).toThrow(
      /^unknown volume "kafka" in --size \(volumes of the enabled features: insights-elasticsearch, insights-state, insights-database, insights-kafka, insights-zookeeper\)$/,
    );
    expect(() => checkSizes(example, insights, { 'hybrid-database': 3 })).toThrow(
      'volume "hybrid-database" belongs to feature kloudhybrid, which is not enabled (add it to --features)',
    );
    expect(() => estimate(example, seed1, { features: ['kloudinsights'], sizes: { 'insights-kafka': -1 } })).toThrow(/greater than 0 GB/);
  });
});
