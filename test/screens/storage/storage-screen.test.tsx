import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../../../src/storage/catalogue.js';
import type { ClusterStorage, NodeStorage } from '../../../src/storage/inventory.js';
import { defaultPools } from '../../../src/storage/pools.js';
import type { StorageActions } from '../../../src/store/actions.js';
import { createFleetStore, updateSlice } from '../../../src/store/fleet-store.js';
import { catalogueLoaded, readDone, readFailed, readStarted, targetKey, type StorageSlice } from '../../../src/store/storage.js';
import type { Catalogue } from '../../../src/storage/catalogue.js';
import { formReducer, initialForm, parseSize, type EstimateForm } from '../../../src/screens/storage/estimate-form.js';
import { appProps, info, KEYS, renderApp, type Screen } from '../../helpers/screen.js';

afterEach(() => cleanup());

const GB = 1024 ** 3;
const gb = (n: number) => Math.round(n * GB);
const RIGHT = '\u001B[C';

/** Every line at most 80 columns, and fewer lines than the 24 rows. */
function expectFits(frame: string): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThanOrEqual(80);
  expect(lines.length, frame).toBeLessThan(24);
}

/** A node as the seed's host: vg_data (93.1 GB, `free` GB free) on /dev/sdb1, vg_share (106.9 GB, 0 free) on /dev/sdb2, two disks. */
function seedNode(name: string, free = 87.1): NodeStorage {
  return {
    node: name,
    ephemeralBytes: gb(50),
    volumeGroups: [
      { name: 'vg_data', sizeBytes: gb(93.1), freeBytes: gb(free), pvs: ['/dev/sdb1'] },
      { name: 'vg_share', sizeBytes: gb(106.9), freeBytes: 0, pvs: ['/dev/sdb2'] },
    ],
    disks: [
      {
        path: '/dev/sda',
        sizeBytes: gb(50),
        partitions: [
          { path: '/dev/sda1', sizeBytes: 1024 ** 2 },
          { path: '/dev/sda2', sizeBytes: gb(50), mountpoint: '/' },
        ],
      },
      {
        path: '/dev/sdb',
        sizeBytes: gb(200),
        partitions: [
          { path: '/dev/sdb1', sizeBytes: gb(93.1), volumeGroup: 'vg_data' },
          {
            path: '/dev/sdb2',
            sizeBytes: gb(106.9),
            volumeGroup: 'vg_share',
            children: [{ path: '/dev/mapper/ubuntu--vg-shared', sizeBytes: gb(100) }],
          },
        ],
      },
    ],
  };
}

/** Three nodes like the seed's host; `node-c` has only `freeC` GB free in vg_data. */
function seedCluster(freeC = 87.1): ClusterStorage {
  return {
    source: 'cluster',
    nodes: [seedNode('node-a'), seedNode('node-b'), seedNode('node-c', freeC)],
    storageClasses: [
      { name: 'openebs-lvmpv', provisioner: 'local.csi.openebs.io', default: false },
      { name: 'standard', provisioner: 'rancher.io/local-path', default: true },
    ],
    volumes: [
      { name: 'pvc-1', capacityBytes: gb(10), storageClass: 'standard', claim: 'apps/data-0', phase: 'Bound' },
      { name: 'pvc-2', capacityBytes: gb(10), storageClass: 'standard', claim: 'apps/data-1', phase: 'Bound' },
    ],
    claims: [
      { namespace: 'apps', name: 'data-0', requestedBytes: gb(10), storageClass: 'standard', phase: 'Bound', volume: 'pvc-1' },
      { namespace: 'apps', name: 'data-1', requestedBytes: gb(10), storageClass: 'standard', phase: 'Bound', volume: 'pvc-2' },
      { namespace: 'apps', name: 'data-2', requestedBytes: gb(5), storageClass: 'openebs-lvmpv', phase: 'Pending' },
    ],
    missing: ['BlockDevice (openebs.io) not installed'],
  };
}

/** A cluster without OpenEBS: nodes with neither volume groups nor disks, and the two sources said missing. */
function bareCluster(): ClusterStorage {
  return {
    source: 'cluster',
    nodes: [
      { node: 'w1-a', volumeGroups: [], disks: [], ephemeralBytes: gb(98.3) },
      { node: 'w1-b', volumeGroups: [], disks: [], ephemeralBytes: gb(98.3) },
    ],
    storageClasses: [{ name: 'standard', provisioner: 'rancher.io/local-path', default: true }],
    volumes: [],
    claims: [],
    missing: ['LVMNode (local.openebs.io) not installed', 'BlockDevice (openebs.io) not installed'],
  };
}

/**
 * The dashboard's store with these contexts, the storage slice pre-filled as the feed leaves it
 * (the catalogues loaded: the shipped example as the default one unless said), and fake actions
 * that count the reads and write each answer into the slice as the feed does.
 */
function fakeStorage(
  inventories: Record<string, () => ClusterStorage>,
  catalogues: { files?: (string | undefined)[]; load?: (file?: string) => Catalogue } = {},
) {
  const store = createFleetStore(Object.keys(inventories).map(info));
  const load = catalogues.load ?? ((file?: string) => loadCatalogue(file ?? EXAMPLE_CATALOGUE_FILE));
  const files = catalogues.files ?? [undefined];
  updateSlice(store, 'storage', (s) => {
    let slice: StorageSlice = { ...s, status: 'on', catalogueFiles: files };
    for (const f of files) slice = catalogueLoaded(slice, f, { catalogue: load(f) });
    return slice;
  });
  const reads: string[] = [];
  const actions: StorageActions = {
    show: () => {},
    estimate: { open: () => {}, send: () => {}, close: () => {} },
    read: (target) => {
      if (target.kind !== 'context') throw new Error('this host is not offered here');
      reads.push(target.name);
      const key = targetKey(target);
      let generation = 0;
      updateSlice(store, 'storage', (s) => {
        const started = readStarted(s, key);
        generation = started.generation;
        return started.slice;
      });
      Promise.resolve()
        .then(() => inventories[target.name]!())
        .then(
          (storage) =>
            updateSlice(store, 'storage', (s) =>
              readDone(s, key, generation, { storage, at: Date.now(), defaults: defaultPools(storage) }),
            ),
          (err: Error) => updateSlice(store, 'storage', (s) => readFailed(s, key, generation, err.message)),
        );
    },
  };
  return { store, actions, reads };
}

async function openStorage(fake: ReturnType<typeof fakeStorage>, onQuit = vi.fn()): Promise<Screen> {
  const screen = await renderApp(appProps(fake.store, { actions: { storage: fake.actions }, onQuit }));
  await screen.waitFor('kind-cp');
  await screen.press('4');
  return screen;
}

/** From the inventory: open the dialogue and go to the sizes page (features and pools as they are). */
async function toSizes(screen: Screen): Promise<string> {
  await screen.press(KEYS.enter);
  await screen.waitFor('1/3 Features');
  await screen.press(KEYS.enter);
  await screen.waitFor('2/3 Pools');
  await screen.press(KEYS.enter);
  const frame = await screen.waitFor('3/3 Sizes');
  return frame;
}

describe('the Storage tab: the inventory', () => {
  it('shows each node as the seed does: volume groups with size, free and devices, disks with partitions and what uses them; StorageClasses and volumes by class; the missing sources', async () => {
    // Given a context with three nodes like the seed's host
    const fake = fakeStorage({ 'kind-cp': () => seedCluster(), 'kind-workload-1': () => bareCluster() });
    const screen = await openStorage(fake);

    // Then the first node is shown the seed's way, and the missing source as a warning
    const first = await screen.waitFor('vg_data ( 93.1 GB - 87.1 GB free)');
    expectFits(first);
    expect(first).toMatch(/kind-cp\s+›?\s*1\/2 · 3 nodes · from the cluster · read \d\d:\d\d:\d\d/);
    expect(first).toContain('‼ BlockDevice (openebs.io) not installed');
    expect(first).toContain('Node node-a · ephemeral-storage 50.0 GB');
    expect(first).toContain('on /dev/sdb1');
    expect(first).toContain('-  vg_share ( 106.9 GB - 0.0 GB free)');
    expect(first).toContain('Total Free space: 87.1 GB');
    expect(first).toContain('/dev/sda2 (50G) mounted as /');
    expect(first).toContain('/dev/sdb1 (93.1G) in Volume Group vg_data');
    expect(first).toMatch(/lines 1–\d+ of \d+ · j\/k scroll/);
    expect(first).toContain('enter estimate');
    expect(fake.reads).toEqual(['kind-cp']);

    // When it is scrolled to the end (G), the other nodes went by and the cluster's classes and volumes show
    await screen.press('G');
    const end = await screen.waitFor('Volumes by StorageClass:');
    expectFits(end);
    expect(end).toContain('/dev/mapper/ubuntu--vg-shared (100G)');
    expect(end).toMatch(/openebs-lvmpv\s+local\.csi\.openebs\.io/);
    expect(end).toMatch(/standard \(default\)\s+rancher\.io\/local-path/);
    expect(end).toContain('standard       2 PVs 20.0 GB · 2 claims 20.0 GB requested, 2 Bound');
    expect(end).toContain('openebs-lvmpv  0 PVs 0.0 GB · 1 claim 5.0 GB requested, 0 Bound, 1 not Bound');

    // And j/k move a line at a time
    await screen.press(...Array<string>(14).fill('k'));
    await screen.waitFor('Node node-c');
    await screen.press('g', 'j');
    await screen.waitFor(/lines 2–\d+ of/);

    // When → picks the next context, it is read and shows which sources are missing
    await screen.press(RIGHT);
    const bare = await screen.waitFor('Node w1-a');
    expectFits(bare);
    expect(bare).toContain('‼ LVMNode (local.openebs.io) not installed');
    expect(bare).toContain('‼ BlockDevice (openebs.io) not installed');
    expect(bare).toContain('Volume Groups: none · Disks: none');
    expect(bare).toContain('ephemeral-storage 98.3 GB');
    expect(fake.reads).toEqual(['kind-cp', 'kind-workload-1']);

    // And r reads it again; going back shows what was read, without reading it again
    await screen.press('r');
    await vi.waitFor(() => expect(fake.reads).toEqual(['kind-cp', 'kind-workload-1', 'kind-workload-1']));
    await screen.press('\u001B[D');
    await screen.waitFor('Node node-a');
    expect(fake.reads).toHaveLength(3);
  });

  it('says when a context cannot be read, and r tries again', async () => {
    let fail = true;
    const fake = fakeStorage({
      'kind-cp': () => {
        if (fail) throw new Error('connect ECONNREFUSED 127.0.0.1:6443');
        return seedCluster();
      },
    });
    const screen = await openStorage(fake);
    await screen.waitFor('cannot read the storage of kind-cp: connect ECONNREFUSED 127.0.0.1:6443');
    await screen.press(KEYS.enter);
    await screen.waitFor('cannot estimate: the inventory could not be read (r reads it again)');
    fail = false;
    await screen.press('r');
    const frame = await screen.waitFor('vg_data ( 93.1 GB - 87.1 GB free)');
    expect(frame).not.toContain('cannot read the storage of kind-cp');
    expect(fake.reads.filter((r) => r === 'kind-cp')).toHaveLength(2);
  });
});

describe('the Storage tab: the estimate dialogue', () => {
  it("gives the seed's totals and verdict for its inputs: vg_data 93.1/87.1 GB free, vg_share 106.9/0 GB, KloudInsights with 10/10/10/2/2", async () => {
    const fake = fakeStorage({ 'kind-cp': () => seedCluster() });
    const onQuit = vi.fn();
    const screen = await openStorage(fake, onQuit);
    await screen.waitFor('vg_data');

    // The features, defaults from the catalogue
    await screen.press(KEYS.enter);
    const features = await screen.waitFor('Storage estimate · 1/3 Features · kind-cp');
    expectFits(features);
    expect(features).toContain('What features do you want to use');
    expect(features).toMatch(/◯ Enable KloudManage\s+No /);
    expect(features).toMatch(/◉ Enable KloudInsights\s+Yes\s+5 volumes: 20 GB shared, 14 GB unshared/);
    expect(features).toMatch(/◯ Enable Kloudhybrid\s+No /);
    expect(features).toContain('Required: Shared 20 GB, Unshared 14 GB');
    expect(features).not.toContain('enter estimate');

    // The pools, chosen as the seed does, with the reason and what is available
    await screen.press(KEYS.enter);
    const pools = await screen.waitFor('2/3 Pools');
    expectFits(pools);
    expect(pools).toContain('Using vg_data for unshared volumes');
    expect(pools).toMatch(/Shared volumes\s+‹ vg_share ›/);
    expect(pools).toMatch(/Unshared volumes\s+‹ vg_data ›/);
    expect(pools).toContain('Available: Shared 106 GB, Unshared 87 GB');

    // The sizes, typed as in the seed (q is text here: nothing quits)
    await screen.press(KEYS.enter);
    await screen.waitFor('How much storage do you want to assign to each volume');
    for (const size of ['10', '10', '10', '2', '2']) await screen.press(...size, KEYS.down);
    const sizes = await screen.waitFor('Required: Shared 20 GB, Unshared 14 GB');
    expectFits(sizes);
    expect(sizes).toMatch(/Stream processing elasticsearch \(GB\)\s+: 10\s+shared/);
    expect(sizes).toMatch(/Stream processing state storage \(GB\)\s+: 10\s+shared/);
    expect(sizes).toMatch(/Kloudinsights database \(GB\)\s+: 10\s+unshared/);
    expect(sizes).toMatch(/Kafka distributed messaging \(GB\)\s+: 2\s+unshared/);
    expect(sizes).toMatch(/Zookeeper coordinator \(GB\)\s+: 2/);
    expect(sizes).toContain("Available: Shared 106 GB, Unshared 87 GB (the smallest node's)");
    expect(sizes).toContain('√ The configuration looks OK');
    expect(sizes).toContain('Remember each node needs this amount of storage');
    expect(sizes).toMatch(/node-a\s+106 GB\s+87 GB\s+√/);
    expect(onQuit).not.toHaveBeenCalled();

    // Enter on the last size confirms: back on the inventory, with the estimate under it
    await screen.press(KEYS.enter);
    const back = await screen.waitFor('Estimate: required Shared 20 GB, Unshared 14 GB · The configuration looks OK');
    expectFits(back);
    expect(back).toContain('vg_data');
  });

  it('toggling a feature and typing a size update the totals and the verdict live', async () => {
    const fake = fakeStorage({ 'kind-cp': () => seedCluster() });
    const screen = await openStorage(fake);
    await screen.waitFor('vg_data');
    await screen.press(KEYS.enter);
    await screen.waitFor('1/3 Features');

    // When Kloudhybrid is enabled too, its 20 GB unshared add up at once
    await screen.press(KEYS.down, KEYS.down, ' ');
    await screen.waitFor('Required: Shared 20 GB, Unshared 34 GB');
    // And without KloudInsights it is the seed's second dialogue
    await screen.press(KEYS.up, ' ');
    const hybrid = await screen.waitFor('Required: Shared 0 GB, Unshared 20 GB');
    expect(hybrid).toMatch(/◯ Enable KloudInsights\s+No/);
    expect(hybrid).toContain('The configuration looks OK');
    await screen.press(' ', KEYS.down, ' ');
    await screen.waitFor('Required: Shared 20 GB, Unshared 14 GB');

    // When Kafka gets 50 GB, the total follows each key
    await screen.press(KEYS.enter);
    await screen.waitFor('2/3 Pools');
    await screen.press(KEYS.enter);
    await screen.waitFor('3/3 Sizes');
    await screen.press(KEYS.down, KEYS.down, KEYS.down, '5');
    await screen.waitFor('Required: Shared 20 GB, Unshared 17 GB');
    await screen.press('0');
    const fifty = await screen.waitFor('Required: Shared 20 GB, Unshared 62 GB');
    expect(fifty).toMatch(/Kafka distributed messaging \(GB\)\s+: 50/);
    expect(fifty).toContain('The configuration looks OK');

    // And a size that is not one is one line, not accepted: the last valid size counts
    await screen.press(KEYS.backspace, KEYS.backspace, '-', '3');
    const bad = await screen.waitFor('Kafka distributed messaging: "-3" is not a number of GB above 0 (5 GB counts)');
    expectFits(bad);
    expect(bad).toContain('Required: Shared 20 GB, Unshared 17 GB');
    // Enter on the last size does not close while a size is not accepted: it goes to that field
    await screen.press(KEYS.down, KEYS.enter);
    expect(screen.frame()).toContain('3/3 Sizes');
    await screen.press('4');
    await screen.waitFor('Required: Shared 20 GB, Unshared 16 GB');
    expect(screen.frame()).not.toContain('is not a number');
  });

  it('a size too large for the nodes shows the exact shortfall and which nodes lack it', async () => {
    // Given node-c has only 20 GB free in vg_data
    const fake = fakeStorage({ 'kind-cp': () => seedCluster(20) });
    const screen = await openStorage(fake);
    await screen.waitFor('vg_data');
    await toSizes(screen);
    await screen.waitFor('The configuration looks OK');

    // When the database gets 100 GB
    await screen.press(KEYS.down, KEYS.down, '1', '0', '0');
    const short = await screen.waitFor('Required: Shared 20 GB, Unshared 104 GB');
    expectFits(short);
    expect(short).toContain("Available: Shared 106 GB, Unshared 20 GB (the smallest node's)");
    expect(short.replace(/\n/g, ' ')).toContain('✗ Not enough storage: Unshared 84 GB short on node-c, 17 GB short on node-a, node-b');
    // The nodes that fall short first, with what each lacks
    expect(short).toMatch(/NODE\s+SHARED\s+UNSHARED/);
    expect(short).toMatch(/node-c\s+106 GB\s+20 GB\s+✗ short 84 GB unshared/);
    expect(short).toMatch(/node-a\s+106 GB\s+87 GB\s+✗ short 17 GB unshared/);
    expect(short.indexOf('node-c')).toBeLessThan(short.indexOf('node-a'));
    expect(short).toContain('Remember each node needs this amount of storage');

    // And a shared volume too large for vg_share adds the shared shortfall on every node
    await screen.press(KEYS.up, KEYS.up, '2', '0', '0');
    const both = await screen.waitFor('Required: Shared 210 GB, Unshared 104 GB');
    expect(both.replace(/\n/g, ' ')).toContain('Shared 104 GB short on every node');
  });

  it('changing a pool changes what is available; Esc goes back a page, then closes, keeping the choices', async () => {
    const fake = fakeStorage({ 'kind-cp': () => seedCluster() });
    const screen = await openStorage(fake);
    await screen.waitFor('vg_data');
    await screen.press(KEYS.enter);
    await screen.waitFor('1/3 Features');
    await screen.press(KEYS.enter);
    await screen.waitFor('2/3 Pools');

    // When the unshared pool becomes vg_share, the shared one swaps to vg_data
    await screen.press(KEYS.down, RIGHT);
    const swapped = await screen.waitFor(/Unshared volumes\s+‹ vg_share ›/);
    expect(swapped).toMatch(/Shared volumes\s+‹ vg_data ›/);
    expect(swapped).toContain('Available: Shared 93 GB, Unshared 0 GB');
    expect(swapped).toContain('Not enough storage');
    await screen.press('\u001B[D');
    await screen.waitFor('Available: Shared 106 GB, Unshared 87 GB');

    // Esc: a page back, then closed (the app's keys work again)
    await screen.press(KEYS.esc);
    await screen.waitFor('1/3 Features');
    await screen.press(KEYS.esc);
    await screen.waitFor('enter estimate');
    expect(screen.frame()).toContain('Estimate: required Shared 20 GB, Unshared 14 GB');

    // And reopening starts where it was left
    await screen.press('e');
    await screen.waitFor('1/3 Features');
  });

  it('offers the other catalogues with c (the default one first)', async () => {
    const fake = fakeStorage(
      { 'kind-cp': () => seedCluster() },
      { files: [undefined, EXAMPLE_CATALOGUE_FILE], load: (file) => loadCatalogue(file) },
    );
    const screen = await openStorage(fake);
    await screen.waitFor('vg_data');
    await screen.press(KEYS.enter);
    const control = await screen.waitFor('Catalogue: nova-control-plane');
    expect(control).toMatch(/◉ Enable Nova control plane\s+Yes\s+1 volume: 8 GB unshared/);
    expect(control).toContain('Required: Shared 0 GB, Unshared 8 GB');
    await screen.press('c');
    await screen.waitFor('Catalogue: kloudspot-example');
    await screen.waitFor('Required: Shared 20 GB, Unshared 14 GB');
  });
});

describe('the estimate form', () => {
  const catalogue = loadCatalogue(EXAMPLE_CATALOGUE_FILE);

  it('accepts sizes above 0 only', () => {
    expect(parseSize('10')).toEqual({ gb: 10 });
    expect(parseSize(' 2.5 ')).toEqual({ gb: 2.5 });
    for (const bad of ['', '0', '-1', 'abc', '1e3', '1,5']) expect(parseSize(bad)).toHaveProperty('error');
    expect(parseSize('-3')).toEqual({ error: '"-3" is not a number of GB above 0' });
  });

  it('the first key typed on a field replaces the default; further keys append', () => {
    let f: EstimateForm = { ...initialForm(catalogue, { shared: 'vg_share', unshared: 'vg_data' }), page: 'sizes' };
    f = formReducer(f, { type: 'type', volume: 'insights-kafka', text: '5' });
    f = formReducer(f, { type: 'type', volume: 'insights-kafka', text: '0' });
    expect(f.typed['insights-kafka']).toBe('50');
    expect(f.sizes['insights-kafka']).toBe(50);
    f = formReducer(f, { type: 'type', volume: 'insights-kafka', text: 'x' });
    expect(f.sizes['insights-kafka']).toBe(50);
  });
});
