/**
 * What every install step shares: the options, the rows, the objects applied so far and what
 * earlier steps found (the address, the certificates, the control plane's kubeconfig).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { CheckItem } from '../../checklist/checklist.js';
import { Applier, type ApplyResult, type Manifest } from '../../kube/api/apply.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import type { ServiceAddress } from '../../kube/api/service.js';
import type { Bundle } from '../bundle.js';
import type { CertSet } from '../certs/index.js';
import type { InstallOptions } from '../plan.js';
import type { StepRunner } from '../runner.js';

export { INIT_KUBECONFIG_SECRET } from '../certs/specs.js';
export const MANAGED_LABELS = { 'app.kubernetes.io/managed-by': 'fleetdeck', 'app.kubernetes.io/part-of': 'nova' };

/** The fleet's status as `fleetdeck status` checks it, for the install's last step. */
export type FleetStatusCheck = (
  kc: KubeConfig,
  contexts: string[],
  fleet: FleetConfig,
) => Promise<{ items: CheckItem[]; healthy: boolean }>;

export interface InstallResult {
  ok: boolean;
  steps: CheckItem[];
  /** The LoadBalancer address the control plane got. */
  address?: string;
  kubeconfigPath?: string;
  /** Every object applied, per context, with what happened to it (what would, in a dry run). */
  applied: { context: string; ref: string; action: ApplyResult['action'] }[];
  /** The fleet checklist at the end (status), when the install got there. */
  status?: CheckItem[];
}

/** One run of the install: its options, rows and result, and what the steps learn on the way. */
export class InstallRun {
  readonly hosting: Applier;
  readonly result: InstallResult = { ok: false, steps: [], applied: [] };
  bundle!: Bundle;
  controlPlane: Manifest[] = [];
  address?: ServiceAddress;
  certs?: CertSet;
  cpKc?: KubeConfig;
  /** `https://<address>:443`, once the address is known. */
  server = '';

  constructor(
    readonly opts: InstallOptions,
    readonly runner: StepRunner,
    readonly checkFleet: FleetStatusCheck,
    readonly signal?: AbortSignal,
  ) {
    this.hosting = new Applier(opts.hosting.kc);
  }

  get namespace(): string {
    return this.opts.namespace;
  }

  /** Records what happened to objects in `context` (the result's `applied`). */
  record(context: string, results: ApplyResult[]): void {
    for (const r of results) this.result.applied.push({ context, ...r });
  }

  /** Applies the objects one after another (a dry run in a dry run) and records them. */
  async applyAll(applier: Applier, context: string, objs: Manifest[]): Promise<ApplyResult[]> {
    const results: ApplyResult[] = [];
    for (const o of objs) {
      this.signal?.throwIfAborted();
      results.push(await applier.apply(o, { dryRun: this.opts.dryRun }));
    }
    this.record(context, results);
    return results;
  }

  /** Applies to the hosting cluster. */
  applyHosting(objs: Manifest[]): Promise<ApplyResult[]> {
    return this.applyAll(this.hosting, this.opts.hosting.context, objs);
  }
}

/** "3 created, 2 unchanged" */
export function summarize(results: ApplyResult[], dryRun: boolean): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.action, (counts.get(r.action) ?? 0) + 1);
  const word = (a: string) => (dryRun ? ({ created: 'to create', configured: 'to change', unchanged: 'unchanged' }[a] ?? a) : a);
  return [...counts].map(([a, n]) => `${n} ${word(a)}`).join(', ') || 'nothing';
}

export const hostOf = (a: ServiceAddress) => a.ip ?? a.hostname ?? '';

export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function namespaceObject(ns: string): Manifest {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: MANAGED_LABELS } };
}

/** Reading the objects Nova places, and writing Events about them. */
const WORKLOAD_READ = [
  { apiGroups: [''], resources: ['namespaces', 'services', 'configmaps', 'secrets', 'serviceaccounts'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['deployments', 'statefulsets', 'replicasets', 'daemonsets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
];

/** In the control plane: what the scheduler (user system:kube-scheduler) may do to place workloads. */
export function schedulerRbac(): Manifest[] {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'nova-scheduler', labels: MANAGED_LABELS },
      rules: [
        { apiGroups: ['cluster.elotl.co'], resources: ['clusters'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['cluster.elotl.co'], resources: ['clusters/status'], verbs: ['get', 'update', 'patch'] },
        { apiGroups: ['policy.elotl.co'], resources: ['schedulepolicies'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['policy.elotl.co'], resources: ['schedulegroups', 'schedulegroups/status'], verbs: ['*'] },
        ...WORKLOAD_READ,
        {
          apiGroups: ['', 'apps', 'batch'],
          resources: [
            'services',
            'configmaps',
            'secrets',
            'serviceaccounts',
            'deployments',
            'statefulsets',
            'replicasets',
            'daemonsets',
            'jobs',
          ],
          verbs: ['patch'],
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'nova-scheduler', labels: MANAGED_LABELS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'nova-scheduler' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'system:kube-scheduler' }],
    },
  ];
}

/** In the control plane: what the agents' bootstrap identity (group nova:agents) may do. */
export function agentRbac(): Manifest[] {
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'nova-agent', labels: MANAGED_LABELS },
      rules: [
        {
          apiGroups: ['cluster.elotl.co'],
          resources: ['clusters', 'clusters/status'],
          verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'],
        },
        { apiGroups: ['policy.elotl.co'], resources: ['schedulepolicies', 'schedulegroups'], verbs: ['get', 'list', 'watch'] },
        ...WORKLOAD_READ,
        { apiGroups: ['apps'], resources: ['deployments', 'statefulsets', 'replicasets'], verbs: ['patch'] },
        {
          apiGroups: ['apps'],
          resources: ['deployments/status', 'statefulsets/status', 'replicasets/status'],
          verbs: ['get', 'patch', 'update'],
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'nova-agent', labels: MANAGED_LABELS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'nova-agent' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nova:agents' }],
    },
  ];
}
