/** StorageClasses reduced to what the install's checks need: name, annotations, provisioner. */
import type { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_TIMEOUT_MS, makeJsonClient } from '../transport/client.js';

/** What the checks need to know about a StorageClass. */
export interface StorageClassInfo {
  name: string;
  annotations?: Record<string, string>;
  provisioner?: string;
}

interface RawClass {
  metadata?: { name?: string; annotations?: Record<string, string> };
  provisioner?: string;
}

/** Every StorageClass of the cluster. */
export async function listStorageClasses(kc: KubeConfig, timeoutMs: number = DEFAULT_TIMEOUT_MS): Promise<StorageClassInfo[]> {
  const res = await makeJsonClient(kc, timeoutMs).get<{ items?: RawClass[] | null }>('/apis/storage.k8s.io/v1/storageclasses');
  return (res.items ?? []).map((c) => ({
    name: c.metadata?.name ?? '',
    ...(c.metadata?.annotations ? { annotations: c.metadata.annotations } : {}),
    ...(c.provisioner ? { provisioner: c.provisioner } : {}),
  }));
}
