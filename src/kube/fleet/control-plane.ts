import type { Sync } from '../watch/sync.js';
import type { ApiextensionsV1Api, CustomObjectsApi, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { lazyClient } from '../transport/client.js';
import { WatchedCollection, coalesce } from '../watch/collection.js';
import type { ListResult } from '../watch/watch.js';
import type { ApiObject } from '../api/api-resources.js';
import { bytes, cpuMilli } from '../api/quantity.js';
import { PlacementWatch, type PlacementObjects, trimmed } from '../nova/placement-watch.js';
import { CLUSTERS as CLUSTER_KIND, POLICIES as POLICY_KIND } from '../nova/kinds.js';
import type { ContextWatcher, WatcherEnv, WatcherFactory } from '../watch/watcher.js';

/** The Nova CRDs by the names the API server knows them. */
export const NOVA_CRDS = {
  cluster: 'clusters.cluster.elotl.co',
  schedulePolicy: 'schedulepolicies.policy.elotl.co',
  scheduleGroup: 'schedulegroups.policy.elotl.co',
} as const;

/** The Cluster and SchedulePolicy collections as the custom-objects client names them (kinds.ts holds the kinds). */
const CLUSTERS = { group: CLUSTER_KIND.group, version: CLUSTER_KIND.version, plural: CLUSTER_KIND.resource };
const POLICIES = { group: POLICY_KIND.group, version: POLICY_KIND.version, plural: POLICY_KIND.resource };

interface Condition {
  type?: string;
  status?: string;
}

/** The parts of a Cluster object the summary reads. */
export interface ClusterObject {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  spec?: {
    name?: string;
    kubernetesversion?: string;
    kubernetescluster?: string;
    region?: string;
    zone?: string;
    provider?: string;
  };
  status?: {
    conditions?: Condition[];
    capacityResources?: Record<string, { cpu?: string | number; memory?: string | number }>;
    availableResources?: Record<string, { cpu?: string | number; memory?: string | number }>;
  };
}

/** A Cluster's row and the object as placement reads it. */
interface ClusterEntry {
  row: NovaCluster;
  raw: ApiObject;
}

/** CPU (millicores) and memory (bytes) summed over a Cluster's nodes: available of allocatable. */
function room(c: ClusterObject): Pick<NovaCluster, 'cpu' | 'memory'> {
  const capacity = c.status?.capacityResources;
  if (!capacity || typeof capacity !== 'object') return {};
  const available = c.status?.availableResources ?? {};
  const sum = (
    of: Record<string, { cpu?: string | number; memory?: string | number }>,
    read: (n: { cpu?: string | number; memory?: string | number }) => number,
  ) => Object.values(of).reduce((s, n) => s + read(n ?? {}), 0);
  return {
    cpu: { available: sum(available, (n) => cpuMilli(n.cpu)), allocatable: sum(capacity, (n) => cpuMilli(n.cpu)) },
    memory: { available: sum(available, (n) => bytes(n.memory)), allocatable: sum(capacity, (n) => bytes(n.memory)) },
  };
}

/** One row of `kubectl get clusters`: spec fields and the Ready/Idle/Standby condition statuses. */
export function summarizeCluster(c: ClusterObject): NovaCluster {
  const out: NovaCluster = { name: c.metadata?.name ?? c.spec?.name ?? '' };
  const spec = c.spec ?? {};
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);
  const set = <K extends keyof NovaCluster>(key: K, v: NovaCluster[K] | undefined) => {
    if (v !== undefined) out[key] = v;
  };
  set('k8sVersion', str(spec.kubernetesversion));
  set('k8sCluster', str(spec.kubernetescluster));
  set('region', str(spec.region));
  set('zone', str(spec.zone));
  const conditions = Array.isArray(c.status?.conditions) ? c.status.conditions : [];
  const cond = (type: string) => str(conditions.find((x) => x?.type === type)?.status);
  set('ready', cond('Ready'));
  set('idle', cond('Idle'));
  set('standby', cond('Standby'));
  return { ...out, ...room(c) };
}

/**
 * Watches the control plane's own API: which Nova CRDs exist (names only), and, while they
 * exist, the Cluster objects and the SchedulePolicies. The dependent watches start when
 * their CRD appears and stop when it goes, so a missing CRD is never polled. When CRDs
 * cannot be listed, the dependent collections are watched anyway and a 404 means "absent".
 */
class ControlPlaneWatcher implements ContextWatcher {
  private readonly crds: WatchedCollection<V1CustomResourceDefinition, string>;
  private clusters: WatchedCollection<ClusterObject, ClusterEntry> | undefined;
  private policies: WatchedCollection<ApiObject, ApiObject> | undefined;
  /** The workloads, namespaces and refusals placement is counted from, watched with the Clusters. */
  private placement: PlacementWatch | undefined;
  private readonly custom: CustomObjectsApi;
  private readonly stopping = new Set<Promise<void>>();
  private readonly publish = coalesce(() => this.publishNow());
  private stopped = true;

  constructor(private readonly env: WatcherEnv) {
    const ext = lazyClient<ApiextensionsV1Api>(
      env.kc,
      async () => (await import('../transport/api-classes.js')).ApiextensionsV1Api,
      env.requestTimeoutMs,
    );
    this.custom = lazyClient<CustomObjectsApi>(
      env.kc,
      async () => (await import('../transport/api-classes.js')).CustomObjectsApi,
      env.requestTimeoutMs,
    );
    this.crds = new WatchedCollection<V1CustomResourceDefinition, string>({
      kc: env.kc,
      listOnly: env.listOnly,
      resource: 'customresourcedefinitions',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      list: () => ext.listCustomResourceDefinition(),
      summarize: (crd) => crd.metadata?.name,
      onChange: () => this.changed(),
      onDisconnect: () => this.disconnected(),
    });
  }

  private disconnected(): void {
    if (!this.stopped) this.env.onDisconnect();
  }

  private changed(): void {
    if (this.stopped) return;
    this.reconcile();
    this.publish.request();
  }

  private hasCrd(name: string): boolean {
    for (const n of this.crds.values()) if (n === name) return true;
    return false;
  }

  /** Which dependent watches should run: those whose CRD exists, or all when CRDs cannot be listed. */
  private wanted(): { clusters: boolean; policies: boolean } {
    if (this.crds.synced) return { clusters: this.hasCrd(NOVA_CRDS.cluster), policies: this.hasCrd(NOVA_CRDS.schedulePolicy) };
    if (this.crds.forbidden !== undefined) return { clusters: true, policies: true };
    // Not answered yet: keep whatever runs.
    return { clusters: this.clusters !== undefined, policies: this.policies !== undefined };
  }

  private retire(c: { stop(): Promise<void> }): void {
    const p = c.stop().finally(() => this.stopping.delete(p));
    this.stopping.add(p);
  }

  private reconcile(): void {
    const want = this.wanted();
    if (want.clusters && !this.clusters) {
      this.clusters = new WatchedCollection<ClusterObject, ClusterEntry>({
        kc: this.env.kc,
        listOnly: this.env.listOnly,
        resource: 'clusters.cluster.elotl.co',
        path: `/apis/${CLUSTERS.group}/${CLUSTERS.version}/${CLUSTERS.plural}`,
        list: () => this.custom.listClusterCustomObject({ ...CLUSTERS }) as Promise<ListResult<ClusterObject>>,
        summarize: (c) => ({ row: summarizeCluster(c), raw: trimmed(CLUSTER_KIND, c as ApiObject) }),
        onChange: () => this.changed(),
        onDisconnect: () => this.disconnected(),
      });
      this.clusters.start();
      this.placement = new PlacementWatch({
        kc: this.env.kc,
        requestTimeoutMs: this.env.requestTimeoutMs,
        listOnly: this.env.listOnly,
        onChange: () => this.changed(),
        onDisconnect: () => this.disconnected(),
      });
      this.placement.start();
    } else if (!want.clusters && this.clusters) {
      this.retire(this.clusters);
      this.clusters = undefined;
      if (this.placement) this.retire(this.placement);
      this.placement = undefined;
    }
    if (want.policies && !this.policies) {
      this.policies = new WatchedCollection<ApiObject, ApiObject>({
        kc: this.env.kc,
        listOnly: this.env.listOnly,
        resource: 'schedulepolicies.policy.elotl.co',
        path: `/apis/${POLICIES.group}/${POLICIES.version}/${POLICIES.plural}`,
        list: () =>
          this.custom.listCustomObjectForAllNamespaces({
            group: POLICIES.group,
            version: POLICIES.version,
            resourcePlural: POLICIES.plural,
          }) as Promise<ListResult<ApiObject>>,
        summarize: (p) => trimmed(POLICY_KIND, p),
        onChange: () => this.changed(),
        onDisconnect: () => this.disconnected(),
      });
      this.policies.start();
    } else if (!want.policies && this.policies) {
      this.retire(this.policies);
      this.policies = undefined;
    }
  }

  summary(): ControlPlaneSummary {
    const inferred = !this.crds.synced && this.crds.forbidden !== undefined;
    // With the CRD list: a dependent list still waiting (e.g. a CRD just created) is not an answer yet.
    // Without it: a 404 answers "not installed".
    const answered = (c: { synced: boolean; forbidden: string | undefined; notFound: boolean } | undefined) =>
      c === undefined || c.synced || c.forbidden !== undefined || (inferred && c.notFound);
    const forbidden = [this.crds.forbidden, this.clusters?.forbidden, this.policies?.forbidden].filter((f): f is string => f !== undefined);
    const entries = (this.clusters?.values() ?? []).sort((a, b) => a.row.name.localeCompare(b.row.name));
    const summary: ControlPlaneSummary = {
      synced: this.crds.answered && answered(this.clusters) && answered(this.policies) && (this.placement?.answered ?? true),
      crds: inferred
        ? { cluster: this.clusters?.synced === true, schedulePolicy: this.policies?.synced === true, scheduleGroup: false }
        : {
            cluster: this.hasCrd(NOVA_CRDS.cluster),
            schedulePolicy: this.hasCrd(NOVA_CRDS.schedulePolicy),
            scheduleGroup: this.hasCrd(NOVA_CRDS.scheduleGroup),
          },
      clusters: entries.map((e) => e.row),
      schedulePolicies: this.policies?.items.size ?? 0,
    };
    if (this.placement)
      summary.placement = { ...this.placement.summary(), clusters: entries.map((e) => e.raw), policies: this.policies?.values() ?? [] };
    if (forbidden.length) summary.forbidden = forbidden.join('; ');
    return summary;
  }

  private publishNow(): void {
    if (this.stopped) return;
    this.env.sink.setSlice(this.env.name, 'controlPlane', this.summary());
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.crds.start();
    this.reconcile();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.publish.cancel();
    const running = [this.crds, this.clusters, this.policies, this.placement].filter((c) => c !== undefined);
    this.clusters = undefined;
    this.policies = undefined;
    this.placement = undefined;
    await Promise.all([...running.map((c) => c.stop()), ...this.stopping]);
  }

  retryNow(): void {
    this.crds.retryNow();
    this.clusters?.retryNow();
    this.policies?.retryNow();
    this.placement?.retryNow();
  }
}

/** The control plane's own API: Nova CRDs, Cluster objects, SchedulePolicies. */
export const watchControlPlane: WatcherFactory = (env) => new ControlPlaneWatcher(env);

export interface NovaCluster {
  name: string;
  k8sVersion?: string;
  k8sCluster?: string;
  region?: string;
  zone?: string;
  /** Condition statuses as printed: "True", "False", "Unknown" or undefined. */
  ready?: string;
  idle?: string;
  standby?: string;
  /** Summed over the Cluster's nodes, from its status (absent when its agent reports none). */
  cpu?: { available: number; allocatable: number };
  memory?: { available: number; allocatable: number };
}

/** What the control plane's own API serves: the Nova CRDs and their objects. */
export interface ControlPlaneSummary extends Sync {
  crds: { cluster: boolean; schedulePolicy: boolean; scheduleGroup: boolean };
  clusters: NovaCluster[];
  schedulePolicies: number;
  /** What placement is counted from (with the Cluster CRD): the Clusters and policies as objects too. */
  placement?: PlacementObjects & { clusters: ApiObject[]; policies: ApiObject[] };
}
