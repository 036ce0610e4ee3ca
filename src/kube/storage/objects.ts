/**
 * The storage objects of a cluster, read once as plain JSON and summarised
 * (summaries.ts): Nodes' ephemeral storage, LVMNodes, BlockDevices, StorageClasses,
 * PersistentVolumes and claims. src/storage shapes them into a per-node inventory.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError, makeJsonClient, statusCode } from '../transport/client.js';
import { listJsonPaged } from '../watch/list.js';
import {
  BLOCKDEVICE,
  LVMNODE,
  blockDeviceOf,
  claimOf,
  lvmNodeOf,
  missingLine,
  nodeEphemeralOf,
  storageClassOf,
  volumeOf,
  type BlockDeviceObject,
  type BlockDeviceSummary,
  type ClaimInfo,
  type LVMNodeObject,
  type LVMNodeSummary,
  type NodeEphemeral,
  type NodeObject,
  type PersistentVolumeClaimObject,
  type PersistentVolumeObject,
  type StorageClassInfo,
  type StorageClassObject,
  type StorageResource,
  type VolumeInfo,
} from './summaries.js';

/** Everything read; a list that could not be read is empty, with its line in `missing`. */
export interface StorageObjects {
  nodes: NodeEphemeral[];
  lvmNodes: LVMNodeSummary[];
  blockDevices: BlockDeviceSummary[];
  storageClasses: StorageClassInfo[];
  volumes: VolumeInfo[];
  claims: ClaimInfo[];
  /** Sources that could not be read, one line each: "LVMNode (local.openebs.io) not installed", "BlockDevice (openebs.io): forbidden …". */
  missing: string[];
}

const path = (r: StorageResource) => `/apis/${r.group}/${r.version}/${r.plural}`;

/**
 * The storage objects of the context's cluster: nodes (with `ephemeral-storage`), LVM volume
 * groups from OpenEBS LVMNodes and disks from NDM BlockDevices (all namespaces; a 404 means the
 * CRD is not installed), StorageClasses, PersistentVolumes and claims. A source that is not
 * installed or not permitted is one line in `missing`; so is any other HTTP error of one list.
 * Rejects only when the cluster cannot be reached at all (no list got an HTTP answer).
 */
export async function readStorageObjects(kc: KubeConfig): Promise<StorageObjects> {
  const api = makeJsonClient(kc);
  const list = <T, S>(p: string, summary: (x: T) => S) => listJsonPaged<T, S>(api, p, {}, summary).then((r) => r.items);
  const sources = [
    { source: { kind: 'Nodes', resource: 'nodes' }, read: () => list<NodeObject, NodeEphemeral>('/api/v1/nodes', nodeEphemeralOf) },
    { source: LVMNODE, read: () => list<LVMNodeObject, LVMNodeSummary>(path(LVMNODE), lvmNodeOf) },
    { source: BLOCKDEVICE, read: () => list<BlockDeviceObject, BlockDeviceSummary>(path(BLOCKDEVICE), blockDeviceOf) },
    {
      source: { kind: 'StorageClasses', resource: 'storageclasses.storage.k8s.io' },
      read: () => list<StorageClassObject, StorageClassInfo>('/apis/storage.k8s.io/v1/storageclasses', storageClassOf),
    },
    {
      source: { kind: 'PersistentVolumes', resource: 'persistentvolumes' },
      read: () => list<PersistentVolumeObject, VolumeInfo>('/api/v1/persistentvolumes', volumeOf),
    },
    {
      source: { kind: 'PersistentVolumeClaims', resource: 'persistentvolumeclaims' },
      read: () => list<PersistentVolumeClaimObject, ClaimInfo>('/api/v1/persistentvolumeclaims', claimOf),
    },
  ] as const;
  const settled = await Promise.allSettled(sources.map((s) => s.read()));
  const missing: string[] = [];
  const unreachable: unknown[] = [];
  const items = settled.map((r, i) => {
    if (r.status === 'fulfilled') return r.value as unknown[];
    const status = statusCode(r.reason);
    if (status === undefined) unreachable.push(r.reason);
    missing.push(missingLine(sources[i]!.source, status, describeError(r.reason)));
    return [];
  });
  if (unreachable.length === sources.length) throw new Error(describeError(unreachable[0]));
  const [nodes, lvmNodes, blockDevices, storageClasses, volumes, claims] = items as [
    NodeEphemeral[],
    LVMNodeSummary[],
    BlockDeviceSummary[],
    StorageClassInfo[],
    VolumeInfo[],
    ClaimInfo[],
  ];
  return { nodes, lvmNodes, blockDevices, storageClasses, volumes, claims, missing };
}
