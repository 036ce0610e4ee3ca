/**
 * What an in-cluster rollout creates in the rollout's cluster: the runner's namespace, its
 * ServiceAccount with least-privilege RBAC (exactly what a drain, a replacement, the health gate,
 * the record, the Lease and the Events need; deleting Nodes only when a rollout deletes them),
 * and one Job per run whose pod runs `fleetdeck rollout resume NAME --runner`.
 */
import { UserError } from '../../errors.js';
import type { Manifest } from '../../kube/api/apply.js';
import { VERSION } from '../../version.js';
import { METRICS_PORT, scrapeAnnotations } from '../guards/metrics.js';
import { MANAGED_BY_LABEL, ROLLOUT_LABEL, ROLLOUT_NAMESPACE, type RolloutState } from '../types.js';

export const DEFAULT_RUNNER_NAMESPACE = 'fleetdeck-system';
/** The image the Job runs unless --image names another (see the Containerfile). */
export const DEFAULT_RUNNER_IMAGE = `ghcr.io/fleetdeck/fleetdeck:v${VERSION}`;
/** The ServiceAccount, the ClusterRole and the Roles share this name. */
export const RUNNER_NAME = 'fleetdeck-rollout-runner';
export const DELETE_NODES_ROLE = `${RUNNER_NAME}-delete-nodes`;
/** How many times the Job starts a new pod after one failed or was killed. */
export const RUNNER_BACKOFF_LIMIT = 6;

export interface RunnerSettings {
  namespace: string;
  image: string;
}

export interface InClusterFlags {
  runnerNamespace?: string;
  image?: string;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The Job's namespace and image from the flags (defaults: fleetdeck-system, the release's image). */
export function runnerSettings(flags: InClusterFlags): RunnerSettings {
  const namespace = flags.runnerNamespace ?? DEFAULT_RUNNER_NAMESPACE;
  if (!DNS_LABEL.test(namespace) || namespace.length > 63)
    throw new UserError(`--runner-namespace "${namespace}" is not a namespace name (lower-case letters, digits and '-')`, 2);
  const image = flags.image ?? DEFAULT_RUNNER_IMAGE;
  if (!image || /\s/.test(image)) throw new UserError(`--image "${image}" is not an image reference`, 2);
  return { namespace, image };
}

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

const labels = { [MANAGED_BY_LABEL]: 'fleetdeck', 'app.kubernetes.io/name': RUNNER_NAME };
const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}), labels: { ...labels } });

/** Cluster-wide: what drains and replaces nodes and gates the batches. */
export const CLUSTER_RULES: readonly Rule[] = [
  { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'delete'] },
  { apiGroups: [''], resources: ['pods/eviction'], verbs: ['create'] },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
];
/** In the record's namespace: the rollout records, their Leases, and the Events on them. */
export const RECORD_RULES: readonly Rule[] = [
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];
/** In `default`, where the Events on Nodes go. */
export const NODE_EVENT_RULES: readonly Rule[] = [{ apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] }];
export const DELETE_NODE_RULES: readonly Rule[] = [{ apiGroups: [''], resources: ['nodes'], verbs: ['delete'] }];

const subject = (ns: string) => [{ kind: 'ServiceAccount', name: RUNNER_NAME, namespace: ns }];
const roleRef = (kind: 'ClusterRole' | 'Role', name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

function role(namespace: string, rules: readonly Rule[], ns: string): Manifest[] {
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta(RUNNER_NAME, namespace), rules: [...rules] },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta(RUNNER_NAME, namespace),
      roleRef: roleRef('Role', RUNNER_NAME),
      subjects: subject(ns),
    },
  ];
}

function clusterRole(name: string, rules: readonly Rule[], ns: string): Manifest[] {
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: meta(name), rules: [...rules] },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: meta(name),
      roleRef: roleRef('ClusterRole', name),
      subjects: subject(ns),
    },
  ];
}

/** The runner's namespace, ServiceAccount and RBAC, in the order they are applied. */
export function runnerAccess(ns: string, deleteNodes: boolean): Manifest[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: meta(ns) },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(RUNNER_NAME, ns) },
    ...clusterRole(RUNNER_NAME, CLUSTER_RULES, ns),
    ...(deleteNodes ? clusterRole(DELETE_NODES_ROLE, DELETE_NODE_RULES, ns) : []),
    ...role(ROLLOUT_NAMESPACE, RECORD_RULES, ns),
    ...role('default', NODE_EVENT_RULES, ns),
  ];
}

/** `runner-NAME-N`, at most 63 characters (the Job's name is a label value on its pods). */
export function runnerJobName(rollout: string, attempt: number): string {
  const suffix = `-${attempt}`;
  return `runner-${rollout}`.slice(0, 63 - suffix.length).replace(/-+$/, '') + suffix;
}

/**
 * The Job that runs the rollout: one pod at a time, a new one after a failure or a kill (it
 * takes the Lease over once the dead pod's has expired); never on a node the rollout drains,
 * preferring the control plane's nodes, whose taints it tolerates.
 */
export function runnerJob(state: RolloutState, s: RunnerSettings, attempt: number): Manifest {
  const name = state.spec.name;
  const podLabels = { ...labels, [ROLLOUT_LABEL]: name };
  const fieldEnv = (envName: string, fieldPath: string) => ({ name: envName, valueFrom: { fieldRef: { fieldPath } } });
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: runnerJobName(name, attempt), namespace: s.namespace, labels: podLabels },
    spec: {
      backoffLimit: RUNNER_BACKOFF_LIMIT,
      template: {
        metadata: { labels: podLabels, annotations: scrapeAnnotations(METRICS_PORT) },
        spec: {
          serviceAccountName: RUNNER_NAME,
          restartPolicy: 'Never',
          terminationGracePeriodSeconds: 30,
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                // A node field selector takes one value: one requirement per node (all must hold).
                nodeSelectorTerms: [
                  { matchFields: state.nodes.map((n) => ({ key: 'metadata.name', operator: 'NotIn', values: [n.name] })) },
                ],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 100, preference: { matchExpressions: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] } },
                { weight: 100, preference: { matchExpressions: [{ key: 'node-role.kubernetes.io/master', operator: 'Exists' }] } },
              ],
            },
          },
          tolerations: [
            { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
          ],
          containers: [
            {
              name: 'runner',
              image: s.image,
              args: ['rollout', 'resume', name, '--runner', '--metrics-listen', `0.0.0.0:${METRICS_PORT}`],
              ports: [{ name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' }],
              env: [
                fieldEnv('POD_NAME', 'metadata.name'),
                fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
                { name: 'NO_COLOR', value: '1' },
              ],
              resources: { requests: { cpu: '50m', memory: '128Mi' }, limits: { memory: '512Mi' } },
              securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
            },
          ],
        },
      },
    },
  };
}

/** The RBAC as the dry run shows it: one line per role, its rules as `resources: verbs`. */
export function accessLines(objects: readonly Manifest[]): string[] {
  return objects.flatMap((o) => {
    const where = `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
    const rules = (o as { rules?: Rule[] }).rules;
    if (!rules) return [where];
    const text = rules.map(
      (r) => `${r.resources.map((x) => (r.apiGroups[0] ? `${x}.${r.apiGroups[0]}` : x)).join(',')}: ${r.verbs.join(',')}`,
    );
    return [`${where}: ${text.join('; ')}`];
  });
}
