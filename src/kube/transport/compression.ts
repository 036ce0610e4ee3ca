/**
 * kubectl's `disable-compression: true` on a kubeconfig cluster (client-go 1.26 and later): the
 * answers of that cluster's API server are not asked for gzipped. On a fast network to a busy
 * server, gzipping a large list costs more time on both sides than the bytes it saves.
 */
import type { Cluster, KubeConfig } from '@kubernetes/client-node';

/** A cluster as fleetdeck keeps it: client-node's, with kubectl's field it does not read. */
export type KubeCluster = Cluster & { disableCompression?: boolean };

/** The cluster entry with `disable-compression` from the kubeconfig as written (`raw`). */
export function withCompressionField(cluster: Cluster, raw: Record<string, unknown> | undefined): KubeCluster {
  return raw?.['disable-compression'] === true ? { ...cluster, disableCompression: true } : cluster;
}

/** Whether requests of `kc`'s current cluster go without `Accept-Encoding: gzip`. */
export function compressionDisabled(kc: KubeConfig): boolean {
  return (kc.getCurrentCluster() as KubeCluster | null)?.disableCompression === true;
}
