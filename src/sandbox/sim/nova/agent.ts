import dns from 'node:dns';
import fs from 'node:fs';
import type net from 'node:net';
import { CustomObjectsApi, KubeConfig, VersionApi } from '@kubernetes/client-node';
import { describeError, makeClient, statusCode } from '../../kube/transport/client.js';
import { ZONE_LABEL } from '../../kube/nodes/nodes.js';
import { ContainerLog, podLogDir } from './container-log.js';
import { RealContainer, rfc3339 } from './container.js';
import type { HostnameDirectory } from './context.js';
import { REGION_LABEL } from './node-status.js';
import { flagValue } from './processes.js';
import { MountError } from './volumes.js';

const AGENT_HEARTBEAT_MS = 10_000;

/** The Cluster objects agents register (cluster.elotl.co/v1alpha1, cluster-scoped). */
export const CLUSTER_RESOURCE = { group: 'cluster.elotl.co', version: 'v1alpha1', plural: 'clusters' } as const;

/** A lookup that answers the sandbox's load-balancer hostnames before asking the resolver. */
export function sandboxLookup(directory: HostnameDirectory): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    const ip = directory.lookup(hostname);
    if (!ip) return dns.lookup(hostname, options, callback as never);
    if (options?.all) callback(null, [{ address: ip, family: 4 }]);
    else callback(null, ip, 4);
  }) as unknown as net.LookupFunction;
}

/** The agent's connection: its kubeconfig, with sandbox hostnames resolvable. */
function agentConfig(text: string, directory: HostnameDirectory): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  if (!kc.getCurrentCluster()) throw new Error('the kubeconfig has no current cluster');
  const lookup = sandboxLookup(directory);
  const k = kc as unknown as { createDispatcherOptions: (c: unknown, a: unknown) => { type: string; connect?: Record<string, unknown> } };
  const original = k.createDispatcherOptions.bind(kc);
  k.createDispatcherOptions = (c, a) => {
    const opts = original(c, a);
    if (opts.type === 'agent' && opts.connect) opts.connect = { ...opts.connect, lookup };
    return opts;
  };
  return kc;
}

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
  metadata?: { name?: string; resourceVersion?: string };
  spec?: Record<string, unknown>;
  status?: { conditions?: ClusterCondition[]; lastUpdateTime?: string };
}

/** The conditions a running agent reports (transition times kept while a status does not change). */
export function agentConditions(previous: ClusterCondition[] | undefined, now: string): ClusterCondition[] {
  const wanted: [string, string, string, string][] = [
    ['Ready', 'True', 'AgentReady', 'nova-agent is running and reporting'],
    ['Idle', 'True', 'ClusterIdle', 'no workloads scheduled by Nova'],
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

/**
 * The nova-agent, played in process: with the credentials of the kubeconfig its `--kubeconfig`
 * arg names (materialized from its Secret volume) it creates or updates the Cluster object
 * `--cluster-name` in the control plane and keeps its Ready condition fresh every 10 s, as the
 * agent does. Ready while that works; otherwise not Ready, with the error in a Warning event.
 */
export class AgentContainer extends RealContainer {
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private running: Promise<void> | undefined;
  private kc: KubeConfig | undefined;
  private clusterName = '';
  private server = '';
  private facts: { version: string; region: string; zone: string } | undefined;
  private lastError = '';
  private registered = false;
  private announced = '';
  private log: ContainerLog | undefined;

  /** A line of the agent's own container log (see container-log.ts). */
  private say(text: string, stream: 'stdout' | 'stderr' = 'stdout'): void {
    const t = rfc3339();
    this.log?.write(stream, `${t} ${stream === 'stderr' ? 'ERROR' : 'INFO'} ${text}`);
  }

  start(): void {
    const p = this.pod.spec.metadata;
    this.log = new ContainerLog(
      podLogDir(this.pod.deps.runtime.dir, p?.namespace ?? '', p?.name ?? '', this.pod.uid),
      this.spec.name,
      this.restartCount,
    );
    this.say(`starting nova-agent (image ${this.spec.image ?? 'unknown'})`);
    this.state = 'running';
    this.everStarted = true;
    this.startedAt = new Date();
    this.pod.changed();
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.tick().finally(() => {
        this.running = undefined;
        this.schedule(AGENT_HEARTBEAT_MS);
      });
    }, ms);
  }

  private async tick(): Promise<void> {
    let ok = false;
    let message = '';
    try {
      if (!this.kc) await this.load();
      await this.register();
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
    if (!ok && message !== this.lastError) {
      this.pod.log(`nova-agent: ${message}`);
      this.say(message, 'stderr');
    }
    if (ok && !this.registered)
      this.say(`registered cluster "${this.clusterName}" with the Nova control plane; heartbeat every ${AGENT_HEARTBEAT_MS / 1000}s`);
    else if (ok && this.lastError) this.say(`cluster "${this.clusterName}" registered again after: ${this.lastError}`);
    if (ok) this.registered = true;
    if (!ok) void this.pod.event(this.spec.name, 'Warning', 'ClusterRegistrationFailed', message, 'nova-agent');
    if (ok && this.lastError) this.pod.log(`nova-agent: cluster "${this.clusterName}" registered`);
    this.lastError = message;
    if (ok !== this.ready) {
      this.ready = ok;
      this.pod.changed();
    }
  }

  private async load(): Promise<void> {
    const { expand } = await this.pod.prepare(this.spec);
    const argv = [...(this.spec.command ?? []).slice(1), ...(this.spec.args ?? [])].map(expand);
    this.clusterName = flagValue(argv, 'cluster-name') ?? '';
    const file = flagValue(argv, 'kubeconfig');
    if (!this.clusterName) throw new Error('no --cluster-name argument');
    if (!file) throw new Error('no --kubeconfig argument');
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      throw new Error(`cannot read the kubeconfig ${file}`);
    }
    const kc = agentConfig(text, this.pod.deps.runtime.hostnames);
    this.server = kc.getCurrentCluster()?.server ?? '';
    if (this.announced !== `${this.clusterName} ${this.server}`) {
      this.announced = `${this.clusterName} ${this.server}`;
      this.say(`cluster name: ${this.clusterName}`);
      this.say(`control plane server: ${this.server || '(none)'}`);
    }
    if (!this.facts) this.facts = await this.clusterFacts();
    this.kc = kc;
  }

  /** What the agent reports about the cluster it runs in: version, region and zone of its node. */
  private async clusterFacts(): Promise<{ version: string; region: string; zone: string }> {
    const kc = this.pod.deps.ctx.kc;
    const version = (await makeClient(kc, VersionApi).getCode()).gitVersion;
    const nodeName = this.pod.spec.spec?.nodeName ?? '';
    const labels = nodeName ? ((await this.pod.deps.core.readNode({ name: nodeName })).metadata?.labels ?? {}) : {};
    return { version, region: labels[REGION_LABEL] ?? '', zone: labels[ZONE_LABEL] ?? '' };
  }

  private async register(): Promise<void> {
    const api = makeClient(this.kc!, CustomObjectsApi);
    const name = this.clusterName;
    const spec = {
      name,
      kubernetesversion: this.facts?.version ?? '',
      kubernetescluster: name,
      region: this.facts?.region ?? '',
      zone: this.facts?.zone ?? '',
    };
    let obj: ClusterObj | undefined;
    try {
      obj = (await api.getClusterCustomObject({ ...CLUSTER_RESOURCE, name })) as ClusterObj;
    } catch (err) {
      if (statusCode(err) !== 404) throw err;
    }
    if (!obj) {
      obj = (await api.createClusterCustomObject({
        ...CLUSTER_RESOURCE,
        body: { apiVersion: `${CLUSTER_RESOURCE.group}/${CLUSTER_RESOURCE.version}`, kind: 'Cluster', metadata: { name }, spec },
      })) as ClusterObj;
      this.pod.log(`nova-agent: created Cluster ${name}`);
    } else if (Object.entries(spec).some(([k, v]) => obj!.spec?.[k] !== v)) {
      obj = (await api.replaceClusterCustomObject({
        ...CLUSTER_RESOURCE,
        name,
        body: { ...obj, spec: { ...obj.spec, ...spec } },
      })) as ClusterObj;
    }
    const now = rfc3339();
    const body = { ...obj, status: { ...obj.status, lastUpdateTime: now, conditions: agentConditions(obj.status?.conditions, now) } };
    try {
      await api.replaceClusterCustomObjectStatus({ ...CLUSTER_RESOURCE, name, body });
    } catch (err) {
      // A definition without the status subresource: the status is part of the object.
      if (statusCode(err) !== 404) throw err;
      await api.replaceClusterCustomObject({ ...CLUSTER_RESOURCE, name, body });
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.say('received SIGTERM; stopping');
    this.log?.close();
    this.state = 'terminated';
    this.lastTerminated = {
      exitCode: 0,
      reason: 'Completed',
      startedAt: this.startedAt,
      finishedAt: new Date(),
      containerID: this.containerID,
    };
  }
}
