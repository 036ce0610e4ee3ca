/**
 * Which resources of a control plane a backup reads: the standard kinds Nova supports (its
 * architecture guide's list), CustomResourceDefinitions and every custom resource. Everything
 * else a server lists (Events, Endpoints, EndpointSlices, Leases, nodes, flow control…) is the
 * server's own bookkeeping or nothing Nova schedules.
 */
import type { ApiResource } from '../kube/api/api-resources.js';

/** `group/resource` of the standard kinds Nova supports ('' is the core group). */
export const SUPPORTED_RESOURCES: ReadonlySet<string> = new Set([
  '/configmaps',
  '/namespaces',
  '/pods',
  '/secrets',
  '/serviceaccounts',
  '/services',
  'apps/daemonsets',
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'networking.k8s.io/ingressclasses',
  'networking.k8s.io/ingresses',
  'networking.k8s.io/networkpolicies',
  'rbac.authorization.k8s.io/clusterrolebindings',
  'rbac.authorization.k8s.io/clusterroles',
  'rbac.authorization.k8s.io/rolebindings',
  'rbac.authorization.k8s.io/roles',
  'apiextensions.k8s.io/customresourcedefinitions',
]);

/**
 * A group of custom resources (a CRD's), not Kubernetes' own: Kubernetes' groups have no dot
 * (`apps`, `batch`, `policy`) or end in `.k8s.io` / `.kubernetes.io`.
 */
export function isCustomGroup(group: string): boolean {
  return group.includes('.') && !group.endsWith('.k8s.io') && !group.endsWith('.kubernetes.io');
}

/** The `group` part of an apiVersion (`''` for `v1`). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Is this resource backed up? */
export function backedUp(r: Pick<ApiResource, 'group' | 'resource'>): boolean {
  return SUPPORTED_RESOURCES.has(`${r.group}/${r.resource}`) || isCustomGroup(r.group);
}
