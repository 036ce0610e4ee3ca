/** One node's storage as text, in the seed's words. */
import type { NodeStorage, Partition, VolumeGroup } from '../../storage/inventory.js';
import { formatGB, formatSize } from '../../storage/units.js';

/** Free space of all volume groups. */
export function totalFree(vgs: VolumeGroup[]): number {
  return vgs.reduce((s, vg) => s + vg.freeBytes, 0);
}

function partitionLines(p: Partition, indent: string): string[] {
  let line = `${indent}${p.path} (${formatSize(p.sizeBytes)})`;
  if (p.mountpoint) line += ` mounted as ${p.mountpoint}`;
  if (p.volumeGroup) line += ` in Volume Group ${p.volumeGroup}`;
  else if (p.fstype === 'LVM2_member') line += ' LVM physical volume';
  return [line, ...(p.children ?? []).flatMap((c) => partitionLines(c, `${indent}  `))];
}

/**
 * One node's storage in the seed's words:
 * ```
 * Volume Groups:
 * -  vg_data ( 93.1 GB - 87.1 GB free)
 *    on /dev/sdb1
 * Total Free space: 87.1 GB
 *
 * Disks:
 * /dev/sdb (200G)
 *   /dev/sdb1 (93.1G) in Volume Group vg_data
 * ```
 * Disks from NDM add their claim state ("/dev/sdd (200G) [Unclaimed]"), and their state unless Active.
 */
export function describeNodeStorage(node: NodeStorage): string[] {
  const lines: string[] = [];
  if (node.volumeGroups.length === 0) lines.push('Volume Groups: none');
  else {
    lines.push('Volume Groups:');
    for (const vg of node.volumeGroups) {
      lines.push(`-  ${vg.name} ( ${formatGB(vg.sizeBytes)} - ${formatGB(vg.freeBytes)} free)`);
      if (vg.pvs?.length) lines.push(`   on ${vg.pvs.join(', ')}`);
    }
    lines.push(`Total Free space: ${formatGB(totalFree(node.volumeGroups))}`);
  }
  lines.push('');
  if (node.disks.length === 0) {
    lines.push('Disks: none');
    return lines;
  }
  lines.push('Disks:');
  for (const d of node.disks) {
    let line = `${d.path} (${formatSize(d.sizeBytes)})`;
    if (d.mountpoint) line += ` mounted as ${d.mountpoint}`;
    if (d.volumeGroup) line += ` in Volume Group ${d.volumeGroup}`;
    else if (d.fstype === 'LVM2_member') line += ' LVM physical volume';
    const states = [d.claimState, d.state && d.state !== 'Active' ? d.state : undefined].filter(Boolean);
    if (states.length) line += ` [${states.join(', ')}]`;
    lines.push(line, ...d.partitions.flatMap((p) => partitionLines(p, '  ')));
  }
  return lines;
}
