import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../helpers/screens/screen.js';
import { seedCluster } from '../../helpers/objects/seed-storage.js';
import { bareCluster, expectFits, fakeStorage, openStorage, RIGHT } from './fake-storage.js';

afterEach(() => cleanup());

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
