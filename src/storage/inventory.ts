/**
 * What storage a cluster (or the local host) has, per node: LVM volume groups, disks and their
 * partitions, StorageClasses, PersistentVolumes and claims. The types, and where each part is:
 * the cluster's objects are read and summarised in src/kube/storage/objects.ts, shaped per node in
 * node-storage.ts (cluster.ts puts them together), this host's lsblk/vgs in local.ts, usage by
 * StorageClass in by-class.ts, sizes in units.ts; the seed's text in src/report/storage/describe.ts.
 */
import type { ClaimInfo, StorageClassInfo, VolumeGroup, VolumeInfo } from '../kube/storage/summaries.js';

export type { ClaimInfo, StorageClassInfo, VolumeGroup, VolumeInfo } from '../kube/storage/summaries.js';
// The OpenEBS resources, for the sandbox that simulates them.
export { BLOCKDEVICE, LVMNODE, OPENEBS_NAMESPACE } from '../kube/storage/summaries.js';

export interface Partition {
  path: string;
  sizeBytes: number;
  mountpoint?: string;
  /** The volume group this partition is a physical volume of. */
  volumeGroup?: string;
  /** Filesystem or signature on it (`ext4`, `LVM2_member`…), when known. */
  fstype?: string;
  /** What sits on it: logical volumes, crypt devices. */
  children?: Partition[];
}

export interface Disk {
  path: string;
  sizeBytes: number;
  /** Its partitions; for a disk used whole, what sits on it (logical volumes…). */
  partitions: Partition[];
  /** NDM claim state (Claimed, Unclaimed, Released). */
  claimState?: string;
  mountpoint?: string;
  /** NDM BlockDevice name (`blockdevice-…`). */
  name?: string;
  /** NDM state (Active, Inactive, Unknown). */
  state?: string;
  /** The volume group the whole disk is a physical volume of. */
  volumeGroup?: string;
  fstype?: string;
}

export interface NodeStorage {
  node: string;
  volumeGroups: VolumeGroup[];
  disks: Disk[];
  /** Allocatable `ephemeral-storage` of the Node. */
  ephemeralBytes?: number;
  /** Capacity `ephemeral-storage` of the Node. */
  ephemeralCapacityBytes?: number;
}

export interface ClusterStorage {
  source: 'cluster' | 'local';
  nodes: NodeStorage[];
  storageClasses: StorageClassInfo[];
  volumes: VolumeInfo[];
  claims: ClaimInfo[];
  /** Sources that could not be read, one line each: "LVMNode (local.openebs.io) not installed", "BlockDevice (openebs.io): forbidden …", "vgs not installed …". */
  missing: string[];
}

export function emptyStorage(source: ClusterStorage['source']): ClusterStorage {
  return { source, nodes: [], storageClasses: [], volumes: [], claims: [], missing: [] };
}
