/**
 * The nova-agent, played in process: with the credentials of the kubeconfig its `--kubeconfig`
 * arg names (materialized from its Secret volume) it creates or updates the Cluster object
 * `--cluster-name` in the control plane — labels as Nova sets them, Ready/Idle/Standby
 * conditions, per-node room and taints (room.ts), fresh every 10 s — and every 2 s keeps the
 * copies of the objects placed on its cluster (sync.ts). Ready while that works; otherwise not
 * Ready, with the error in a Warning event.
 */
import { CustomObjectsApi, type KubeConfig, VersionApi } from '@kubernetes/client-node';
import { CLUSTERS } from '../../../kube/nova/kinds.js';
import { ZONE_LABEL } from '../../../kube/nodes/nodes.js';
import { describeError, makeClient, statusCode } from '../../../kube/transport/client.js';
import { NAME_LABEL } from '../../../placement/semantics.js';
import { REGION_LABEL } from '../node-status.js';
import { flagValue } from '../processes.js';
import { MountError } from '../volumes.js';
import { flagKubeConfig } from './connect.js';
import { InProcessContainer } from './in-process.js';
import { type ClusterRoom, readRoom } from './room.js';
import { CopySync } from './sync.js';

const HEARTBEAT_MS = 10_000;
const CLUSTER_RESOURCE = { group: CLUSTERS.group, version: CLUSTERS.version, plural: CLUSTERS.resource } as const;

interface ClusterCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastHeartbeatTime: string;
  lastTransitionTime: string;
}

interface ClusterObj {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; resourceVersion?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: { conditions?: ClusterCondition[]; lastUpdateTime?: string };
}

/** The conditions a running agent reports (transition times kept while a status does not change). */
export function agentConditions(previous: ClusterCondition[] | undefined, now: string, placed = 0): ClusterCondition[] {
  const wanted: [string, string, string, string][] = [
    ['Ready', 'True', 'AgentReady', 'nova-agent is running and reporting'],
    placed
      ? ['Idle', 'False', 'ClusterBusy', `${placed} object(s) scheduled by Nova`]
      : ['Idle', 'True', 'ClusterIdle', 'no workloads scheduled by Nova'],
    ['Standby', 'False', 'ClusterActive', 'cluster is not in standby'],
  ];
  return wanted.map(([type, status, reason, message]) => {
    const old = previous?.find((c) => c.type === type);
    return {
      type,
      status,
      reason,
      message,
      lastHeartbeatTime: now,
      lastTransitionTime: old?.status === status ? old.lastTransitionTime : now,
    };
  });
}

export class AgentContainer extends InProcessContainer {
  protected readonly periodMs = 2_000;
  protected readonly what = 'nova-agent';
  private kc: KubeConfig | undefined;
  private sync: CopySync | undefined;
  private clusterName = '';
  private server = '';
  private facts: { version: string; region: string; zone: string } | undefined;
  private lastError = '';
  private registered = false;
  private reportedAt = 0;
  private placed = -1;
  private syncError = '';

  protected async tick(): Promise<void> {
    let ok = false;
    let message = '';
    try {
      if (!this.kc) await this.load();
      // Registered first: a control plane that refuses the agent says so as before any copy.
      if (Date.now() - this.reportedAt >= HEARTBEAT_MS) await this.register(Math.max(this.placed, 0));
      const placed = await this.syncCopies();
      if (placed !== this.placed) await this.register(Math.max(placed, 0));
      ok = true;
    } catch (err) {
      // The next attempt reads the kubeconfig (its Secret) again.
      this.kc = undefined;
      const why = err instanceof MountError ? err.message : describeError(err);
      message = this.clusterName
        ? `cannot register cluster "${this.clusterName}" with the Nova control plane${this.server ? ` at ${this.server}` : ''}: ${why}`
        : `cannot start nova-agent: ${why}`;
    }
    if (this.stopping) return;
    this.tellOutcome(ok, message);
    this.setReady(ok);
  }

  /**
   * The copies' pass; resolves with the objects placed here (the last count when it failed). A
   * failing pass (no right to read the control plane's workloads) is said once and does not stop
   * the agent from reporting its cluster.
   */
  private async syncCopies(): Promise<number> {
    try {
      const placed = await this.sync!.pass();
      if (this.syncError) this.say('copies in sync again');
      this.syncError = '';
      return placed;
    } catch (err) {
      const why = describeError(err);
      if (why !== this.syncError) {
        this.say(`cannot keep the copies of the workloads placed on cluster "${this.clusterName}": ${why}`, 'stderr');
        void this.pod.event(this.spec.name, 'Warning', 'CopiesNotSynced', why, 'nova-agent');
      }
      this.syncError = why;
      return this.placed;
    }
  }

  private tellOutcome(ok: boolean, message: string): void {
    if (!ok && message !== this.lastError) {
      this.pod.log(`nova-agent: ${message}`);
      this.say(message, 'stderr');
    }
    if (ok && !this.registered)
      this.say(`registered cluster "${this.clusterName}" with the Nova control plane; heartbeat every ${HEARTBEAT_MS / 1000}s`);
    else if (ok && this.lastError) this.say(`cluster "${this.clusterName}" registered again after: ${this.lastError}`);
    if (ok) this.registered = true;
    if (!ok) void this.pod.event(this.spec.name, 'Warning', 'ClusterRegistrationFailed', message, 'nova-agent');
    if (ok && this.lastError) this.pod.log(`nova-agent: cluster "${this.clusterName}" registered`);
    this.lastError = message;
  }

  private async load(): Promise<void> {
    const { argv, kc, server } = await flagKubeConfig(this.pod, this.spec);
    this.clusterName = flagValue(argv, 'cluster-name') ?? '';
    if (!this.clusterName) throw new Error('no --cluster-name argument');
    if (this.server !== server) this.say(`cluster name: ${this.clusterName}; control plane server: ${server || '(none)'}`);
    this.server = server;
    if (!this.facts) this.facts = await this.clusterFacts();
    this.sync = new CopySync(kc, this.pod.deps.ctx.kc, this.clusterName, this.pod.spec.metadata?.namespace ?? '');
    this.kc = kc;
  }

  /** What the agent reports about the cluster it runs in: version, region and zone of its node. */
  private async clusterFacts(): Promise<{ version: string; region: string; zone: string }> {
    const version = (await makeClient(this.pod.deps.ctx.kc, VersionApi).getCode()).gitVersion;
    const nodeName = this.pod.spec.spec?.nodeName ?? '';
    const labels = nodeName ? ((await this.pod.deps.core.readNode({ name: nodeName })).metadata?.labels ?? {}) : {};
    return { version, region: labels[REGION_LABEL] ?? '', zone: labels[ZONE_LABEL] ?? '' };
  }

  /** The labels Nova puts on a Cluster (the operator's own are kept). */
  private labels(): Record<string, string> {
    const f = this.facts;
    return {
      [NAME_LABEL]: this.clusterName,
      'nova.elotl.co/cluster.provider': 'sandbox',
      'nova.elotl.co/cluster.region': f?.region ?? '',
      'nova.elotl.co/cluster.zone': f?.zone ?? '',
      'nova.elotl.co/cluster.version': (f?.version ?? '').replace(/\+.*$/, ''),
      'nova.elotl.co/cluster.novacreated': 'false',
    };
  }

  private async register(placed: number): Promise<void> {
    const api = makeClient(this.kc!, CustomObjectsApi);
    const name = this.clusterName;
    const f = this.facts;
    const spec = {
      name,
      kubernetesversion: f?.version ?? '',
      kubernetescluster: name,
      provider: 'sandbox',
      region: f?.region ?? '',
      zone: f?.zone ?? '',
      novacreated: false,
    };
    const labels = this.labels();
    let obj: ClusterObj | undefined;
    try {
      obj = (await api.getClusterCustomObject({ ...CLUSTER_RESOURCE, name })) as ClusterObj;
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
    if (!obj) {
      const body = {
        apiVersion: `${CLUSTER_RESOURCE.group}/${CLUSTER_RESOURCE.version}`,
        kind: 'Cluster',
        metadata: { name, labels },
        spec,
      };
      obj = (await api.createClusterCustomObject({ ...CLUSTER_RESOURCE, body })) as ClusterObj;
      this.pod.log(`nova-agent: created Cluster ${name}`);
    } else if (
      Object.entries(spec).some(([k, v]) => obj!.spec?.[k] !== v) ||
      Object.entries(labels).some(([k, v]) => obj!.metadata?.labels?.[k] !== v)
    ) {
      const body = {
        ...obj,
        metadata: { ...obj.metadata, labels: { ...obj.metadata?.labels, ...labels } },
        spec: { ...obj.spec, ...spec },
      };
      obj = (await api.replaceClusterCustomObject({ ...CLUSTER_RESOURCE, name, body })) as ClusterObj;
    }
    const room: ClusterRoom = await readRoom(this.pod.deps.core);
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const status = {
      ...obj.status,
      ...room,
      autoscaled: false,
      lastUpdateTime: now,
      conditions: agentConditions(obj.status?.conditions, now, placed),
    };
    const body = { ...obj, status };
    try {
      await api.replaceClusterCustomObjectStatus({ ...CLUSTER_RESOURCE, name, body });
    } catch (err) {
      // A definition without the status subresource: the status is part of the object.
      if (statusCode(err) !== 404) throw err;
      await api.replaceClusterCustomObject({ ...CLUSTER_RESOURCE, name, body });
    }
    this.reportedAt = Date.now();
    this.placed = placed;
  }
}
