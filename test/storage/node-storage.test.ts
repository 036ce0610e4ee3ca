import { describe, expect, it } from 'vitest';
import { blockDeviceOf, lvmNodeOf, nodeEphemeralOf, type BlockDeviceObject } from '../../src/kube/storage/summaries.js';
import { describeNodeStorage } from '../../src/report/storage/describe.js';
import { groupByNode, isPartitionOf } from '../../src/storage/node-storage.js';

const GiB = 2 ** 30;

describe('the cluster objects per node', () => {
  const bd = (
    node: string,
    path: string,
    storage: number | string,
    extra: Partial<BlockDeviceObject['spec']> = {},
    status = { claimState: 'Unclaimed', state: 'Active' },
  ): BlockDeviceObject => ({
    metadata: { name: `blockdevice-${node}-${path.slice(5)}`, namespace: 'openebs', labels: { 'kubernetes.io/hostname': node } },
    spec: { path, capacity: { storage }, nodeAttributes: { nodeName: node }, ...extra },
    status,
  });

  it('groups LVMNodes and BlockDevices by node, partitions under their disk, ephemeral storage from the Node', () => {
    const nodes = groupByNode({
      nodes: [
        { metadata: { name: 'n2' }, status: { capacity: { 'ephemeral-storage': '100Gi' }, allocatable: { 'ephemeral-storage': '95Gi' } } },
        { metadata: { name: 'n10' }, status: {} },
      ].map(nodeEphemeralOf),
      lvmNodes: [
        lvmNodeOf({
          metadata: { name: 'n2', namespace: 'openebs' },
          volumeGroups: [{ name: 'vg_data', size: '524284Mi', free: '93.1Gi' }, { name: '' }],
        }),
      ],
      blockDevices: [
        bd('n2', '/dev/sdb', 200 * GiB),
        bd('n2', '/dev/sdb1', '100000000000', {
          details: { deviceType: 'partition' },
          filesystem: { fsType: 'ext4', mountPoint: '/data' },
        }),
        bd('n2', '/dev/nvme0n1p1', 10 * GiB, { details: { deviceType: 'partition' } }),
        bd('n3', '/dev/sdc', 50 * GiB, {}, { claimState: 'Claimed', state: 'Inactive' }),
      ].map(blockDeviceOf),
    });
    expect(nodes.map((n) => n.node)).toEqual(['n2', 'n3', 'n10']);
    const n2 = nodes[0]!;
    expect(n2.ephemeralBytes).toBe(95 * GiB);
    expect(n2.ephemeralCapacityBytes).toBe(100 * GiB);
    expect(n2.volumeGroups).toEqual([{ name: 'vg_data', sizeBytes: 524284 * 2 ** 20, freeBytes: Math.ceil(93.1 * GiB) }]);
    expect(n2.disks.map((d) => d.path)).toEqual(['/dev/nvme0n1p1', '/dev/sdb']);
    expect(n2.disks[1]!.partitions).toEqual([{ path: '/dev/sdb1', sizeBytes: 100000000000, mountpoint: '/data', fstype: 'ext4' }]);
    expect(describeNodeStorage(nodes[1]!)).toEqual(['Volume Groups: none', '', 'Disks:', '/dev/sdc (50G) [Claimed, Inactive]']);
    expect(nodes[2]).toEqual({ node: 'n10', volumeGroups: [], disks: [] });
  });

  it('knows a partition of a disk by its name', () => {
    expect(isPartitionOf('/dev/sdb1', '/dev/sdb')).toBe(true);
    expect(isPartitionOf('/dev/nvme0n1p2', '/dev/nvme0n1')).toBe(true);
    expect(isPartitionOf('/dev/sdb', '/dev/sdb')).toBe(false);
    expect(isPartitionOf('/dev/sdbb', '/dev/sdb')).toBe(false);
  });
});
