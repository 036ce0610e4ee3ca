/**
 * What placement reads from a Nova control plane, in one go: its Clusters, SchedulePolicies,
 * ScheduleGroups, namespaces and the objects of the workload kinds (Nova's kinds absent when
 * its CRDs are not installed: empty lists).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { type ApiObject, type ApiResource, listObjects } from '../api/api-resources.js';
import { DescribedError, describeError, forbiddenMessage, statusCode } from '../transport/client.js';
import { CLUSTERS, GROUPS, isWorkload, POLICIES, WORKLOAD_KINDS } from './kinds.js';

export interface ControlPlaneObjects {
  clusters: ApiObject[];
  policies: ApiObject[];
  groups: ApiObject[];
  namespaces: ApiObject[];
  objects: ApiObject[];
}

const NAMESPACES: ApiResource = { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false };

/** Every object of `r`; a failure says which list and why (a 403 names the permission); `absentIsEmpty`: a 404 (no CRD) is none. */
export async function listed(kc: KubeConfig, r: ApiResource, timeoutMs: number, absentIsEmpty = false): Promise<ApiObject[]> {
  try {
    return await listObjects(kc, r, timeoutMs);
  } catch (err) {
    const code = statusCode(err);
    if (absentIsEmpty && code === 404) return [];
    const name = r.group ? `${r.resource}.${r.group}` : r.resource;
    const message = code === 403 ? forbiddenMessage(name, describeError(err)) : `cannot list ${name}: ${describeError(err)}`;
    throw new DescribedError(message, code, err);
  }
}

export async function readControlPlane(kc: KubeConfig, timeoutMs = 30_000): Promise<ControlPlaneObjects> {
  const [clusters, policies, groups, namespaces, ...perKind] = await Promise.all([
    listed(kc, CLUSTERS, timeoutMs, true),
    listed(kc, POLICIES, timeoutMs, true),
    listed(kc, GROUPS, timeoutMs, true),
    listed(kc, NAMESPACES, timeoutMs),
    readWorkloads(kc, timeoutMs),
  ]);
  return { clusters, policies, groups, namespaces, objects: perKind[0]! };
}

/** The objects of the workload kinds (system ones left out): a control plane's, or a workload cluster's copies. */
export async function readWorkloads(kc: KubeConfig, timeoutMs = 30_000): Promise<ApiObject[]> {
  const perKind = await Promise.all(WORKLOAD_KINDS.map((k) => listed(kc, k, timeoutMs)));
  return perKind.flat().filter(isWorkload);
}
