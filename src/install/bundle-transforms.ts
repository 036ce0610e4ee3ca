/**
 * The bundle's transforms (pure: they return new objects and never change their arguments):
 * the objects for a namespace, the control plane with or without HA, the agent for a cluster name.
 */
import { isDeepStrictEqual } from 'node:util';
import { UserError } from '../errors.js';
import {
  DEFAULT_HA_REPLICAS,
  DEFAULT_TOPOLOGY_KEY,
  type HAOptions,
  groupOf,
  isRecord,
  type KubeObject,
  type ObjectMeta,
} from './bundle-objects.js';

/** Kinds without a namespace, by `group/kind`. Custom kinds are looked up in the CRDs given alongside. */
export const CLUSTER_SCOPED = new Set([
  '/Namespace',
  '/Node',
  '/PersistentVolume',
  '/ComponentStatus',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/VolumeAttachment',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'networking.k8s.io/IngressClass',
  'policy/PodSecurityPolicy',
  'certificates.k8s.io/CertificateSigningRequest',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'flowcontrol.apiserver.k8s.io/FlowSchema',
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
]);

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The objects for namespace `ns`: `metadata.namespace` set on every namespaced object (not on
 * cluster-scoped kinds such as ClusterRole or CustomResourceDefinition, nor on custom kinds
 * whose CRD in `objs` says `scope: Cluster`), and the namespace of every ServiceAccount
 * subject of a (Cluster)RoleBinding that names one of the bundle's ServiceAccounts or has none.
 *
 * @throws UserError when `ns` is not a valid namespace name.
 */
export function forNamespace(objs: readonly KubeObject[], ns: string): KubeObject[] {
  if (!DNS_LABEL.test(ns) || ns.length > 63) {
    throw new UserError(`invalid namespace "${ns}": lower case letters, digits and '-', at most 63 characters`);
  }
  const clusterScoped = new Set(CLUSTER_SCOPED);
  for (const o of objs) {
    const spec = o.spec as { group?: string; scope?: string; names?: { kind?: string } } | undefined;
    if (o.kind === 'CustomResourceDefinition' && spec?.scope === 'Cluster' && spec.names?.kind) {
      clusterScoped.add(`${spec.group ?? ''}/${spec.names.kind}`);
    }
  }
  const accounts = new Set(objs.filter((o) => o.kind === 'ServiceAccount' && groupOf(o) === '').map((o) => o.metadata.name));
  return objs.map((o) => {
    const c = structuredClone(o);
    if (clusterScoped.has(`${groupOf(c)}/${c.kind}`)) {
      delete c.metadata.namespace;
    } else {
      c.metadata.namespace = ns;
    }
    if (
      (c.kind === 'ClusterRoleBinding' || c.kind === 'RoleBinding') &&
      groupOf(c) === 'rbac.authorization.k8s.io' &&
      Array.isArray(c.subjects)
    ) {
      for (const s of c.subjects as { kind?: string; name?: string; namespace?: string }[]) {
        if (s.kind === 'ServiceAccount' && (s.namespace === undefined || accounts.has(s.name ?? ''))) s.namespace = ns;
      }
    }
    return c;
  });
}

/** The rolling update of an HA Deployment: one pod at a time, no surge (one pod per topology domain). */
const HA_STRATEGY = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };

/**
 * The control plane, highly available (as Nova's overlays/cp-ha): every Deployment and
 * StatefulSet gets `replicas` (default 3) and a required pod anti-affinity on `topologyKey`
 * (default `topology.kubernetes.io/zone`) against its own pods (its selector's labels);
 * Deployments roll one pod at a time without surge; etcd (a StatefulSet whose container has
 * `--initial-cluster=`) lists `replicas` members, `<name>-0` … `<name>-<n-1>`, each with the
 * peer URL of the first member's pattern.
 *
 * @throws RangeError when `replicas` is not a positive integer or `topologyKey` is empty.
 */
export function withHA(objs: readonly KubeObject[], opts: HAOptions = {}): KubeObject[] {
  const replicas = opts.replicas ?? DEFAULT_HA_REPLICAS;
  const topologyKey = opts.topologyKey ?? DEFAULT_TOPOLOGY_KEY;
  if (!Number.isInteger(replicas) || replicas < 1) throw new RangeError(`replicas must be a positive integer, not ${replicas}`);
  if (topologyKey === '') throw new RangeError('topologyKey must not be empty');
  return objs.map((o) => {
    const c = structuredClone(o);
    const w = workload(c);
    if (!w) return c;
    w.spec.replicas = replicas;
    const labels = ownLabels(w);
    const pod = podSpec(w);
    pod.affinity ??= {};
    const affinity = pod.affinity;
    affinity.podAntiAffinity ??= {};
    const anti = affinity.podAntiAffinity;
    const terms = (anti.requiredDuringSchedulingIgnoredDuringExecution ?? []).filter(
      (t) => !sameLabels(t.labelSelector?.matchLabels, labels),
    );
    anti.requiredDuringSchedulingIgnoredDuringExecution = [...terms, { labelSelector: { matchLabels: { ...labels } }, topologyKey }];
    if (c.kind === 'Deployment') w.spec.strategy = structuredClone(HA_STRATEGY);
    if (c.kind === 'StatefulSet') setEtcdMembers(w, replicas);
    return c;
  });
}

/**
 * The control plane without HA: every Deployment and StatefulSet with one replica and without
 * the anti-affinity {@link withHA} adds (other affinity terms stay), Deployments' rolling
 * update back to the default when it is withHA's, and etcd with its first member only.
 * `withoutHA(withHA(x))` equals `x` for the default bundle.
 */
export function withoutHA(objs: readonly KubeObject[]): KubeObject[] {
  return objs.map((o) => {
    const c = structuredClone(o);
    const w = workload(c);
    if (!w) return c;
    w.spec.replicas = 1;
    const labels = ownLabels(w);
    const pod = podSpec(w);
    const anti = pod.affinity?.podAntiAffinity;
    if (anti?.requiredDuringSchedulingIgnoredDuringExecution) {
      const terms = anti.requiredDuringSchedulingIgnoredDuringExecution.filter((t) => !sameLabels(t.labelSelector?.matchLabels, labels));
      if (terms.length > 0) anti.requiredDuringSchedulingIgnoredDuringExecution = terms;
      else delete anti.requiredDuringSchedulingIgnoredDuringExecution;
    }
    if (anti && Object.keys(anti).length === 0) delete pod.affinity!.podAntiAffinity;
    if (pod.affinity && Object.keys(pod.affinity).length === 0) delete pod.affinity;
    if (c.kind === 'Deployment' && isDeepStrictEqual(w.spec.strategy, HA_STRATEGY)) delete w.spec.strategy;
    if (c.kind === 'StatefulSet') setEtcdMembers(w, 1);
    return c;
  });
}

/**
 * The agent for the workload cluster named `name`: `--cluster-name=<name>` replaces the
 * argument wherever a container has one; when none has, it is added first to the arguments
 * of the containers named `nova-agent`.
 *
 * @throws UserError when `name` is not a valid Cluster name (a DNS subdomain), or no container
 *   takes a cluster name.
 */
export function withClusterName(agentObjs: readonly KubeObject[], name: string): KubeObject[] {
  if (!DNS_SUBDOMAIN.test(name) || name.length > 253) {
    throw new UserError(
      `invalid cluster name "${name}": lower case letters, digits, '-' and '.', starting and ending with a letter or digit`,
    );
  }
  const out = agentObjs.map((o) => structuredClone(o));
  const flag = `--cluster-name=${name}`;
  const isFlag = (a: unknown) => typeof a === 'string' && (a === '--cluster-name' || a.startsWith('--cluster-name='));
  const containers = out.flatMap((o) => {
    const w = workload(o, true);
    return w ? (podSpec(w).containers ?? []) : [];
  });
  const having = containers.filter((c) => [...(c.command ?? []), ...(c.args ?? [])].some(isFlag));
  if (having.length > 0) {
    for (const c of having) {
      for (const key of ['command', 'args'] as const) {
        const list = c[key];
        if (!list) continue;
        const next: string[] = [];
        for (let i = 0; i < list.length; i++) {
          const a = list[i]!;
          if (a === '--cluster-name') {
            next.push(flag);
            i++; // its value
          } else {
            next.push(isFlag(a) ? flag : a);
          }
        }
        c[key] = next;
      }
    }
    return out;
  }
  const agents = containers.filter((c) => c.name === 'nova-agent');
  if (agents.length === 0) throw new UserError('the agent manifests have no container named nova-agent to pass --cluster-name to');
  for (const c of agents) c.args = [flag, ...(c.args ?? [])];
  return out;
}

interface Container {
  name?: string;
  command?: string[];
  args?: string[];
  [key: string]: unknown;
}

interface AffinityTerm {
  labelSelector?: { matchLabels?: Record<string, string> };
  topologyKey?: string;
}

interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  affinity?: {
    podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: AffinityTerm[]; [key: string]: unknown };
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

interface Workload {
  kind: string;
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    serviceName?: string;
    strategy?: unknown;
    selector?: { matchLabels?: Record<string, string> };
    template?: { metadata?: { labels?: Record<string, string> }; spec?: PodSpec };
    [key: string]: unknown;
  };
}

/** The object as a Deployment or StatefulSet (with `any`: also DaemonSet and Job), or undefined. */
function workload(o: KubeObject, any = false): Workload | undefined {
  const kinds = any ? ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'] : ['Deployment', 'StatefulSet'];
  const group = groupOf(o);
  if (!kinds.includes(o.kind) || (group !== 'apps' && group !== 'batch') || !isRecord(o.spec)) return undefined;
  return o as unknown as Workload;
}

function podSpec(w: Workload): PodSpec {
  w.spec.template ??= {};
  const template = w.spec.template;
  template.spec ??= {};
  return template.spec;
}

/** The labels that select a workload's own pods. */
function ownLabels(w: Workload): Record<string, string> {
  return w.spec.selector?.matchLabels ?? w.spec.template?.metadata?.labels ?? {};
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  if (!a) return false;
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** Rewrites `--initial-cluster=` (in command or args) to list `n` members of a StatefulSet. */
function setEtcdMembers(w: Workload, n: number): void {
  const sts = w.metadata.name;
  for (const c of podSpec(w).containers ?? []) {
    for (const key of ['command', 'args'] as const) {
      const list = c[key];
      if (!list) continue;
      c[key] = list.map((a) => {
        if (!a.startsWith('--initial-cluster=')) return a;
        const first = a.slice('--initial-cluster='.length).split(',')[0] ?? '';
        const eq = first.indexOf('=');
        if (eq <= 0) return a;
        const name = first.slice(0, eq);
        const pattern = new RegExp(`(?<![A-Za-z0-9-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9-])`, 'g');
        const members = Array.from({ length: n }, (_, i) => first.replace(pattern, `${sts}-${i}`));
        return `--initial-cluster=${members.join(',')}`;
      });
    }
  }
}
