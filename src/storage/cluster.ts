/** A cluster's storage inventory: its storage objects read through src/kube, shaped per node. */
import type { KubeConfig } from '@kubernetes/client-node';
import { readStorageObjects, type StorageObjects } from '../kube/storage/objects.js';
import { emptyStorage, type ClusterStorage } from './inventory.js';
import { groupByNode } from './node-storage.js';

/** The inventory of the objects read: per node, then StorageClasses, volumes and claims sorted by name. */
export function clusterInventory(objects: StorageObjects): ClusterStorage {
  const out = emptyStorage('cluster');
  out.missing.push(...objects.missing);
  out.nodes = groupByNode(objects);
  out.storageClasses = [...objects.storageClasses].sort((a, b) => a.name.localeCompare(b.name));
  out.volumes = [...objects.volumes].sort((a, b) => a.name.localeCompare(b.name));
  out.claims = [...objects.claims].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return out;
}

/**
 * The storage of the context's cluster, read once (see readStorageObjects): rejects only when
 * the cluster cannot be reached at all.
 */
export async function readClusterInventory(kc: KubeConfig): Promise<ClusterStorage> {
  return clusterInventory(await readStorageObjects(kc));
}
