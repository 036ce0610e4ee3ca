/**
 * The inventory of a context (or of this host) as the Storage tab lists it, line by line: each
 * node as the seed shows its host, then the StorageClasses and the volumes and claims by
 * StorageClass. Plain text with a tone; the screen cuts each line to its width.
 */
import { usageByClass } from '../../storage/by-class.js';
import type { ClusterStorage, NodeStorage } from '../../storage/inventory.js';
import { formatGB } from '../../storage/units.js';
import { describeNodeStorage } from './describe.js';

/** One line of the inventory page; the page only scrolls through them. */
export interface InventoryLine {
  text: string;
  tone?: 'warn' | 'muted';
  bold?: boolean;
  /** A source that could not be read: drawn with the warning symbol in front. */
  warn?: boolean;
}

/** A node as the seed shows its host (volume groups with size and free, disks with partitions and what uses them), under its name. */
export function nodeLines(n: NodeStorage, source: ClusterStorage['source']): InventoryLine[] {
  const ephemeral = n.ephemeralBytes !== undefined ? ` · ephemeral-storage ${formatGB(n.ephemeralBytes)}` : '';
  const head: InventoryLine = { text: `${source === 'local' ? 'Host' : 'Node'} ${n.node}${ephemeral}`, bold: true };
  // A node with nothing known (no LVMNode, no BlockDevice) takes one line, not four.
  if (!n.volumeGroups.length && !n.disks.length) return [head, { text: '  Volume Groups: none · Disks: none', tone: 'muted' }];
  const body = describeNodeStorage(n).map(
    (text): InventoryLine => ({ text: text ? `  ${text}` : '', ...(/: none$/.test(text) ? { tone: 'muted' as const } : {}) }),
  );
  return [head, ...body];
}

/** StorageClasses (the default marked, with provisioner), then PersistentVolumes and claims added up by StorageClass. */
export function classLines(s: ClusterStorage): InventoryLine[] {
  const out: InventoryLine[] = [];
  if (!s.storageClasses.length) out.push({ text: 'StorageClasses: none', bold: true });
  else {
    out.push({ text: 'StorageClasses:', bold: true });
    // Kubernetes names are ASCII: a character is a column.
    const label = (c: { name: string; default: boolean }) => `${c.name}${c.default ? ' (default)' : ''}`;
    const w = Math.min(40, Math.max(...s.storageClasses.map((c) => label(c).length)));
    for (const c of s.storageClasses) out.push({ text: `  ${label(c).padEnd(w)}  ${c.provisioner}` });
  }
  const usage = usageByClass(s);
  if (!usage.size) {
    out.push({ text: 'PersistentVolumes: none · claims: none', tone: 'muted' });
    return out;
  }
  out.push({ text: 'Volumes by StorageClass:', bold: true });
  // The classes in their order, then classes only volumes or claims name, then none.
  const names = [
    ...s.storageClasses.map((c) => c.name).filter((n) => usage.has(n)),
    ...[...usage.keys()].filter((n) => n !== '' && !s.storageClasses.some((c) => c.name === n)).sort(),
    ...(usage.has('') ? [''] : []),
  ];
  const w = Math.min(24, Math.max(...names.map((n) => (n || '(none)').length)));
  for (const name of names) {
    const u = usage.get(name)!;
    const pending = u.claims - u.bound;
    const pvs = `${u.volumes} PV${u.volumes === 1 ? '' : 's'} ${formatGB(u.capacityBytes)}`;
    const claims = `${u.claims} claim${u.claims === 1 ? '' : 's'} ${formatGB(u.requestedBytes)} requested, ${u.bound} Bound${pending ? `, ${pending} not Bound` : ''}`;
    out.push({ text: `  ${(name || '(none)').padEnd(w)}  ${pvs} · ${claims}`, ...(pending ? { tone: 'warn' as const } : {}) });
  }
  return out;
}

/**
 * The inventory of a context (or of this host) as lines: the sources that could not be read
 * (warnings, first), each node's volume groups and disks, then the StorageClasses and the
 * volumes and claims by StorageClass.
 */
export function inventoryLines(s: ClusterStorage): InventoryLine[] {
  const out: InventoryLine[] = [];
  for (const m of s.missing) out.push({ text: m, tone: 'warn', warn: true });
  if (s.missing.length) out.push({ text: '' });
  if (!s.nodes.length) out.push({ text: 'no nodes', tone: 'muted' });
  s.nodes.forEach((n, i) => {
    if (i > 0) out.push({ text: '' });
    out.push(...nodeLines(n, s.source));
  });
  if (s.source === 'cluster') {
    out.push({ text: '' });
    out.push(...classLines(s));
  }
  return out;
}
