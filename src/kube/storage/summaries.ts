/**
 * Storage objects of a cluster as small summaries (pure): StorageClasses, PersistentVolumes and
 * claims, OpenEBS LVM LocalPV LVMNodes (volume groups) and NDM BlockDevices (disks), and the
 * Nodes' ephemeral storage. The objects are read as plain JSON (src/kube/storage/objects.ts).
 */
import { bytes } from '../api/quantity.js';

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

// --- the summaries ---

export interface VolumeGroup {
  name: string;
  sizeBytes: number;
  freeBytes: number;
  /** Devices it is on (physical volumes), when known. */
  pvs?: string[];
}

/** A Node's `ephemeral-storage`: allocatable and capacity (absent when not reported). */
export interface NodeEphemeral {
  node: string;
  ephemeralBytes?: number;
  ephemeralCapacityBytes?: number;
}

/** The volume groups of one node, from its LVMNode. */
export interface LVMNodeSummary {
  node: string;
  volumeGroups: VolumeGroup[];
}

/** One BlockDevice: a disk or a partition NDM found on a node. */
export interface BlockDeviceSummary {
  path: string;
  sizeBytes: number;
  /** The node it is attached to, when known. */
  node?: string;
  /** NDM says it is a partition (deviceType `partition`). */
  partition: boolean;
  /** NDM BlockDevice name (`blockdevice-…`). */
  name?: string;
  /** NDM claim state (Claimed, Unclaimed, Released). */
  claimState?: string;
  /** NDM state (Active, Inactive, Unknown). */
  state?: string;
  mountpoint?: string;
  fstype?: string;
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

// --- summarising ---

export function volumeGroupsOf(obj: LVMNodeObject): VolumeGroup[] {
  const vgs = Array.isArray(obj.volumeGroups) ? obj.volumeGroups : [];
  return vgs
    .filter((vg) => typeof vg?.name === 'string' && vg.name !== '')
    .map((vg) => ({ name: vg.name!, sizeBytes: bytes(vg.size), freeBytes: bytes(vg.free) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** An LVMNode: the node it is named after and its volume groups. */
export function lvmNodeOf(obj: LVMNodeObject): LVMNodeSummary {
  return { node: obj.metadata?.name ?? '', volumeGroups: volumeGroupsOf(obj) };
}

/** The node a BlockDevice is attached to: spec.nodeAttributes.nodeName, else its hostname label. */
export function blockDeviceNode(bd: BlockDeviceObject): string | undefined {
  return bd.spec?.nodeAttributes?.nodeName || bd.metadata?.labels?.[HOSTNAME_LABEL] || undefined;
}

export function blockDeviceOf(bd: BlockDeviceObject): BlockDeviceSummary {
  const spec = bd.spec ?? {};
  const s: BlockDeviceSummary = {
    path: spec.path ?? bd.metadata?.name ?? '',
    sizeBytes: bytes(spec.capacity?.storage),
    partition: spec.details?.deviceType === 'partition',
  };
  const node = blockDeviceNode(bd);
  if (node) s.node = node;
  if (bd.metadata?.name) s.name = bd.metadata.name;
  if (bd.status?.claimState) s.claimState = bd.status.claimState;
  if (bd.status?.state) s.state = bd.status.state;
  if (spec.filesystem?.mountPoint) s.mountpoint = spec.filesystem.mountPoint;
  if (spec.filesystem?.fsType) s.fstype = spec.filesystem.fsType;
  return s;
}

/** `ephemeral-storage` of a Node: allocatable and capacity in bytes (absent when not reported). */
export function nodeEphemeralOf(node: NodeObject): NodeEphemeral {
  const out: NodeEphemeral = { node: node.metadata?.name ?? '' };
  const alloc = node.status?.allocatable?.['ephemeral-storage'];
  const cap = node.status?.capacity?.['ephemeral-storage'];
  if (alloc !== undefined) out.ephemeralBytes = bytes(alloc);
  if (cap !== undefined) out.ephemeralCapacityBytes = bytes(cap);
  return out;
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
    capacityBytes: bytes(pv.spec?.capacity?.storage),
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
    requestedBytes: bytes(pvc.spec?.resources?.requests?.storage),
    phase: pvc.status?.phase ?? 'Pending',
  };
  if (pvc.spec?.storageClassName) c.storageClass = pvc.spec.storageClassName;
  if (pvc.spec?.volumeName) c.volume = pvc.spec.volumeName;
  const cap = pvc.status?.capacity?.storage;
  if (cap !== undefined) c.capacityBytes = bytes(cap);
  return c;
}

/** The line for a source that could not be read: not installed (404), forbidden (403, naming the permission), or the error. */
export function missingLine(
  source: StorageResource | { kind: string; resource: string },
  status: number | undefined,
  message: string,
): string {
  const isCrd = 'group' in source;
  const label = isCrd ? `${source.kind} (${source.group})` : source.kind;
  const resource = isCrd ? `${source.plural}.${source.group}` : source.resource;
  if (status === 404 && isCrd) return `${label} not installed`;
  if (status === 403) return `${label}: forbidden, needs list on ${resource} in all namespaces`;
  return `${label}: ${message}`;
}
