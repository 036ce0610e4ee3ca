/**
 * What storage a cluster (or the local host) has, per node: LVM volume groups, disks and their
 * partitions, StorageClasses, PersistentVolumes and claims. Types and pure shaping: the
 * Kubernetes objects and the lsblk/vgs reports are read elsewhere (src/kube/storage.ts,
 * src/storage/local.ts) and turned into these shapes here.
 */
import { bytes } from '../kube/quantity.js';

export interface VolumeGroup {
  name: string;
  sizeBytes: number;
  freeBytes: number;
  /** Devices it is on (physical volumes), when known. */
  pvs?: string[];
}

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

export interface StorageClassInfo {
  name: string;
  provisioner: string;
  default: boolean;
}

export interface VolumeInfo {
  name: string;
  capacityBytes: number;
  storageClass?: string;
  /** `namespace/name` of the claim it is bound to (or reserved for). */
  claim?: string;
  phase: string;
  /** The node a local volume is pinned to (its node affinity on kubernetes.io/hostname). */
  node?: string;
}

export interface ClaimInfo {
  namespace: string;
  name: string;
  requestedBytes: number;
  storageClass?: string;
  phase: string;
  volume?: string;
  /** What the bound volume gives (status.capacity). */
  capacityBytes?: number;
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

/** The OpenEBS resources read, as the API serves them. */
export interface StorageResource {
  kind: string;
  group: string;
  version: string;
  plural: string;
}

/** OpenEBS LVM LocalPV: one LVMNode per node (namespace `openebs`, named after the node). */
export const LVMNODE: StorageResource = { kind: 'LVMNode', group: 'local.openebs.io', version: 'v1alpha1', plural: 'lvmnodes' };
/** OpenEBS NDM: one BlockDevice per disk (or partition) NDM found. */
export const BLOCKDEVICE: StorageResource = { kind: 'BlockDevice', group: 'openebs.io', version: 'v1alpha1', plural: 'blockdevices' };
export const OPENEBS_NAMESPACE = 'openebs';

export const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';
export const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.kubernetes.io/is-default-class';
const HOSTNAME_LABEL = 'kubernetes.io/hostname';

// --- objects as the API sends them (JSON), only the fields read ---

type Quantity = string | number | undefined | null;
interface Meta {
  name?: string;
  namespace?: string;
  annotations?: Record<string, string> | null;
  labels?: Record<string, string> | null;
}

export interface NodeObject {
  metadata?: Meta;
  status?: { capacity?: Record<string, string> | null; allocatable?: Record<string, string> | null } | null;
}

export interface LVMNodeObject {
  metadata?: Meta;
  volumeGroups?: { name?: string; size?: Quantity; free?: Quantity; uuid?: string; lvCount?: number; pvCount?: number }[] | null;
}

export interface BlockDeviceObject {
  metadata?: Meta;
  spec?: {
    path?: string;
    capacity?: { storage?: Quantity } | null;
    nodeAttributes?: { nodeName?: string } | null;
    filesystem?: { fsType?: string; mountPoint?: string } | null;
    details?: { deviceType?: string } | null;
  } | null;
  status?: { claimState?: string; state?: string } | null;
}

export interface StorageClassObject {
  metadata?: Meta;
  provisioner?: string;
}

export interface PersistentVolumeObject {
  metadata?: Meta;
  spec?: {
    capacity?: Record<string, string> | null;
    storageClassName?: string;
    claimRef?: { namespace?: string; name?: string } | null;
    nodeAffinity?: {
      required?: { nodeSelectorTerms?: { matchExpressions?: { key?: string; operator?: string; values?: string[] }[] }[] };
    } | null;
  } | null;
  status?: { phase?: string } | null;
}

export interface PersistentVolumeClaimObject {
  metadata?: Meta;
  spec?: {
    resources?: { requests?: Record<string, string> | null } | null;
    storageClassName?: string | null;
    volumeName?: string;
  } | null;
  status?: { phase?: string; capacity?: Record<string, string> | null } | null;
}

// --- quantities ---

/** Bytes of a Kubernetes quantity ("93.1Gi", "100G", 1048576, "99996401664"); 0 when missing or invalid. */
export function quantityBytes(q: Quantity): number {
  return bytes(q);
}

/** A byte count from a tool's report (a number or a numeric string); undefined when it is not one. */
export function reportBytes(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v !== 'string' || !/^\s*\d+(\.\d+)?\s*$/.test(v)) return undefined;
  return Math.round(Number(v));
}

// --- shaping the cluster's objects ---

export function volumeGroupsOf(obj: LVMNodeObject): VolumeGroup[] {
  const vgs = Array.isArray(obj.volumeGroups) ? obj.volumeGroups : [];
  return vgs
    .filter((vg) => typeof vg?.name === 'string' && vg.name !== '')
    .map((vg) => ({ name: vg.name!, sizeBytes: quantityBytes(vg.size), freeBytes: quantityBytes(vg.free) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The node a BlockDevice is attached to: spec.nodeAttributes.nodeName, else its hostname label. */
export function blockDeviceNode(bd: BlockDeviceObject): string | undefined {
  return bd.spec?.nodeAttributes?.nodeName || bd.metadata?.labels?.[HOSTNAME_LABEL] || undefined;
}

/** Whether `part` names a partition of the disk `disk` (/dev/sdb → /dev/sdb1, /dev/nvme0n1 → /dev/nvme0n1p2). */
export function isPartitionOf(part: string, disk: string): boolean {
  if (!part.startsWith(disk) || part === disk) return false;
  return /^p?\d+$/.test(part.slice(disk.length));
}

/**
 * One node's BlockDevices as disks: partitions (deviceType `partition`) under the disk their
 * path belongs to when NDM reported that disk too, otherwise as entries of their own. Sorted by path.
 */
export function disksOf(bds: BlockDeviceObject[]): Disk[] {
  const toEntry = (bd: BlockDeviceObject) => {
    const spec = bd.spec ?? {};
    const d: Disk = { path: spec.path ?? bd.metadata?.name ?? '', sizeBytes: quantityBytes(spec.capacity?.storage), partitions: [] };
    if (bd.metadata?.name) d.name = bd.metadata.name;
    if (bd.status?.claimState) d.claimState = bd.status.claimState;
    if (bd.status?.state) d.state = bd.status.state;
    if (spec.filesystem?.mountPoint) d.mountpoint = spec.filesystem.mountPoint;
    if (spec.filesystem?.fsType) d.fstype = spec.filesystem.fsType;
    return d;
  };
  const entries = bds.map((bd) => ({ bd, disk: toEntry(bd) })).sort((a, b) => a.disk.path.localeCompare(b.disk.path));
  const wholeDisks = entries.filter((e) => e.bd.spec?.details?.deviceType !== 'partition').map((e) => e.disk);
  const out: Disk[] = [];
  for (const { bd, disk } of entries) {
    const parent = bd.spec?.details?.deviceType === 'partition' ? wholeDisks.find((d) => isPartitionOf(disk.path, d.path)) : undefined;
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

/** `ephemeral-storage` of a Node: allocatable and capacity in bytes (absent when not reported). */
export function ephemeralOf(node: NodeObject): { ephemeralBytes?: number; ephemeralCapacityBytes?: number } {
  const out: { ephemeralBytes?: number; ephemeralCapacityBytes?: number } = {};
  const alloc = node.status?.allocatable?.['ephemeral-storage'];
  const cap = node.status?.capacity?.['ephemeral-storage'];
  if (alloc !== undefined) out.ephemeralBytes = quantityBytes(alloc);
  if (cap !== undefined) out.ephemeralCapacityBytes = quantityBytes(cap);
  return out;
}

/**
 * Per node: its volume groups (from the LVMNode named after it), its disks (BlockDevices whose
 * node is it) and its ephemeral storage. Nodes known only from LVMNodes or BlockDevices are
 * listed too (a node deleted while NDM's objects remain). Sorted by node name.
 */
export function groupByNode(input: { nodes?: NodeObject[]; lvmNodes?: LVMNodeObject[]; blockDevices?: BlockDeviceObject[] }): NodeStorage[] {
  const byName = new Map<string, NodeStorage>();
  const entry = (name: string) => {
    let e = byName.get(name);
    if (!e) byName.set(name, (e = { node: name, volumeGroups: [], disks: [] }));
    return e;
  };
  for (const n of input.nodes ?? []) {
    const name = n.metadata?.name;
    if (name) Object.assign(entry(name), ephemeralOf(n));
  }
  for (const l of input.lvmNodes ?? []) {
    const name = l.metadata?.name;
    if (name) entry(name).volumeGroups.push(...volumeGroupsOf(l));
  }
  const bdsByNode = new Map<string, BlockDeviceObject[]>();
  for (const bd of input.blockDevices ?? []) {
    const node = blockDeviceNode(bd);
    if (!node) continue;
    const list = bdsByNode.get(node) ?? [];
    list.push(bd);
    bdsByNode.set(node, list);
  }
  for (const [node, bds] of bdsByNode) entry(node).disks = disksOf(bds);
  return [...byName.values()].sort((a, b) => a.node.localeCompare(b.node, undefined, { numeric: true }));
}

/** Marked default by the GA annotation or the beta one. */
export function isDefaultClass(annotations: Record<string, string> | null | undefined): boolean {
  return annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true' || annotations?.[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

export function storageClassOf(sc: StorageClassObject): StorageClassInfo {
  return { name: sc.metadata?.name ?? '', provisioner: sc.provisioner ?? '', default: isDefaultClass(sc.metadata?.annotations) };
}

/** The node a volume is pinned to by a `kubernetes.io/hostname In [node]` affinity. */
function pinnedNode(pv: PersistentVolumeObject): string | undefined {
  for (const term of pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    for (const e of term.matchExpressions ?? []) {
      if (e.key === HOSTNAME_LABEL && e.operator === 'In' && e.values?.length === 1) return e.values[0];
    }
  }
  return undefined;
}

export function volumeOf(pv: PersistentVolumeObject): VolumeInfo {
  const v: VolumeInfo = {
    name: pv.metadata?.name ?? '',
    capacityBytes: quantityBytes(pv.spec?.capacity?.['storage']),
    phase: pv.status?.phase ?? 'Pending',
  };
  if (pv.spec?.storageClassName) v.storageClass = pv.spec.storageClassName;
  const ref = pv.spec?.claimRef;
  if (ref?.name) v.claim = `${ref.namespace ?? ''}/${ref.name}`;
  const node = pinnedNode(pv);
  if (node) v.node = node;
  return v;
}

export function claimOf(pvc: PersistentVolumeClaimObject): ClaimInfo {
  const c: ClaimInfo = {
    namespace: pvc.metadata?.namespace ?? '',
    name: pvc.metadata?.name ?? '',
    requestedBytes: quantityBytes(pvc.spec?.resources?.requests?.['storage']),
    phase: pvc.status?.phase ?? 'Pending',
  };
  if (pvc.spec?.storageClassName) c.storageClass = pvc.spec.storageClassName;
  if (pvc.spec?.volumeName) c.volume = pvc.spec.volumeName;
  const cap = pvc.status?.capacity?.['storage'];
  if (cap !== undefined) c.capacityBytes = quantityBytes(cap);
  return c;
}

/** Sum of requests, capacities and counts per StorageClass ("" for claims without one). */
export function usageByClass(storage: Pick<ClusterStorage, 'volumes' | 'claims'>): Map<string, { claims: number; requestedBytes: number; bound: number; volumes: number; capacityBytes: number }> {
  const out = new Map<string, { claims: number; requestedBytes: number; bound: number; volumes: number; capacityBytes: number }>();
  const get = (k: string | undefined) => {
    const key = k ?? '';
    let e = out.get(key);
    if (!e) out.set(key, (e = { claims: 0, requestedBytes: 0, bound: 0, volumes: 0, capacityBytes: 0 }));
    return e;
  };
  for (const c of storage.claims) {
    const e = get(c.storageClass);
    e.claims++;
    e.requestedBytes += c.requestedBytes;
    if (c.phase === 'Bound') e.bound++;
  }
  for (const v of storage.volumes) {
    const e = get(v.storageClass);
    e.volumes++;
    e.capacityBytes += v.capacityBytes;
  }
  return out;
}

/** The line for a source that could not be read: not installed (404), forbidden (403, naming the permission), or the error. */
export function missingLine(source: StorageResource | { kind: string; resource: string }, status: number | undefined, message: string): string {
  const isCrd = 'group' in source;
  const label = isCrd ? `${source.kind} (${source.group})` : source.kind;
  const resource = isCrd ? `${source.plural}.${source.group}` : source.resource;
  if (status === 404 && isCrd) return `${label} not installed`;
  if (status === 403) return `${label}: forbidden, needs list on ${resource} in all namespaces`;
  return `${label}: ${message}`;
}

export function emptyStorage(source: ClusterStorage['source']): ClusterStorage {
  return { source, nodes: [], storageClasses: [], volumes: [], claims: [], missing: [] };
}

// --- formatting as the seed prints it ---

const GiB = 2 ** 30;

/** Volume-group sizes as the seed prints them: binary gigabytes, one decimal ("93.1 GB", "0.0 GB"). */
export function formatGB(b: number): string {
  return `${(b / GiB).toFixed(1)} GB`;
}

/**
 * Sizes as lsblk prints them (util-linux size_to_human_string): binary units, one decimal
 * rounded half up and dropped when zero ("50G", "93.1G", "1M", "512B").
 */
export function formatSize(b: number): string {
  const n = Math.max(0, Math.floor(b));
  let exp = 0;
  while (exp < 60 && n >= 2 ** (exp + 10)) exp += 10;
  const letter = 'BKMGTPE'[exp / 10]!;
  const unit = 2 ** exp;
  let dec = Math.floor(n / unit);
  let frac = exp ? n % unit : 0;
  if (frac) {
    frac = Math.floor((frac * 1000) / unit); // three digits
    frac = Math.floor((frac + 50) / 100); // one digit, rounded half up
    if (frac === 10) {
      dec++;
      frac = 0;
    }
  }
  return frac ? `${dec}.${frac}${letter}` : `${dec}${letter}`;
}

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
