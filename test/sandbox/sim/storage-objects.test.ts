import { describe, expect, it } from 'vitest';
import {
  blockDeviceOf,
  lvmNodeOf,
  volumeGroupsOf,
  type BlockDeviceObject,
  type LVMNodeObject,
} from '../../../src/kube/storage/summaries.js';
import { blockDeviceObjects, lvmNodeObject, storageProfile, SMALL_NODE_ORDINAL } from '../../../src/sandbox/sim/storage-objects.js';
import { groupByNode } from '../../../src/storage/node-storage.js';

describe("the sandbox's simulated machines", () => {
  it("differ per node in free space; node 3 is the small one; a replacement keeps its predecessor's disks", () => {
    const free = (name: string) => storageProfile(name).volumeGroups.find((vg) => vg.name === 'vg_data')!.freeBytes;
    const frees = [1, 2, 3, 4, 5, 6].map((k) => free(`workload-1-node-${k}`));
    expect(new Set(frees).size).toBeGreaterThan(3);
    expect(Math.min(...frees)).toBe(free(`workload-1-node-${SMALL_NODE_ORDINAL}`));
    expect(storageProfile('workload-1-node-4-r2')).toEqual(storageProfile('workload-1-node-4'));
  });

  it('writes LVMNode quantities and BlockDevice capacities that read back to the same bytes', () => {
    const node = { name: 'cp-node-2', uid: 'u-2' };
    const profile = storageProfile(node.name);
    const lvm = lvmNodeObject(node) as LVMNodeObject;
    expect(volumeGroupsOf(lvm)).toEqual(
      profile.volumeGroups.map((vg) => ({ name: vg.name, sizeBytes: vg.sizeBytes, freeBytes: vg.freeBytes })),
    );
    const [grouped] = groupByNode({
      lvmNodes: [lvmNodeOf(lvm)],
      blockDevices: (blockDeviceObjects(node) as BlockDeviceObject[]).map(blockDeviceOf),
    });
    expect(grouped!.disks.map((d) => [d.path, d.sizeBytes, d.claimState])).toEqual(
      profile.disks.map((d) => [d.path, d.sizeBytes, d.claimState]),
    );
    expect(grouped!.disks.every((d) => /^blockdevice-[0-9a-f]{32}$/.test(d.name ?? ''))).toBe(true);
  });
});
