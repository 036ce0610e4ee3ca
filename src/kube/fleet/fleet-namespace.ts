import type { Sync } from '../watch/sync.js';
import type { AppsV1Api, CoreV1Api, V1Deployment, V1Namespace, V1Pod, V1Secret, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import type { CertSummary } from '../certs/certs.js';
import type { ComponentPod } from './component-pod.js';
import { certsFromSecret } from '../certs/certs.js';
import { lazyClient } from '../transport/client.js';
import { WatchedCollection, coalesce } from '../watch/collection.js';
import { summarizeComponentPod } from './component-pod.js';
import type { ContextWatcher, WatcherEnv, WatcherFactory } from '../watch/watcher.js';

export type FleetNamespaceRole = 'hosting' | 'workload';

export function summarizeDeployment(d: V1Deployment): WorkloadSummary {
  return {
    kind: 'Deployment',
    name: d.metadata?.name ?? '',
    desired: d.spec?.replicas ?? 1,
    ready: d.status?.readyReplicas ?? 0,
    labels: { ...(d.spec?.template?.metadata?.labels ?? {}) },
  };
}

export function summarizeStatefulSet(s: V1StatefulSet): WorkloadSummary {
  return {
    kind: 'StatefulSet',
    name: s.metadata?.name ?? '',
    desired: s.spec?.replicas ?? 1,
    ready: s.status?.readyReplicas ?? 0,
    labels: { ...(s.spec?.template?.metadata?.labels ?? {}) },
  };
}

export function summarizeService(s: V1Service): ServiceSummary {
  const ingress = (s.status?.loadBalancer?.ingress ?? []).flatMap((i) => [i.ip, i.hostname].filter((v): v is string => !!v));
  return { name: s.metadata?.name ?? '', type: s.spec?.type ?? 'ClusterIP', ingress };
}

/** What the watcher needs of each collection, whatever its kind. */
interface Watched {
  readonly answered: boolean;
  readonly forbidden: string | undefined;
  start(): void;
  stop(): Promise<void>;
  retryNow(): void;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/**
 * Watches one namespace of a hosting context (control-plane workloads, component pods, the
 * API server Service, certificate Secrets) or of a workload context (the agent Deployment and
 * its pods), and publishes one `fleetNamespace` summary.
 */
class FleetNamespaceWatcher implements ContextWatcher {
  private readonly namespace: WatchedCollection<V1Namespace, true>;
  private readonly deployments: WatchedCollection<V1Deployment, WorkloadSummary>;
  private readonly statefulSets: WatchedCollection<V1StatefulSet, WorkloadSummary> | undefined;
  private readonly pods: WatchedCollection<V1Pod, ComponentPod>;
  private readonly services: WatchedCollection<V1Service, ServiceSummary> | undefined;
  private readonly secrets: WatchedCollection<V1Secret, CertSummary[]> | undefined;
  private readonly publish = coalesce(() => this.publishNow());
  private stopped = true;

  constructor(
    private readonly env: WatcherEnv,
    private readonly ns: string,
    role: FleetNamespaceRole,
  ) {
    const { kc, requestTimeoutMs } = env;
    const core = lazyClient<CoreV1Api>(kc, async () => (await import('../transport/api-classes.js')).CoreV1Api, requestTimeoutMs);
    const apps = lazyClient<AppsV1Api>(kc, async () => (await import('../transport/api-classes.js')).AppsV1Api, requestTimeoutMs);
    const scope = ` in namespace ${ns}`;
    const common = {
      kc,
      listOnly: env.listOnly,
      scope,
      onChange: () => this.changed(),
      onDisconnect: () => {
        if (!this.stopped) env.onDisconnect();
      },
    };
    const enc = encodeURIComponent(ns);
    this.namespace = new WatchedCollection<V1Namespace, true>({
      ...common,
      scope: '',
      resource: 'namespaces',
      path: '/api/v1/namespaces',
      queryParams: { fieldSelector: `metadata.name=${ns}` },
      list: () => core.listNamespace({ fieldSelector: `metadata.name=${ns}` }),
      summarize: () => true,
    });
    this.deployments = new WatchedCollection({
      ...common,
      resource: 'deployments',
      path: `/apis/apps/v1/namespaces/${enc}/deployments`,
      list: () => apps.listNamespacedDeployment({ namespace: ns }),
      summarize: summarizeDeployment,
    });
    this.pods = new WatchedCollection({
      ...common,
      resource: 'pods',
      path: `/api/v1/namespaces/${enc}/pods`,
      list: () => core.listNamespacedPod({ namespace: ns }),
      summarize: summarizeComponentPod,
    });
    if (role === 'hosting') {
      this.statefulSets = new WatchedCollection({
        ...common,
        resource: 'statefulsets',
        path: `/apis/apps/v1/namespaces/${enc}/statefulsets`,
        list: () => apps.listNamespacedStatefulSet({ namespace: ns }),
        summarize: summarizeStatefulSet,
      });
      this.services = new WatchedCollection({
        ...common,
        resource: 'services',
        path: `/api/v1/namespaces/${enc}/services`,
        list: () => core.listNamespacedService({ namespace: ns }),
        summarize: summarizeService,
      });
      this.secrets = new WatchedCollection<V1Secret, CertSummary[]>({
        ...common,
        resource: 'secrets',
        path: `/api/v1/namespaces/${enc}/secrets`,
        list: () => core.listNamespacedSecret({ namespace: ns }),
        summarize: (s) => {
          const certs = certsFromSecret(s);
          return certs.length ? certs : undefined;
        },
      });
    }
  }

  /** Collections whose denial makes the namespace unknown (`forbidden`); Secrets are reported apart. */
  private main(): Watched[] {
    const list: (Watched | undefined)[] = [this.namespace, this.deployments, this.statefulSets, this.pods, this.services];
    return list.filter((c): c is Watched => c !== undefined);
  }

  private all(): Watched[] {
    return this.secrets ? [...this.main(), this.secrets] : this.main();
  }

  private changed(): void {
    if (!this.stopped) this.publish.request();
  }

  /** The summary as it stands: lists still loading leave `synced` false. */
  summary(): FleetNamespaceSummary {
    const forbidden = this.main()
      .map((c) => c.forbidden)
      .filter((f): f is string => f !== undefined);
    const workloads = [...this.deployments.values(), ...(this.statefulSets?.values() ?? [])].sort(
      (a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name),
    );
    const summary: FleetNamespaceSummary = {
      synced: this.all().every((c) => c.answered),
      namespace: this.ns,
      // Objects found in it prove it exists even when namespaces cannot be listed.
      exists:
        this.namespace.items.size > 0 ||
        (this.namespace.forbidden !== undefined && (this.deployments.items.size > 0 || this.pods.items.size > 0)),
      workloads,
      pods: this.pods.values().sort(byName),
      services: (this.services?.values() ?? []).sort(byName),
      certs: (this.secrets?.values() ?? [])
        .flat()
        .sort((a, b) => a.secret.localeCompare(b.secret) || a.key.localeCompare(b.key) || a.notAfter - b.notAfter),
    };
    if (forbidden.length) summary.forbidden = forbidden.join('; ');
    if (this.secrets?.forbidden) summary.secretsForbidden = this.secrets.forbidden;
    return summary;
  }

  private publishNow(): void {
    if (this.stopped) return;
    this.env.sink.setSlice(this.env.name, 'fleetNamespace', this.summary());
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    for (const c of this.all()) c.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.publish.cancel();
    await Promise.all(this.all().map((c) => c.stop()));
  }

  retryNow(): void {
    for (const c of this.all()) c.retryNow();
  }
}

/** The fleet namespace of a hosting or workload context: workloads, component pods, services, certificates. */
export function watchFleetNamespace(namespace: string, role: FleetNamespaceRole): WatcherFactory {
  return (env) => new FleetNamespaceWatcher(env, namespace, role);
}

export interface WorkloadSummary {
  kind: 'Deployment' | 'StatefulSet';
  name: string;
  desired: number;
  ready: number;
  /** Labels of its pod template (how components are recognised). */
  labels: Record<string, string>;
}

export interface ServiceSummary {
  name: string;
  type: string;
  /** LoadBalancer ingress IPs or hostnames assigned. */
  ingress: string[];
}

/** The fleet namespace in a hosting or workload context. */
export interface FleetNamespaceSummary extends Sync {
  namespace: string;
  exists: boolean;
  workloads: WorkloadSummary[];
  pods: ComponentPod[];
  services: ServiceSummary[];
  certs: CertSummary[];
  /** Set when Secrets cannot be read (certificates unknown). */
  secretsForbidden?: string;
}
