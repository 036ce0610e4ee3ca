/** The cluster's volume groups and disks, per node (pure): LVMNodes and BlockDevices grouped by the node they belong to. */
import type { BlockDeviceSummary, LVMNodeSummary, NodeEphemeral } from '../kube/storage/summaries.js';
import type { Disk, NodeStorage, Partition } from './inventory.js';

/** Whether `part` names a partition of the disk `disk` (/dev/sdb → /dev/sdb1, /dev/nvme0n1 → /dev/nvme0n1p2). */
export function isPartitionOf(part: string, disk: string): boolean {
  if (!part.startsWith(disk) || part === disk) return false;
  return /^p?\d+$/.test(part.slice(disk.length));
}

function diskOf(bd: BlockDeviceSummary): Disk {
  const d: Disk = { path: bd.path, sizeBytes: bd.sizeBytes, partitions: [] };
  if (bd.name) d.name = bd.name;
  if (bd.claimState) d.claimState = bd.claimState;
  if (bd.state) d.state = bd.state;
  if (bd.mountpoint) d.mountpoint = bd.mountpoint;
  if (bd.fstype) d.fstype = bd.fstype;
  return d;
}

/**
 * One node's BlockDevices as disks: partitions under the disk their path belongs to when NDM
 * reported that disk too, otherwise as entries of their own. Sorted by path.
 */
export function disksOf(bds: BlockDeviceSummary[]): Disk[] {
  const entries = bds.map((bd) => ({ bd, disk: diskOf(bd) })).sort((a, b) => a.disk.path.localeCompare(b.disk.path));
  const wholeDisks = entries.filter((e) => !e.bd.partition).map((e) => e.disk);
  const out: Disk[] = [];
  for (const { bd, disk } of entries) {
    const parent = bd.partition ? wholeDisks.find((d) => isPartitionOf(disk.path, d.path)) : undefined;
    if (!parent) {
      out.push(disk);
      continue;
    }
    const p: Partition = { path: disk.path, sizeBytes: disk.sizeBytes };
    if (disk.mountpoint) p.mountpoint = disk.mountpoint;
    if (disk.fstype) p.fstype = disk.fstype;
    parent.partitions.push(p);
  }
  return out;
}

/**
 * Per node: its volume groups (from the LVMNode named after it), its disks (BlockDevices whose
 * node is it) and its ephemeral storage. Nodes known only from LVMNodes or BlockDevices are
 * listed too (a node deleted while NDM's objects remain). Sorted by node name.
 */
export function groupByNode(input: {
  nodes?: NodeEphemeral[];
  lvmNodes?: LVMNodeSummary[];
  blockDevices?: BlockDeviceSummary[];
}): NodeStorage[] {
  const byName = new Map<string, NodeStorage>();
  const entry = (name: string) => {
    let e = byName.get(name);
    if (!e) {
      e = { node: name, volumeGroups: [], disks: [] };
      byName.set(name, e);
    }
    return e;
  };
  for (const n of input.nodes ?? []) {
    if (!n.node) continue;
    const e = entry(n.node);
    if (n.ephemeralBytes !== undefined) e.ephemeralBytes = n.ephemeralBytes;
    if (n.ephemeralCapacityBytes !== undefined) e.ephemeralCapacityBytes = n.ephemeralCapacityBytes;
  }
  for (const l of input.lvmNodes ?? []) {
    if (l.node) entry(l.node).volumeGroups.push(...l.volumeGroups);
  }
  const bdsByNode = new Map<string, BlockDeviceSummary[]>();
  for (const bd of input.blockDevices ?? []) {
    if (!bd.node) continue;
    const list = bdsByNode.get(bd.node) ?? [];
    list.push(bd);
    bdsByNode.set(bd.node, list);
  }
  for (const [node, bds] of bdsByNode) entry(node).disks = disksOf(bds);
  return [...byName.values()].sort((a, b) => a.node.localeCompare(b.node, undefined, { numeric: true }));
}
