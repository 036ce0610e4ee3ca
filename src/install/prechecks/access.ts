/** The permissions the install needs and the verdict on the access reviews (pure). */
import type { CheckItem } from '../../checklist/checklist.js';
import type { AccessResult, Permission, Verdict } from './types.js';

export function describePermission(p: Permission): string {
  const resource = `${p.resource}${p.group ? `.${p.group}` : ''}${p.subresource ? `/${p.subresource}` : ''}`;
  return `${p.verb} ${resource}${p.namespace ? ` in namespace ${p.namespace}` : ''}`;
}

/**
 * Every permission must be granted. Each missing one becomes a child line
 * `cannot create statefulsets.apps in namespace elotl`; reviews that failed make it a warning.
 */
export function permissionsCheck(results: readonly AccessResult[]): Verdict {
  const missing = results.filter((r) => !r.allowed && r.error === undefined);
  const unknown = results.filter((r) => r.error !== undefined);
  const children: CheckItem[] = [
    ...missing.map((r, i) => ({ id: `missing-${i}`, label: `cannot ${describePermission(r.permission)}`, state: 'info' as const })),
    ...unknown.map((r, i) => ({
      id: `unknown-${i}`,
      label: `could not check ${describePermission(r.permission)}: ${r.error}`,
      state: 'info' as const,
    })),
  ];
  if (missing.length > 0) {
    return {
      state: 'fail',
      detail: `${missing.length} of ${results.length} missing`,
      hint: 'ask a cluster admin to grant them, or use a context with more rights (kubectl auth can-i --list shows yours)',
      children,
    };
  }
  if (unknown.length > 0) {
    return {
      state: 'warn',
      detail: `${unknown.length} of ${results.length} could not be checked`,
      hint: 'check them by hand with kubectl auth can-i VERB RESOURCE -n NAMESPACE',
      children,
    };
  }
  return { state: 'ok', detail: results.length ? `all ${results.length} granted` : 'none needed' };
}

/**
 * The permissions the default bundle needs (the objects the install creates): the hosting cluster
 * gets the namespace, the API server Service, the certificate Secrets, etcd and the control
 * plane's Deployments; each workload cluster gets the namespace, the init kubeconfig Secret,
 * the agent's Deployment, ServiceAccount and cluster-wide RBAC. Uninstall's deletes included.
 */
export function installPermissions(namespace: string): { hosting: Permission[]; workload: Permission[] } {
  const each = (group: string, resource: string, verbs: string[], ns?: string): Permission[] =>
    verbs.map((verb) => ({ group, resource, verb, ...(ns ? { namespace: ns } : {}) }));
  const write = ['get', 'create', 'update', 'patch', 'delete'];
  return {
    hosting: [
      ...each('', 'namespaces', ['get', 'create', 'delete']),
      ...each('', 'services', write, namespace),
      ...each('', 'secrets', write, namespace),
      ...each('apps', 'statefulsets', write, namespace),
      ...each('apps', 'deployments', write, namespace),
      ...each('', 'pods', ['get', 'list', 'watch'], namespace),
      ...each('', 'persistentvolumeclaims', ['get', 'list', 'delete'], namespace),
      ...each('', 'events', ['list', 'watch'], namespace),
    ],
    workload: [
      ...each('', 'namespaces', ['get', 'create', 'delete']),
      ...each('', 'secrets', write, namespace),
      ...each('', 'serviceaccounts', write, namespace),
      ...each('apps', 'deployments', write, namespace),
      ...each('', 'pods', ['get', 'list', 'watch'], namespace),
      ...each('rbac.authorization.k8s.io', 'clusterroles', write),
      ...each('rbac.authorization.k8s.io', 'clusterrolebindings', write),
    ],
  };
}
