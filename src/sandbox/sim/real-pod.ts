import fs from 'node:fs';
import path from 'node:path';
import type { V1Container, V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { describeError } from '../../kube/transport/client.js';
import { AgentContainer } from './nova/agent.js';
import { SchedulerContainer } from './nova/scheduler.js';
import type { PodHandle, RealContainer, RealPodDeps } from './container.js';
import { isNotFound } from './context.js';
import { BinaryLauncher } from './binary-launch.js';
import { FleetdeckLauncher } from './fleetdeck-launch.js';
import { ProcessContainer, type Prepared } from './process-container.js';
import { containerEnv, containerKind, expandVars, rewriteMountPaths } from './processes.js';
import { containerMounts, materializeVolumes } from './volumes.js';

const podKey = (pod: V1Pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

/** True when a pod has a container the sandbox runs for real (or the in-process agent). */
export function runsForReal(pod: V1Pod): boolean {
  return (pod.spec?.containers ?? []).some((c) => containerKind(c) !== undefined);
}

/** The ports a pod's processes will listen on (declared, or the binaries' defaults). */
export function realPorts(pod: V1Pod): number[] {
  return (pod.spec?.containers ?? []).flatMap((c) => {
    const kind = containerKind(c);
    if (!kind || kind === 'nova-agent' || kind === 'nova-scheduler') return [];
    const declared = (c.ports ?? []).map((p) => p.containerPort);
    if (declared.length > 0 || kind === 'fleetdeck') return declared;
    return kind === 'etcd' ? [2379, 2380] : [6443];
  });
}

/**
 * One pod whose containers run for real: etcd and kube-apiserver images as the test bed's
 * binaries, the fleetdeck image as the local bundle, each in its own mount namespace (see
 * ProcessContainer), the nova-agent and nova-scheduler in process (see nova/); other containers of the
 * pod stay simulated. Owns the pod's directory,
 * its loopback address and its entry in the cluster network.
 */
export class RealPod implements PodHandle {
  readonly uid: string;
  readonly key: string;
  readonly dir: string;
  private readonly containers = new Map<string, RealContainer>();
  private pod: V1Pod;
  private stopped = false;
  private lastEvents = new Map<string, { text: string; at: number }>();
  /** Bumped on every change of what the pod's status reports. */
  version = 0;

  constructor(
    pod: V1Pod,
    readonly ip: string,
    readonly deps: RealPodDeps,
  ) {
    this.pod = pod;
    this.uid = pod.metadata?.uid ?? '';
    this.key = podKey(pod);
    this.dir = path.join(deps.runtime.dir, 'pods', `${pod.metadata?.namespace ?? ''}_${pod.metadata?.name ?? ''}_${this.uid.slice(0, 8)}`);
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  get spec(): V1Pod {
    return this.pod;
  }

  start(): void {
    for (const c of this.pod.spec?.containers ?? []) {
      const kind = containerKind(c);
      if (!kind) continue;
      const rc =
        kind === 'nova-agent'
          ? new AgentContainer(this, c)
          : kind === 'nova-scheduler'
            ? new SchedulerContainer(this, c)
            : new ProcessContainer(this, c, kind === 'fleetdeck' ? new FleetdeckLauncher(this, c) : new BinaryLauncher(this, c, kind));
      this.containers.set(c.name, rc);
    }
    this.publish();
    for (const c of this.containers.values()) c.start();
  }

  /** A newer version of the pod object (labels may have changed). */
  update(pod: V1Pod): void {
    if (pod.metadata?.uid !== this.uid) return;
    this.pod = pod;
    this.publish();
  }

  changed(): void {
    if (this.stopped) return;
    this.version++;
    this.publish();
    this.deps.onChange();
  }

  isReal(c: V1Container): boolean {
    return this.containers.has(c.name);
  }

  status(c: V1Container): V1ContainerStatus | undefined {
    return this.containers.get(c.name)?.status();
  }

  /** Pending until a real container started once; Succeeded/Failed when every one ended for good. */
  phase(): 'Pending' | 'Running' | 'Succeeded' | 'Failed' {
    const all = [...this.containers.values()];
    if (all.length > 0 && all.every((c) => c.state === 'terminated')) {
      return all.every((c) => c.lastTerminated?.exitCode === 0) ? 'Succeeded' : 'Failed';
    }
    return all.some((c) => c.everStarted) ? 'Running' : 'Pending';
  }

  ready(): boolean {
    return [...this.containers.values()].every((c) => c.ready);
  }

  /** Stops every container (SIGTERM, then SIGKILL after `graceMs`), frees the address and the directory. */
  async stop(graceMs: number): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    // Out of Services and load balancers first, as a terminating pod leaves its Endpoints.
    this.deps.network.removePod(this.uid);
    await Promise.allSettled([...this.containers.values()].map((c) => c.stop(graceMs)));
    this.deps.network.releaseAddress(this.ip);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  private publish(): void {
    if (this.stopped) return;
    const spec = this.pod.spec;
    this.deps.network.setPod({
      uid: this.uid,
      namespace: this.pod.metadata?.namespace ?? '',
      name: this.pod.metadata?.name ?? '',
      labels: this.pod.metadata?.labels ?? {},
      hostname: spec?.hostname,
      subdomain: spec?.subdomain,
      ip: this.ip,
      ready: this.ready(),
      ports: (spec?.containers ?? []).flatMap((c) => c.ports ?? []),
    });
  }

  // --- what containers use ---

  /** A fieldRef's value as the kubelet resolves it; status.podIP is the pod's loopback address. */
  field(fieldPath: string): string | undefined {
    const p = this.pod;
    const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
    if (m) return (m[1] === 'labels' ? p.metadata?.labels : p.metadata?.annotations)?.[m[2]!] ?? '';
    switch (fieldPath) {
      case 'metadata.name':
        return p.metadata?.name ?? '';
      case 'metadata.namespace':
        return p.metadata?.namespace ?? '';
      case 'metadata.uid':
        return this.uid;
      case 'spec.nodeName':
        return p.spec?.nodeName ?? '';
      case 'spec.serviceAccountName':
        return p.spec?.serviceAccountName ?? '';
      case 'status.podIP':
      case 'status.podIPs':
        return this.ip;
      case 'status.hostIP':
        return p.status?.hostIP ?? '';
      default:
        return undefined;
    }
  }

  /** Volumes, environment and mount mapping of one container, read afresh from the API. */
  async prepare(c: V1Container): Promise<Prepared> {
    const namespace = this.pod.metadata?.namespace ?? '';
    const volumes = await materializeVolumes({
      core: this.deps.core,
      pod: this.pod,
      podDir: this.dir,
      clusterDir: this.deps.runtime.dir,
      field: (f) => this.field(f),
    });
    const decode = (data: Record<string, string> | undefined) =>
      data && Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
    const env = await containerEnv(c, {
      field: (f) => this.field(f),
      secret: async (name) =>
        this.deps.core.readNamespacedSecret({ name, namespace }).then(
          (s) => decode(s.data),
          (err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)),
        ),
      configMap: async (name) =>
        this.deps.core.readNamespacedConfigMap({ name, namespace }).then(
          (m) => m.data ?? {},
          (err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)),
        ),
    });
    const mounts = containerMounts(c, volumes, env);
    for (const [k, v] of Object.entries(env)) env[k] = rewriteMountPaths(v, mounts);
    return { env, expand: (s) => rewriteMountPaths(expandVars(s, env), mounts), mounts };
  }

  /** Records an event on the pod, as the kubelet would; the same text at most every 5 minutes. */
  async event(container: string, type: 'Normal' | 'Warning', reason: string, message: string, component = 'kubelet'): Promise<void> {
    const last = this.lastEvents.get(container);
    const text = `${type}/${reason}/${message}`;
    if (last?.text === text && Date.now() - last.at < 300_000) return;
    this.lastEvents.set(container, { text, at: Date.now() });
    const namespace = this.pod.metadata?.namespace ?? '';
    const now = new Date();
    try {
      await this.deps.core.createNamespacedEvent({
        namespace,
        body: {
          metadata: {
            name: `${this.pod.metadata?.name ?? 'pod'}.${now.getTime().toString(16)}${Math.floor(Math.random() * 4096).toString(16)}`,
            namespace,
          },
          involvedObject: {
            kind: 'Pod',
            apiVersion: 'v1',
            namespace,
            name: this.pod.metadata?.name,
            uid: this.uid,
            fieldPath: `spec.containers{${container}}`,
          },
          type,
          reason,
          message,
          count: 1,
          firstTimestamp: now,
          lastTimestamp: now,
          source: { component, host: this.pod.spec?.nodeName },
        },
      });
    } catch (err) {
      this.deps.ctx.log(`kubelet: cannot record event for ${this.key}: ${describeError(err)}`);
    }
  }

  log(line: string): void {
    this.deps.ctx.log(`kubelet: ${this.key}: ${line}`);
  }
}
