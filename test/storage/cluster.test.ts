import { describe, expect, it } from 'vitest';
import { clusterInventory } from '../../src/storage/cluster.js';

describe('clusterInventory', () => {
  it('shapes the objects read: per node, classes, volumes and claims sorted, missing sources kept', () => {
    const inv = clusterInventory({
      nodes: [{ node: 'n2', ephemeralBytes: 5 }, { node: 'n1' }],
      lvmNodes: [{ node: 'n1', volumeGroups: [{ name: 'vg_data', sizeBytes: 10, freeBytes: 4 }] }],
      blockDevices: [{ path: '/dev/sdb', sizeBytes: 10, node: 'n1', partition: false, name: 'blockdevice-1', claimState: 'Unclaimed' }],
      storageClasses: [
        { name: 'z', provisioner: 'p', default: false },
        { name: 'a', provisioner: 'p', default: true },
      ],
      volumes: [
        { name: 'pv-b', capacityBytes: 1, phase: 'Bound' },
        { name: 'pv-a', capacityBytes: 1, phase: 'Bound' },
      ],
      claims: [
        { namespace: 'y', name: 'a', requestedBytes: 1, phase: 'Bound' },
        { namespace: 'x', name: 'b', requestedBytes: 1, phase: 'Pending' },
      ],
      missing: ['BlockDevice (openebs.io) not installed'],
    });
    expect(inv.source).toBe('cluster');
    expect(inv.nodes).toEqual([
      {
        node: 'n1',
        volumeGroups: [{ name: 'vg_data', sizeBytes: 10, freeBytes: 4 }],
        disks: [{ path: '/dev/sdb', sizeBytes: 10, partitions: [], name: 'blockdevice-1', claimState: 'Unclaimed' }],
      },
      { node: 'n2', volumeGroups: [], disks: [], ephemeralBytes: 5 },
    ]);
    expect(inv.storageClasses.map((c) => c.name)).toEqual(['a', 'z']);
    expect(inv.volumes.map((v) => v.name)).toEqual(['pv-a', 'pv-b']);
    expect(inv.claims.map((c) => `${c.namespace}/${c.name}`)).toEqual(['x/b', 'y/a']);
    expect(inv.missing).toEqual(['BlockDevice (openebs.io) not installed']);
  });
});
