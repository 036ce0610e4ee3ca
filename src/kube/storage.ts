import type { KubeConfig } from '@kubernetes/client-node';
import {
  BLOCKDEVICE,
  LVMNODE,
  claimOf,
  emptyStorage,
  groupByNode,
  missingLine,
  storageClassOf,
  volumeOf,
  type BlockDeviceObject,
  type ClusterStorage,
  type LVMNodeObject,
  type NodeObject,
  type PersistentVolumeClaimObject,
  type PersistentVolumeObject,
  type StorageClassObject,
  type StorageResource,
} from '../storage/inventory.js';
import { describeError, makeJsonClient, statusCode } from './client.js';
import { listJsonPaged } from './list.js';

const path = (r: StorageResource) => `/apis/${r.group}/${r.version}/${r.plural}`;

/**
 * The storage of the context's cluster, read once: nodes (with `ephemeral-storage`), LVM volume
 * groups from OpenEBS LVMNodes and disks from NDM BlockDevices (all namespaces; a 404 means the
 * CRD is not installed), StorageClasses, PersistentVolumes and claims. A source that is not
 * installed or not permitted is one line in `missing`; so is any other HTTP error of one list.
 * Rejects only when the cluster cannot be reached at all (no list got an HTTP answer).
 */
export async function readClusterInventory(kc: KubeConfig): Promise<ClusterStorage> {
  const api = makeJsonClient(kc);
  const list = <T>(p: string) => listJsonPaged<T, T>(api, p, {}, (x) => x).then((r) => r.items);
  const sources = [
    { source: { kind: 'Nodes', resource: 'nodes' }, read: () => list<NodeObject>('/api/v1/nodes') },
    { source: LVMNODE, read: () => list<LVMNodeObject>(path(LVMNODE)) },
    { source: BLOCKDEVICE, read: () => list<BlockDeviceObject>(path(BLOCKDEVICE)) },
    { source: { kind: 'StorageClasses', resource: 'storageclasses.storage.k8s.io' }, read: () => list<StorageClassObject>('/apis/storage.k8s.io/v1/storageclasses') },
    { source: { kind: 'PersistentVolumes', resource: 'persistentvolumes' }, read: () => list<PersistentVolumeObject>('/api/v1/persistentvolumes') },
    { source: { kind: 'PersistentVolumeClaims', resource: 'persistentvolumeclaims' }, read: () => list<PersistentVolumeClaimObject>('/api/v1/persistentvolumeclaims') },
  ] as const;
  const settled = await Promise.allSettled(sources.map((s) => s.read()));
  const out = emptyStorage('cluster');
  const unreachable: unknown[] = [];
  const items = settled.map((r, i) => {
    if (r.status === 'fulfilled') return r.value as unknown[];
    const status = statusCode(r.reason);
    if (status === undefined) unreachable.push(r.reason);
    out.missing.push(missingLine(sources[i]!.source, status, describeError(r.reason)));
    return undefined;
  });
  if (unreachable.length === sources.length) throw new Error(describeError(unreachable[0]));
  const [nodes, lvmNodes, blockDevices, classes, volumes, claims] = items as [
    NodeObject[] | undefined,
    LVMNodeObject[] | undefined,
    BlockDeviceObject[] | undefined,
    StorageClassObject[] | undefined,
    PersistentVolumeObject[] | undefined,
    PersistentVolumeClaimObject[] | undefined,
  ];
  out.nodes = groupByNode({ nodes, lvmNodes, blockDevices });
  out.storageClasses = (classes ?? []).map(storageClassOf).sort((a, b) => a.name.localeCompare(b.name));
  out.volumes = (volumes ?? []).map(volumeOf).sort((a, b) => a.name.localeCompare(b.name));
  out.claims = (claims ?? [])
    .map(claimOf)
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return out;
}
