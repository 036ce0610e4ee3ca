/**
 * The kinds of the Nova control plane that placement reads and moves: the workload kinds Nova
 * places (pod controllers and the objects that go with them) and Nova's own Cluster,
 * SchedulePolicy and ScheduleGroup. Objects Kubernetes makes by itself in every namespace
 * (the `default` ServiceAccount, `kube-root-ca.crt`, token Secrets, Service `default/kubernetes`)
 * Nova's own parts (labelled `app.kubernetes.io/part-of: nova`) and the system namespaces are
 * not workloads.
 */
import type { ApiObject, ApiResource } from '../api/api-resources.js';

export interface WorkloadKind extends ApiResource {
  /** Runs pods: has replicas (or runs one per node / to completion) and a pod template. */
  podController: boolean;
  /** Its status counts ready replicas the control plane shows summed over clusters. */
  statusFlowsBack: boolean;
}

const kind = (
  group: string,
  version: string,
  resource: string,
  k: string,
  podController = false,
  statusFlowsBack = false,
): WorkloadKind => ({
  group,
  version,
  resource,
  kind: k,
  namespaced: true,
  podController,
  statusFlowsBack,
});

export const WORKLOAD_KINDS: readonly WorkloadKind[] = [
  kind('apps', 'v1', 'deployments', 'Deployment', true, true),
  kind('apps', 'v1', 'statefulsets', 'StatefulSet', true, true),
  kind('apps', 'v1', 'replicasets', 'ReplicaSet', true, true),
  kind('apps', 'v1', 'daemonsets', 'DaemonSet', true),
  kind('batch', 'v1', 'jobs', 'Job', true),
  kind('', 'v1', 'services', 'Service'),
  kind('', 'v1', 'configmaps', 'ConfigMap'),
  kind('', 'v1', 'secrets', 'Secret'),
  kind('', 'v1', 'serviceaccounts', 'ServiceAccount'),
];

export const CLUSTERS: ApiResource = {
  group: 'cluster.elotl.co',
  version: 'v1alpha1',
  resource: 'clusters',
  kind: 'Cluster',
  namespaced: false,
};
export const POLICIES: ApiResource = {
  group: 'policy.elotl.co',
  version: 'v1alpha1',
  resource: 'schedulepolicies',
  kind: 'SchedulePolicy',
  namespaced: false,
};
export const GROUPS: ApiResource = {
  group: 'policy.elotl.co',
  version: 'v1alpha1',
  resource: 'schedulegroups',
  kind: 'ScheduleGroup',
  namespaced: false,
};

export const SYSTEM_NAMESPACES: ReadonlySet<string> = new Set(['kube-system', 'kube-public', 'kube-node-lease']);

export const kindOf = (k: string) => WORKLOAD_KINDS.find((x) => x.kind.toLowerCase() === k.toLowerCase() || x.resource === k.toLowerCase());

/** Whether an object is a workload (not one Kubernetes makes in every namespace by itself). */
export function isWorkload(o: ApiObject): boolean {
  const ns = o.metadata.namespace ?? '';
  if (SYSTEM_NAMESPACES.has(ns)) return false;
  const name = o.metadata.name;
  if (o.kind === 'ServiceAccount' && name === 'default') return false;
  if (o.kind === 'ConfigMap' && name === 'kube-root-ca.crt') return false;
  if (o.kind === 'Secret' && (o as { type?: string }).type === 'kubernetes.io/service-account-token') return false;
  if (o.kind === 'Service' && ns === 'default' && name === 'kubernetes') return false;
  // Nova's own parts (the agents' init kubeconfig, an agent's Deployment) are not workloads.
  if ((o.metadata.labels as Record<string, string> | undefined)?.['app.kubernetes.io/part-of'] === 'nova') return false;
  const owners = (o.metadata.ownerReferences as unknown[] | undefined) ?? [];
  return owners.length === 0;
}
