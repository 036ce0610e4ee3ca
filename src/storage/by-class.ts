/** PersistentVolumes and claims added up per StorageClass (pure). */
import type { ClusterStorage } from './inventory.js';

/** Sum of requests, capacities and counts per StorageClass ("" for claims without one). */
export interface ClassUsage {
  claims: number;
  requestedBytes: number;
  bound: number;
  volumes: number;
  capacityBytes: number;
}

export function usageByClass(storage: Pick<ClusterStorage, 'volumes' | 'claims'>): Map<string, ClassUsage> {
  const out = new Map<string, ClassUsage>();
  const get = (k: string | undefined) => {
    const key = k ?? '';
    let e = out.get(key);
    if (!e) {
      e = { claims: 0, requestedBytes: 0, bound: 0, volumes: 0, capacityBytes: 0 };
      out.set(key, e);
    }
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
