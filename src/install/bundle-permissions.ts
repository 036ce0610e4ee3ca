/** Every permission the install needs for a bundle, for the prerequisite checks (pure). */
import { DEFAULT_NAMESPACE } from '../config/fleet-config.js';
import { type Bundle, groupOf, type KubeObject, type Permission, type RequiredPermissions } from './bundle-objects.js';
import { CLUSTER_SCOPED } from './bundle-transforms.js';

const ALL_VERBS = ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'] as const;
const READ_VERBS = ['get', 'list', 'watch'] as const;

/** Plurals of the kinds a bundle is likely to hold, by `group/kind`. */
const PLURALS: Record<string, string> = {
  '/Endpoints': 'endpoints',
  'networking.k8s.io/Ingress': 'ingresses',
  'networking.k8s.io/IngressClass': 'ingressclasses',
  'networking.k8s.io/NetworkPolicy': 'networkpolicies',
  'scheduling.k8s.io/PriorityClass': 'priorityclasses',
  'storage.k8s.io/StorageClass': 'storageclasses',
  'policy/PodSecurityPolicy': 'podsecuritypolicies',
  'policy/PodDisruptionBudget': 'poddisruptionbudgets',
};

/** The resource name of a kind: known plurals, the bundle's CRDs, else English rules as Kubernetes' own. */
function pluralOf(group: string, kind: string, crdPlurals: Map<string, string>): string {
  const known = PLURALS[`${group}/${kind}`] ?? crdPlurals.get(`${group}/${kind}`);
  if (known) return known;
  const k = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(k)) return `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

/**
 * Every permission the install needs, for the prerequisite checks (one
 * SelfSubjectAccessReview each), namespaced ones in `namespace` (default `elotl`):
 *
 * - hosting cluster: all verbs (create, get, list, watch, update, patch, delete) on namespaces,
 *   Secrets (the certificates) and every kind of the apiserver Service and the control plane;
 *   get/list/watch on the pods it waits for and their events;
 * - workload clusters: all verbs on namespaces, Secrets (the init kubeconfig) and every kind of
 *   the agent (ServiceAccount, Deployment, ClusterRole, ClusterRoleBinding), plus each
 *   permission the agent's ClusterRoles grant, cluster-wide: Kubernetes lets only a holder of a
 *   permission grant it (short of the `escalate` verb).
 *
 * The CRDs are not included: they are installed in the new control plane as its admin.
 */
export function requiredPermissions(bundle: Bundle, namespace: string = DEFAULT_NAMESPACE): RequiredPermissions {
  const crdPlurals = new Map<string, string>();
  const clusterScoped = new Set(CLUSTER_SCOPED);
  for (const crd of bundle.crds) {
    const spec = crd.spec as { group?: string; scope?: string; names?: { kind?: string; plural?: string } } | undefined;
    if (spec?.names?.kind && spec.names.plural) crdPlurals.set(`${spec.group ?? ''}/${spec.names.kind}`, spec.names.plural);
    if (spec?.scope === 'Cluster' && spec.names?.kind) clusterScoped.add(`${spec.group ?? ''}/${spec.names.kind}`);
  }

  const build = () => {
    const list: Permission[] = [];
    const seen = new Set<string>();
    const add = (group: string, resource: string, verbs: readonly string[], namespaced: boolean, reason: string) => {
      for (const verb of verbs) {
        const p: Permission = { group, resource, verb, reason };
        if (namespaced) p.namespace = namespace;
        const key = `${group}/${resource}/${verb}/${p.namespace ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        list.push(p);
      }
    };
    const addKinds = (objs: readonly KubeObject[], what: string) => {
      for (const o of objs) {
        const group = groupOf(o);
        add(
          group,
          pluralOf(group, o.kind, crdPlurals),
          ALL_VERBS,
          !clusterScoped.has(`${group}/${o.kind}`),
          `to manage ${o.kind} ${o.metadata.name} (${what})`,
        );
      }
    };
    return { list, add, addKinds };
  };

  const hosting = build();
  hosting.add('', 'namespaces', ALL_VERBS, false, `to create and remove namespace ${namespace}`);
  hosting.add('', 'secrets', ALL_VERBS, true, 'to store the control plane certificates');
  hosting.addKinds([bundle.service], 'the API server Service');
  hosting.addKinds(bundle.controlPlane, 'the control plane');
  hosting.add('', 'pods', READ_VERBS, true, 'to wait for the control plane pods');
  hosting.add('', 'events', READ_VERBS, true, 'to show why a control plane pod is not ready');

  const workload = build();
  workload.add('', 'namespaces', ALL_VERBS, false, `to create and remove namespace ${namespace}`);
  workload.add('', 'secrets', ALL_VERBS, true, 'to copy the init kubeconfig for the agent');
  workload.addKinds(bundle.agent, 'the agent');
  for (const role of bundle.agent.filter((o) => o.kind === 'ClusterRole' && groupOf(o) === 'rbac.authorization.k8s.io')) {
    for (const rule of (role.rules ?? []) as { apiGroups?: string[]; resources?: string[]; verbs?: string[]; resourceNames?: string[] }[]) {
      for (const group of rule.apiGroups ?? []) {
        for (const resource of rule.resources ?? []) {
          const verbs = (rule.verbs ?? []).filter((v) => v !== '*');
          if (group === '*' || resource === '*') continue;
          workload.add(
            group,
            resource,
            verbs,
            false,
            `granted to the agent by ClusterRole ${role.metadata.name} (only a holder may grant it)`,
          );
        }
      }
    }
  }
  return { hosting: hosting.list, workload: workload.list };
}
