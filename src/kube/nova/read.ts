/**
 * What placement reads from a Nova control plane, in one go: its Clusters, SchedulePolicies,
 * ScheduleGroups, namespaces and the objects of the workload kinds (Nova's kinds absent when
 * its CRDs are not installed: empty lists).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { type ApiObject, type ApiResource, listObjects } from '../api/api-resources.js';
import { statusCode } from '../transport/client.js';
import { CLUSTERS, GROUPS, isWorkload, POLICIES, WORKLOAD_KINDS } from './kinds.js';

export interface ControlPlaneObjects {
  clusters: ApiObject[];
  policies: ApiObject[];
  groups: ApiObject[];
  namespaces: ApiObject[];
  objects: ApiObject[];
}

const NAMESPACES: ApiResource = { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false };

async function listOrNone(kc: KubeConfig, r: ApiResource, timeoutMs: number): Promise<ApiObject[]> {
  try {
    return await listObjects(kc, r, timeoutMs);
  } catch (err) {
    if (statusCode(err) === 404) return [];
    throw err;
  }
}

export async function readControlPlane(kc: KubeConfig, timeoutMs = 30_000): Promise<ControlPlaneObjects> {
  const [clusters, policies, groups, namespaces, ...perKind] = await Promise.all([
    listOrNone(kc, CLUSTERS, timeoutMs),
    listOrNone(kc, POLICIES, timeoutMs),
    listOrNone(kc, GROUPS, timeoutMs),
    listObjects(kc, NAMESPACES, timeoutMs),
    readWorkloads(kc, timeoutMs),
  ]);
  return { clusters, policies, groups, namespaces, objects: perKind[0]! };
}

/** The objects of the workload kinds (system ones left out): a control plane's, or a workload cluster's copies. */
export async function readWorkloads(kc: KubeConfig, timeoutMs = 30_000): Promise<ApiObject[]> {
  const perKind = await Promise.all(WORKLOAD_KINDS.map((k) => listObjects(kc, k, timeoutMs)));
  return perKind.flat().filter(isWorkload);
}
