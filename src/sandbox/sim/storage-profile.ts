import { createHash } from 'node:crypto';
import type { V1OwnerReference } from '@kubernetes/client-node';
import { BLOCKDEVICE, LVMNODE, OPENEBS_NAMESPACE } from '../../storage/inventory.js';

/*
 * What each simulated machine has, as OpenEBS would report it: the disks and volume groups of a
 * node (fixed by its ordinal), its LVM LocalPV LVMNode and NDM's BlockDevices.
 */

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const EXTENT = 4 * MiB;

export interface SimulatedDisk {
  path: string;
  sizeBytes: number;
  /** `LVM2_member` for a disk that is a volume group's physical volume. */
  fsType?: string;
  claimState: 'Claimed' | 'Unclaimed';
}

export interface SimulatedVolumeGroup {
  name: string;
  /** The disk it is on. */
  pv: string;
  sizeBytes: number;
  freeBytes: number;
  lvCount: number;
}

export interface StorageProfile {
  disks: SimulatedDisk[];
  volumeGroups: SimulatedVolumeGroup[];
}

/** A volume group made of one whole disk: LVM's 1 MiB metadata area, then 4 MiB extents. */
function vgOn(name: string, disk: SimulatedDisk, lvs: number[]): SimulatedVolumeGroup {
  const sizeBytes = Math.floor((disk.sizeBytes - MiB) / EXTENT) * EXTENT;
  const used = lvs.reduce((s, gb) => s + gb * GiB, 0);
  return { name, pv: disk.path, sizeBytes, freeBytes: Math.max(0, sizeBytes - used), lvCount: lvs.length };
}

/** The node's position in its cluster (`workload-1-node-3` and its replacement `workload-1-node-3-r1`: 3). */
export function nodeOrdinal(name: string): number {
  const m = /-node-(\d+)/.exec(name);
  if (m) return Number(m[1]);
  return (createHash('sha256').update(name).digest()[0]! % 6) + 1;
}

/** Node 3 of every cluster is the small machine: a shortfall shows there first. */
export const SMALL_NODE_ORDINAL = 3;

/**
 * The disks and volume groups of a simulated machine, fixed by its ordinal (a replacement gets
 * its predecessor's): /dev/sdb holds `vg_data` (node-local volumes), /dev/sdc `vg_share` (the
 * volume `shared` for replicated storage), /dev/sdd is a raw disk, claimed by a storage pool on
 * odd nodes. Used space differs per node; node 3 has small disks.
 */
export function storageProfile(nodeName: string): StorageProfile {
  const k = nodeOrdinal(nodeName);
  const small = k === SMALL_NODE_ORDINAL;
  const sdb: SimulatedDisk = { path: '/dev/sdb', sizeBytes: (small ? 64 : 512) * GiB, fsType: 'LVM2_member', claimState: 'Unclaimed' };
  const sdc: SimulatedDisk = { path: '/dev/sdc', sizeBytes: (small ? 48 : 256) * GiB, fsType: 'LVM2_member', claimState: 'Unclaimed' };
  const sdd: SimulatedDisk = {
    path: '/dev/sdd',
    sizeBytes: (small ? 100 : 200) * GiB,
    claimState: !small && k % 2 === 1 ? 'Claimed' : 'Unclaimed',
  };
  const dataLvs = small ? [40] : [40, ...Array.from({ length: (k - 1) % 4 }, () => 60)];
  const shareLvs = small ? [20] : [100 + 20 * ((k - 1) % 3)];
  return { disks: [sdb, sdc, sdd], volumeGroups: [vgOn('vg_data', sdb, dataLvs), vgOn('vg_share', sdc, shareLvs)] };
}

/** Bytes as a Kubernetes quantity in its canonical binary form ("524284Mi"), as the LVM node agent writes them. */
export function binaryQuantity(b: number): string {
  const units = ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki'];
  for (let i = 0; i < units.length; i++) {
    const unit = 2 ** (10 * (units.length - i));
    if (b !== 0 && b % unit === 0) return `${b / unit}${units[i]}`;
  }
  return String(b);
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A VG UUID in LVM's form (6-4-4-4-4-4-6 characters), fixed by the node and group. */
function vgUuid(node: string, vg: string): string {
  const d = digest(`${node}/${vg}`);
  const chars = [...d]
    .slice(0, 32)
    .map((b) => ALNUM[b % ALNUM.length])
    .join('');
  const parts = [6, 4, 4, 4, 4, 4, 6];
  const out: string[] = [];
  let at = 0;
  for (const n of parts) {
    out.push(chars.slice(at, at + n));
    at += n;
  }
  return out.join('-');
}

/** NDM's name for a device: `blockdevice-` and a hash of what identifies it. */
export function blockDeviceName(node: string, path: string): string {
  return `blockdevice-${createHash('md5').update(`${node}:${path}`).digest('hex')}`;
}

export type NodeRef = { name: string; uid: string };

function ownerRef(node: NodeRef, controller: boolean): V1OwnerReference {
  return { apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid, controller, blockOwnerDeletion: controller };
}

/** The node agent's LVMNode: named after the node, in `openebs`, owned by the Node. */
export function lvmNodeObject(node: NodeRef, profile: StorageProfile = storageProfile(node.name)): object {
  return {
    apiVersion: `${LVMNODE.group}/${LVMNODE.version}`,
    kind: LVMNODE.kind,
    metadata: { name: node.name, namespace: OPENEBS_NAMESPACE, ownerReferences: [ownerRef(node, true)] },
    volumeGroups: profile.volumeGroups.map((vg) => ({
      name: vg.name,
      uuid: vgUuid(node.name, vg.name),
      size: binaryQuantity(vg.sizeBytes),
      free: binaryQuantity(vg.freeBytes),
      lvCount: vg.lvCount,
      pvCount: 1,
      maxLv: 0,
      maxPv: 0,
      snapCount: 0,
      missingPvCount: 0,
      metadataCount: 1,
      metadataUsedCount: 1,
      metadataFree: '508Ki',
      metadataSize: '1020Ki',
      permissions: 0,
      allocationPolicy: 0,
    })),
  };
}

/**
 * NDM's BlockDevices of the node. They are owned by the Node, so a deleted (replaced) machine's
 * disks go with it; NDM itself would keep them as Unknown.
 */
export function blockDeviceObjects(node: NodeRef, profile: StorageProfile = storageProfile(node.name)): object[] {
  return profile.disks.map((disk, i) => {
    const name = blockDeviceName(node.name, disk.path);
    const serial = name.slice('blockdevice-'.length, 'blockdevice-'.length + 16);
    const spec: Record<string, unknown> = {
      capacity: { storage: disk.sizeBytes, logicalSectorSize: 512, physicalSectorSize: 4096 },
      details: {
        deviceType: 'disk',
        driveType: 'SSD',
        model: 'Sandbox SSD',
        vendor: 'fleetdeck',
        serial,
        compliance: 'SPC-4',
        firmwareRevision: '1.0',
        hardwareSectorSize: 512,
        logicalBlockSize: 512,
        physicalBlockSize: 4096,
      },
      devlinks: [
        { kind: 'by-id', links: [`/dev/disk/by-id/scsi-0fleetdeck_sandbox_${serial}`] },
        { kind: 'by-path', links: [`/dev/disk/by-path/pci-0000:00:10.0-scsi-0:0:${i + 1}:0`] },
      ],
      filesystem: disk.fsType ? { fsType: disk.fsType } : {},
      nodeAttributes: { nodeName: node.name },
      partitioned: 'No',
      path: disk.path,
    };
    if (disk.claimState === 'Claimed') {
      const uid = createHash('md5').update(`claim:${name}`).digest('hex');
      const u = `${uid.slice(0, 8)}-${uid.slice(8, 12)}-${uid.slice(12, 16)}-${uid.slice(16, 20)}-${uid.slice(20, 32)}`;
      spec.claimRef = {
        apiVersion: `${BLOCKDEVICE.group}/${BLOCKDEVICE.version}`,
        kind: 'BlockDeviceClaim',
        name: `bdc-${u}`,
        namespace: OPENEBS_NAMESPACE,
        uid: u,
      };
    }
    return {
      apiVersion: `${BLOCKDEVICE.group}/${BLOCKDEVICE.version}`,
      kind: BLOCKDEVICE.kind,
      metadata: {
        name,
        namespace: OPENEBS_NAMESPACE,
        labels: { 'kubernetes.io/hostname': node.name, 'ndm.io/blockdevice-type': 'blockdevice', 'ndm.io/managed': 'true' },
        ownerReferences: [ownerRef(node, false)],
      },
      spec,
      status: { claimState: disk.claimState, state: 'Active' },
    };
  });
}
