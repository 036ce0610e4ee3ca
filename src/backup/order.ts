/**
 * The order a restore applies objects in, so that each finds what it needs: CRDs, namespaces,
 * then what workloads refer to (ServiceAccounts, RBAC, ConfigMaps, Secrets), then the other
 * standard kinds, and custom resources last, once their CRD is Established.
 */
import type { ApiObject } from '../kube/api/api-resources.js';
import { groupOf, isCustomGroup } from './select.js';

export type Phase = 'crds' | 'namespaces' | 'config' | 'workloads' | 'custom';

export const PHASES: readonly Phase[] = ['crds', 'namespaces', 'config', 'workloads', 'custom'];

/** Within the config phase: identities and roles before their bindings, then data. */
const CONFIG_KINDS = ['ServiceAccount', 'ClusterRole', 'Role', 'ClusterRoleBinding', 'RoleBinding', 'ConfigMap', 'Secret'];

export function phaseOf(obj: Pick<ApiObject, 'apiVersion' | 'kind'>): Phase {
  if (obj.kind === 'CustomResourceDefinition' && groupOf(obj.apiVersion) === 'apiextensions.k8s.io') return 'crds';
  if (isCustomGroup(groupOf(obj.apiVersion))) return 'custom';
  if (obj.kind === 'Namespace' && obj.apiVersion === 'v1') return 'namespaces';
  if (CONFIG_KINDS.includes(obj.kind)) return 'config';
  return 'workloads';
}

function rank(obj: ApiObject): number {
  const i = CONFIG_KINDS.indexOf(obj.kind);
  return PHASES.indexOf(phaseOf(obj)) * 100 + (i < 0 ? 50 : i);
}

const key = (o: ApiObject) => `${o.kind}\u0000${o.apiVersion}\u0000${o.metadata.namespace ?? ''}\u0000${o.metadata.name}`;

/** The objects in restore order: by phase, then kind, namespace and name (a stable, readable plan). */
export function restoreOrder<T extends ApiObject>(objects: readonly T[]): T[] {
  return [...objects].sort((a, b) => rank(a) - rank(b) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
