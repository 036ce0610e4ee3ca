import type { ClusterStorage, NodeStorage } from '../../../src/storage/inventory.js';
import { GB } from '../../../src/storage/units.js';

/** Dialogue 1 of the seed: how node nmsc02's volume groups and disks print (lsblk/vgs fixtures). */
export const SEED_NMSC02_LINES = [
  'Volume Groups:',
  '-  vg_data ( 93.1 GB - 87.1 GB free)',
  '   on /dev/sdb1',
  '-  vg_share ( 106.9 GB - 0.0 GB free)',
  '   on /dev/sdb2',
  'Total Free space: 87.1 GB',
  '',
  'Disks:',
  '/dev/sda (50G)',
  '  /dev/sda1 (1M)',
  '  /dev/sda2 (50G) mounted as /',
  '/dev/sdb (200G)',
  '  /dev/sdb1 (93.1G) in Volume Group vg_data',
  '  /dev/sdb2 (106.9G) in Volume Group vg_share',
  '    /dev/mapper/ubuntu--vg-shared (100G)',
];

const bytes = (gb: number) => Math.round(gb * GB);

/**
 * A node as the seed's host nmsc02 (dialogue 1, `kloudspot storage estimate`): vg_data (93.1 GB,
 * `freeGB` free) on /dev/sdb1, vg_share (106.9 GB, 0 free) on /dev/sdb2; /dev/sda (50G): sda1
 * (1M), sda2 (50G) mounted as /; /dev/sdb (200G): sdb1 (93.1G) in vg_data, sdb2 (106.9G) in
 * vg_share with /dev/mapper/ubuntu--vg-shared (100G).
 */
export function seedHost(node: string, freeGB = 87.1): NodeStorage {
  return {
    node,
    volumeGroups: [
      { name: 'vg_data', sizeBytes: bytes(93.1), freeBytes: bytes(freeGB), pvs: ['/dev/sdb1'] },
      { name: 'vg_share', sizeBytes: bytes(106.9), freeBytes: 0, pvs: ['/dev/sdb2'] },
    ],
    disks: [
      {
        path: '/dev/sda',
        sizeBytes: bytes(50),
        partitions: [
          { path: '/dev/sda1', sizeBytes: 1024 ** 2 },
          { path: '/dev/sda2', sizeBytes: bytes(50), mountpoint: '/' },
        ],
      },
      {
        path: '/dev/sdb',
        sizeBytes: bytes(200),
        partitions: [
          { path: '/dev/sdb1', sizeBytes: bytes(93.1), volumeGroup: 'vg_data' },
          {
            path: '/dev/sdb2',
            sizeBytes: bytes(106.9),
            volumeGroup: 'vg_share',
            children: [{ path: '/dev/mapper/ubuntu--vg-shared', sizeBytes: bytes(100) }],
          },
        ],
      },
    ],
  };
}

/** A node as the seed's host (seedHost), with 50 GB of ephemeral storage. */
export function seedNode(name: string, free = 87.1): NodeStorage {
  return { ...seedHost(name, free), ephemeralBytes: bytes(50) };
}

/** Three nodes like the seed's host; `node-c` has only `freeC` GB free in vg_data. */
export function seedCluster(freeC = 87.1): ClusterStorage {
  return {
    source: 'cluster',
    nodes: [seedNode('node-a'), seedNode('node-b'), seedNode('node-c', freeC)],
    storageClasses: [
      { name: 'openebs-lvmpv', provisioner: 'local.csi.openebs.io', default: false },
      { name: 'standard', provisioner: 'rancher.io/local-path', default: true },
    ],
    volumes: [
      { name: 'pvc-1', capacityBytes: bytes(10), storageClass: 'standard', claim: 'apps/data-0', phase: 'Bound' },
      { name: 'pvc-2', capacityBytes: bytes(10), storageClass: 'standard', claim: 'apps/data-1', phase: 'Bound' },
    ],
    claims: [
      { namespace: 'apps', name: 'data-0', requestedBytes: bytes(10), storageClass: 'standard', phase: 'Bound', volume: 'pvc-1' },
      { namespace: 'apps', name: 'data-1', requestedBytes: bytes(10), storageClass: 'standard', phase: 'Bound', volume: 'pvc-2' },
      { namespace: 'apps', name: 'data-2', requestedBytes: bytes(5), storageClass: 'openebs-lvmpv', phase: 'Pending' },
    ],
    missing: ['BlockDevice (openebs.io) not installed'],
  };
}
