import { createHash } from 'node:crypto';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type V1CustomResourceDefinition,
  type V1Node,
  type V1OwnerReference,
} from '@kubernetes/client-node';
import { toClientObject } from '../../kube/apply.js';
import { makeClient } from '../../kube/client.js';
import { ResilientWatch } from '../../kube/watch.js';
import { BLOCKDEVICE, LVMNODE, OPENEBS_NAMESPACE } from '../../storage/inventory.js';
import { FIELD_MANAGER, isConflict, isNotFound, retryUntil, sleep, watchErrorLogger, type SimContext } from './context.js';
import { SANDBOX_NODE_ANNOTATION } from './kubelet.js';
import { WorkQueue } from './queue.js';

/*
 * What OpenEBS would report on the sandbox's simulated machines: the LVM LocalPV node agent's
 * LVMNode per node (its volume groups) and NDM's BlockDevices (its disks), with the CRDs of both
 * projects (their schemas, descriptions left out). The CRDs are written as the server reads
 * them (`enum`, `x-kubernetes-int-or-string`) and turned into client-node's model to be sent.
 */

type Schema = Record<string, unknown>;
/** A CRD as its manifest says it (the server's field names). */
export type CrdManifest = { apiVersion: string; kind: string; metadata: { name: string }; spec: Schema };

const quantity: Schema = {
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$',
  'x-kubernetes-int-or-string': true,
};
const int32: Schema = { type: 'integer', format: 'int32' };

/** lvmnodes.local.openebs.io as OpenEBS LVM LocalPV installs it. */
export const LVMNODE_CRD: CrdManifest = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${LVMNODE.plural}.${LVMNODE.group}` },
  spec: {
    group: LVMNODE.group,
    names: { kind: LVMNODE.kind, listKind: 'LVMNodeList', plural: LVMNODE.plural, singular: 'lvmnode', shortNames: ['lvmnode'] },
    scope: 'Namespaced',
    versions: [
      {
        name: LVMNODE.version,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            required: ['volumeGroups'],
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              volumeGroups: {
                type: 'array',
                items: {
                  type: 'object',
                  required: [
                    'allocationPolicy', 'free', 'lvCount', 'maxLv', 'maxPv', 'metadataCount', 'metadataFree', 'metadataSize',
                    'metadataUsedCount', 'missingPvCount', 'name', 'permissions', 'pvCount', 'size', 'snapCount', 'uuid',
                  ],
                  properties: {
                    allocationPolicy: { type: 'integer' },
                    free: quantity,
                    lvCount: { ...int32, minimum: 0 },
                    maxLv: int32,
                    maxPv: int32,
                    metadataCount: int32,
                    metadataFree: quantity,
                    metadataSize: quantity,
                    metadataUsedCount: int32,
                    missingPvCount: int32,
                    name: { type: 'string', minLength: 1 },
                    permissions: { type: 'integer' },
                    pvCount: { ...int32, minimum: 0 },
                    size: quantity,
                    snapCount: int32,
                    thinPools: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['free', 'name', 'size'],
                        properties: { free: quantity, name: { type: 'string' }, size: quantity },
                      },
                    },
                    uuid: { type: 'string', minLength: 1 },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** blockdevices.openebs.io as OpenEBS NDM installs it. */
export const BLOCKDEVICE_CRD: CrdManifest = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${BLOCKDEVICE.plural}.${BLOCKDEVICE.group}` },
  spec: {
    group: BLOCKDEVICE.group,
    names: { kind: BLOCKDEVICE.kind, listKind: 'BlockDeviceList', plural: BLOCKDEVICE.plural, singular: 'blockdevice', shortNames: ['bd'] },
    scope: 'Namespaced',
    versions: [
      {
        name: BLOCKDEVICE.version,
        served: true,
        storage: true,
        additionalPrinterColumns: [
          { jsonPath: '.spec.nodeAttributes.nodeName', name: 'NodeName', type: 'string' },
          { jsonPath: '.spec.path', name: 'Path', type: 'string', priority: 1 },
          { jsonPath: '.spec.filesystem.fsType', name: 'FSType', type: 'string', priority: 1 },
          { jsonPath: '.spec.capacity.storage', name: 'Size', type: 'string' },
          { jsonPath: '.status.claimState', name: 'ClaimState', type: 'string' },
          { jsonPath: '.status.state', name: 'Status', type: 'string' },
          { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                required: ['capacity', 'devlinks', 'nodeAttributes', 'path'],
                properties: {
                  aggregateDevice: { type: 'string' },
                  capacity: {
                    type: 'object',
                    required: ['storage'],
                    properties: { logicalSectorSize: int32, physicalSectorSize: int32, storage: { type: 'integer', format: 'int64' } },
                  },
                  claimRef: {
                    type: 'object',
                    properties: Object.fromEntries(
                      ['apiVersion', 'fieldPath', 'kind', 'name', 'namespace', 'resourceVersion', 'uid'].map((k) => [k, { type: 'string' }]),
                    ),
                  },
                  details: {
                    type: 'object',
                    properties: {
                      compliance: { type: 'string' },
                      deviceType: { type: 'string', enum: ['disk', 'partition', 'sparse', 'loop', 'lvm', 'crypt', 'dm', 'mpath'] },
                      driveType: { type: 'string', enum: ['HDD', 'SSD', 'Unknown', ''] },
                      firmwareRevision: { type: 'string' },
                      hardwareSectorSize: int32,
                      logicalBlockSize: int32,
                      model: { type: 'string' },
                      physicalBlockSize: int32,
                      serial: { type: 'string' },
                      vendor: { type: 'string' },
                    },
                  },
                  devlinks: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: { kind: { type: 'string', enum: ['by-id', 'by-path'] }, links: { type: 'array', items: { type: 'string' } } },
                    },
                  },
                  filesystem: { type: 'object', properties: { fsType: { type: 'string' }, mountPoint: { type: 'string' } } },
                  nodeAttributes: { type: 'object', properties: { nodeName: { type: 'string' } } },
                  parentDevice: { type: 'string' },
                  partitioned: { type: 'string', enum: ['Yes', 'No'] },
                  path: { type: 'string' },
                },
              },
              status: {
                type: 'object',
                required: ['claimState', 'state'],
                properties: {
                  claimState: { type: 'string', enum: ['Claimed', 'Unclaimed', 'Released'] },
                  state: { type: 'string', enum: ['Active', 'Inactive', 'Unknown'] },
                },
              },
            },
          },
        },
      },
    ],
  },
};

export const SIMULATED_STORAGE_CRDS = [LVMNODE_CRD, BLOCKDEVICE_CRD];

// --- what each simulated machine has ---

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
  const sdd: SimulatedDisk = { path: '/dev/sdd', sizeBytes: (small ? 100 : 200) * GiB, claimState: !small && k % 2 === 1 ? 'Claimed' : 'Unclaimed' };
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
  const chars = [...d].slice(0, 32).map((b) => ALNUM[b % ALNUM.length]).join('');
  const parts = [6, 4, 4, 4, 4, 4, 6];
  let at = 0;
  return parts.map((n) => chars.slice(at, (at += n))).join('-');
}

/** NDM's name for a device: `blockdevice-` and a hash of what identifies it. */
export function blockDeviceName(node: string, path: string): string {
  return `blockdevice-${createHash('md5').update(`${node}:${path}`).digest('hex')}`;
}

type NodeRef = { name: string; uid: string };

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
      spec['claimRef'] = { apiVersion: `${BLOCKDEVICE.group}/${BLOCKDEVICE.version}`, kind: 'BlockDeviceClaim', name: `bdc-${u}`, namespace: OPENEBS_NAMESPACE, uid: u };
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

// --- writing them ---

/** Creates the two CRDs (kept when there) and the `openebs` namespace; resolves once both CRDs are Established. */
export async function ensureStorageCrds(kc: SimContext['kc'], timeoutMs = 60_000): Promise<void> {
  const ext = makeClient(kc, ApiextensionsV1Api);
  const core = makeClient(kc, CoreV1Api);
  for (const body of SIMULATED_STORAGE_CRDS) {
    await ext.createCustomResourceDefinition({ body: toClientObject(body) as V1CustomResourceDefinition, fieldManager: FIELD_MANAGER }).catch((err: unknown) => {
      if (!isConflict(err)) throw err;
    });
  }
  await core.createNamespace({ body: { metadata: { name: OPENEBS_NAMESPACE } }, fieldManager: FIELD_MANAGER }).catch((err: unknown) => {
    if (!isConflict(err)) throw err;
  });
  const deadline = Date.now() + timeoutMs;
  for (const body of SIMULATED_STORAGE_CRDS) {
    for (;;) {
      const crd = await ext.readCustomResourceDefinition({ name: body.metadata.name });
      if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CRD ${body.metadata.name} not established`);
      await sleep(100);
    }
  }
}

/** Creates the node's LVMNode and BlockDevices (those there already are kept). */
export async function ensureNodeStorage(kc: SimContext['kc'], node: NodeRef): Promise<void> {
  const custom = makeClient(kc, CustomObjectsApi);
  const create = (plural: string, group: string, version: string, body: object) =>
    custom.createNamespacedCustomObject({ group, version, plural, namespace: OPENEBS_NAMESPACE, body, fieldManager: FIELD_MANAGER }).catch((err: unknown) => {
      if (!isConflict(err)) throw err;
    });
  await create(LVMNODE.plural, LVMNODE.group, LVMNODE.version, lvmNodeObject(node));
  for (const bd of blockDeviceObjects(node)) await create(BLOCKDEVICE.plural, BLOCKDEVICE.group, BLOCKDEVICE.version, bd);
}

/** The CRDs and every sandbox node's objects of one cluster (e.g. to put them back after a test removed them). */
export async function ensureSimulatedStorage(kc: SimContext['kc'], clusterName: string): Promise<void> {
  await ensureStorageCrds(kc);
  const nodes = (await makeClient(kc, CoreV1Api).listNode()).items;
  for (const n of nodes) {
    if (n.metadata?.annotations?.[SANDBOX_NODE_ANNOTATION] !== clusterName || !n.metadata.uid) continue;
    await ensureNodeStorage(kc, { name: n.metadata.name ?? '', uid: n.metadata.uid });
  }
}

/**
 * Plays OpenEBS's node agents for one cluster: installs the CRDs, then gives every node the
 * kubelet registers (now and later, replacements included) its LVMNode and BlockDevices.
 * Objects are written once per Node (by UID): what a test changes or deletes stays so.
 */
export class SimulatedStorage {
  private readonly core: CoreV1Api;
  private readonly nodes = new Map<string, V1Node>();
  private readonly done = new Map<string, string>();
  private readonly queue: WorkQueue;
  private readonly watch: ResilientWatch<V1Node>;
  private stopped = true;

  constructor(private readonly ctx: SimContext) {
    this.core = makeClient(ctx.kc, CoreV1Api);
    this.queue = new WorkQueue('storage objects', (name) => this.sync(name), ctx.log, 4);
    this.watch = new ResilientWatch<V1Node>({
      kc: ctx.kc,
      path: '/api/v1/nodes',
      list: () => this.core.listNode(),
      onList: (items) => {
        this.nodes.clear();
        for (const n of items) this.observe(n);
      },
      onEvent: (type, n) => {
        if (type === 'DELETED') {
          this.nodes.delete(n.metadata?.name ?? '');
          this.done.delete(n.metadata?.name ?? '');
        } else this.observe(n);
      },
      onError: watchErrorLogger(ctx.log, 'nodes (storage objects)'),
    });
  }

  /** Installs the CRDs and writes the objects of the nodes there are; then follows new nodes. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    const ok = await retryUntil('OpenEBS CRDs', () => ensureStorageCrds(this.ctx.kc).then(() => true), {
      log: this.ctx.log,
      isStopped: () => this.stopped,
    });
    if (!ok) return;
    const nodes = await retryUntil('list nodes (storage objects)', () => this.core.listNode(), { log: this.ctx.log, isStopped: () => this.stopped });
    const ours = (nodes?.items ?? []).filter((n) => this.ours(n));
    for (const n of ours) this.nodes.set(n.metadata!.name!, n);
    for (let i = 0; i < ours.length; i += 8) {
      await Promise.all(
        ours.slice(i, i + 8).map((n) =>
          retryUntil(`storage objects of ${n.metadata!.name}`, () => this.sync(n.metadata!.name!), { log: this.ctx.log, isStopped: () => this.stopped }),
        ),
      );
    }
    this.ctx.log(`storage: OpenEBS LVMNodes and BlockDevices written for ${this.done.size} node(s)`);
    this.watch.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([this.watch.stop(), this.queue.stop()]);
  }

  private ours(n: V1Node): boolean {
    return n.metadata?.annotations?.[SANDBOX_NODE_ANNOTATION] === this.ctx.cluster.name && !!n.metadata.name && !!n.metadata.uid;
  }

  private observe(n: V1Node): void {
    if (!this.ours(n)) return;
    const name = n.metadata!.name!;
    this.nodes.set(name, n);
    if (this.done.get(name) !== n.metadata!.uid) this.queue.add(name);
  }

  private async sync(name: string): Promise<void> {
    const n = this.nodes.get(name);
    const uid = n?.metadata?.uid;
    if (!n || !uid || this.done.get(name) === uid || this.stopped) return;
    try {
      await ensureNodeStorage(this.ctx.kc, { name, uid });
    } catch (err) {
      // Without the CRDs (someone deleted them) there is nothing to write to; retried with backoff.
      if (isNotFound(err)) throw new Error(`OpenEBS CRDs not installed: ${name}'s LVMNode and BlockDevices not written`);
      throw err;
    }
    this.done.set(name, uid);
  }
}
