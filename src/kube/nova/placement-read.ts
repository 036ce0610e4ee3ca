/**
 * Everything the Workloads view and `fleetdeck workloads`/`explain` read, in one go: the
 * control plane's objects and Nova's (read.ts), its Events about them, and the copies in every
 * workload cluster of the fleet (a cluster that cannot be read is reported, not fatal).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { ApiObject, ApiResource } from '../api/api-resources.js';
import { describeError } from '../transport/client.js';
import { type ControlPlaneObjects, listed, readControlPlane, readWorkloads } from './read.js';

export interface WorkloadCluster {
  context: string;
  clusterName: string;
  kc: KubeConfig;
}

export interface ClusterCopies {
  context: string;
  clusterName: string;
  objects?: ApiObject[];
  error?: string;
}

export interface PlacementRead {
  cp: ControlPlaneObjects;
  events: ApiObject[];
  copies: ClusterCopies[];
}

const EVENTS: ApiResource = { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };

export async function readPlacement(cpKc: KubeConfig, workloads: readonly WorkloadCluster[], timeoutMs = 30_000): Promise<PlacementRead> {
  const [cp, events, ...copies] = await Promise.all([
    readControlPlane(cpKc, timeoutMs),
    listed(cpKc, EVENTS, timeoutMs),
    ...workloads.map(async (w): Promise<ClusterCopies> => {
      try {
        return { context: w.context, clusterName: w.clusterName, objects: await readWorkloads(w.kc, timeoutMs) };
      } catch (err) {
        return { context: w.context, clusterName: w.clusterName, error: describeError(err) };
      }
    }),
  ]);
  return { cp, events, copies };
}
