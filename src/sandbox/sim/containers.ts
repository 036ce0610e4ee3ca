import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  VersionApi,
  type V1Container,
  type V1ContainerStateTerminated,
  type V1ContainerStatus,
  type V1Pod,
} from '@kubernetes/client-node';
import { describeError, makeClient, statusCode } from '../../kube/client.js';
import { ZONE_LABEL } from '../../kube/nodes.js';
import { isNotFound, type HostnameDirectory, type SandboxRuntime, type SimContext } from './context.js';
import type { ClusterNetwork } from './network.js';
import {
  containerEnv,
  containerKind,
  expandVars,
  flagValue,
  readinessCheck,
  rewriteListenArgs,
  rewriteMountPaths,
  sandboxDefaults,
  type ContainerKind,
  type ReadinessCheck,
} from './processes.js';
import { containerMounts, materializeVolumes, MountError } from './volumes.js';

const REGION_LABEL = 'topology.kubernetes.io/region';
const AGENT_HEARTBEAT_MS = 10_000;
const MAX_BACKOFF_MS = 300_000;
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The Cluster objects agents register (cluster.elotl.co/v1alpha1, cluster-scoped). */
export const CLUSTER_RESOURCE = { group: 'cluster.elotl.co', version: 'v1alpha1', plural: 'clusters' } as const;

const podKey = (pod: V1Pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

function imageID(image: string): string {
  return `${image.split('@')[0]}@sha256:${createHash('sha256').update(image).digest('hex')}`;
}

/** RFC 3339 with seconds, as Kubernetes writes times. */
function rfc3339(d = new Date()): string {
  return d.toISOString().replace(/\.\d+Z$/, 'Z');
}

/** True when a pod has a container the sandbox runs for real (or the in-process agent). */
export function runsForReal(pod: V1Pod): boolean {
  return (pod.spec?.containers ?? []).some((c) => containerKind(c) !== undefined);
}

/** The ports a pod's processes will listen on (declared, or the binaries' defaults). */
export function realPorts(pod: V1Pod): number[] {
  return (pod.spec?.containers ?? []).flatMap((c) => {
    const kind = containerKind(c);
    if (!kind || kind === 'nova-agent') return [];
    const declared = (c.ports ?? []).map((p) => p.containerPort);
    return declared.length > 0 ? declared : kind === 'etcd' ? [2379, 2380] : [6443];
  });
}

export interface RealPodDeps {
  ctx: SimContext;
  runtime: SandboxRuntime;
  network: ClusterNetwork;
  core: CoreV1Api;
  /** The pod's status should be reported again (something changed). */
  onChange: () => void;
}

/**
 * One pod whose containers run for real: etcd and kube-apiserver images as the test bed's
 * binaries in their own mount namespace (see ProcessContainer), the nova-agent in process (see
 * AgentContainer); other containers of the pod stay simulated. Owns the pod's directory,
 * its loopback address and its entry in the cluster network.
 */
export class RealPod {
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
      const rc = kind === 'nova-agent' ? new AgentContainer(this, c) : new ProcessContainer(this, c, kind);
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
  async prepare(c: V1Container): Promise<{ env: Record<string, string>; expand: (s: string) => string }> {
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
    return { env, expand: (s) => rewriteMountPaths(expandVars(s, env), mounts) };
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
          metadata: { name: `${this.pod.metadata?.name ?? 'pod'}.${now.getTime().toString(16)}${Math.floor(Math.random() * 4096).toString(16)}`, namespace },
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

type ContainerState = 'creating' | 'running' | 'backoff' | 'terminated';

/** One container the sandbox runs (a process or the in-process agent) and what its status reports. */
abstract class RealContainer {
  state: ContainerState = 'creating';
  ready = false;
  everStarted = false;
  restartCount = 0;
  startedAt: Date | undefined;
  lastTerminated: V1ContainerStateTerminated | undefined;
  waiting: { reason: string; message: string } = { reason: 'ContainerCreating', message: '' };

  constructor(
    protected readonly pod: RealPod,
    protected readonly spec: V1Container,
  ) {}

  abstract start(): void;
  abstract stop(graceMs: number): Promise<void>;

  protected get containerID(): string {
    return `sandbox://${this.pod.uid}-${this.spec.name}`;
  }

  status(): V1ContainerStatus {
    const base: V1ContainerStatus = {
      name: this.spec.name,
      image: this.spec.image ?? '',
      imageID: imageID(this.spec.image ?? ''),
      ready: this.ready,
      started: this.state === 'running',
      restartCount: this.restartCount,
    };
    if (this.lastTerminated) base.lastState = { terminated: this.lastTerminated };
    if (this.state === 'running') return { ...base, containerID: this.containerID, state: { running: { startedAt: this.startedAt ?? new Date() } } };
    if (this.state === 'terminated' && this.lastTerminated) return { ...base, containerID: this.containerID, lastState: undefined, state: { terminated: this.lastTerminated } };
    return { ...base, state: { waiting: { reason: this.waiting.reason, message: this.waiting.message || undefined } } };
  }
}

/**
 * A container whose image is etcd or kube-apiserver, run as the test bed's binary: the pod's
 * command and args with `$(VAR)` expanded, mount paths pointing at the materialized volumes and
 * wildcard listen addresses at the pod's address, inside its own mount namespace whose
 * /etc/hosts is the cluster's hosts file. Ready while its port accepts connections; restarted
 * with the kubelet's back-off (10 s doubling to 5 min) when it exits.
 */
class ProcessContainer extends RealContainer {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private probe: NodeJS.Timeout | undefined;
  private stopping = false;
  private mountFailures = 0;
  private readonly pidKey: string;
  private readonly logFile: string;

  constructor(
    pod: RealPod,
    spec: V1Container,
    private readonly kind: Exclude<ContainerKind, 'nova-agent'>,
  ) {
    super(pod, spec);
    const p = pod.spec.metadata;
    this.pidKey = `${p?.namespace ?? ''}/${p?.name ?? ''}/${spec.name}@${pod.uid.slice(0, 8)}`;
    const logs = path.join(pod.deps.runtime.dir, 'logs', 'pods');
    fs.mkdirSync(logs, { recursive: true });
    this.logFile = path.join(logs, `${p?.namespace ?? ''}_${p?.name ?? ''}_${spec.name}.log`);
  }

  start(): void {
    void this.launch();
  }

  /** The binary under the sandbox directory (a symlink), so the process's command line names the sandbox. */
  private binary(): string {
    const dir = path.join(this.pod.deps.runtime.dir, 'bin');
    const link = path.join(dir, this.kind);
    fs.mkdirSync(dir, { recursive: true });
    const target = this.pod.deps.runtime.binaries[this.kind];
    let current: string | undefined;
    try {
      current = fs.readlinkSync(link);
    } catch {
      current = undefined;
    }
    if (current !== target) {
      fs.rmSync(link, { force: true });
      fs.symlinkSync(target, link);
    }
    return link;
  }

  /** The command line to run: the pod's, made local (see the class comment). */
  private commandLine(expand: (s: string) => string): { file: string; argv: string[]; cwd: string } {
    const wd = this.spec.workingDir ? expand(this.spec.workingDir) : undefined;
    const cwd = wd && wd.startsWith(this.pod.deps.runtime.dir) && fs.existsSync(wd) ? wd : this.pod.dir;
    const command = (this.spec.command ?? []).map(expand);
    const args = (this.spec.args ?? []).map(expand);
    const bin = this.binary();
    const first = command[0];
    if (first && /^(ba)?sh$/.test(path.basename(first))) {
      // A shell script: it finds etcd/kube-apiserver on PATH (the sandbox's bin directory first).
      return { file: first, argv: [...command.slice(1), ...args], cwd };
    }
    const rest = first && path.basename(first) === this.kind ? command.slice(1) : command;
    let argv = rewriteListenArgs([...rest, ...args], this.pod.ip);
    argv = sandboxDefaults(this.kind, argv, this.pod.ip, this.pod.dir);
    return { file: bin, argv, cwd };
  }

  private async launch(): Promise<void> {
    this.timer = undefined;
    if (this.stopping) return;
    let env: Record<string, string>;
    let line: { file: string; argv: string[]; cwd: string };
    try {
      const prepared = await this.pod.prepare(this.spec);
      env = prepared.env;
      line = this.commandLine(prepared.expand);
    } catch (err) {
      if (this.stopping) return;
      const message = err instanceof MountError ? err.message : describeError(err);
      this.mountFailures++;
      this.waiting = { reason: err instanceof MountError ? 'ContainerCreating' : 'CreateContainerConfigError', message };
      if (this.state !== 'backoff') this.state = 'creating';
      void this.pod.event(this.spec.name, 'Warning', err instanceof MountError ? 'FailedMount' : 'Failed', message);
      this.pod.changed();
      this.timer = setTimeout(() => void this.launch(), Math.min(30_000, 1000 * 2 ** Math.min(this.mountFailures, 5)));
      return;
    }
    if (this.stopping) return; // the pod went away while its volumes were prepared
    this.mountFailures = 0;
    const out = fs.openSync(this.logFile, 'a');
    const hosts = this.pod.deps.network.hostsFile;
    const binDir = path.join(this.pod.deps.runtime.dir, 'bin');
    const childEnv = { PATH: `${binDir}:${PATH}`, HOME: this.pod.dir, ...env };
    const workingDir = line.cwd;
    const startedAt = new Date();
    fs.writeSync(out, `--- ${rfc3339(startedAt)} sandbox: starting ${this.kind} for ${this.pod.key} on ${this.pod.ip}\n`);
    // Own mount namespace with the cluster's hosts file over /etc/hosts; `exec` keeps the PID.
    const child = this.pod.deps.network.mountNamespaces()
      ? spawn('unshare', ['--mount', '--propagation', 'private', '--', 'sh', '-c', 'mount --bind "$0" /etc/hosts && exec "$@"', hosts, line.file, ...line.argv], {
          cwd: workingDir,
          env: childEnv,
          stdio: ['ignore', out, out],
        })
      : spawn(line.file, line.argv, { cwd: workingDir, env: childEnv, stdio: ['ignore', out, out] });
    fs.closeSync(out);
    this.child = child;
    this.exited = new Promise<void>((resolve) => {
      let done = false;
      const finish = (code: number | null, signal: NodeJS.Signals | null) => {
        if (done) return;
        done = true;
        this.onExit(child, startedAt, code, signal);
        resolve();
      };
      child.once('exit', finish);
      child.once('error', (err) => {
        this.pod.log(`${this.spec.name}: cannot start: ${describeError(err)}`);
        finish(127, null);
      });
    });
    if (child.pid) this.pod.deps.runtime.recordProcess(this.pidKey, child.pid);
    this.state = 'running';
    this.everStarted = true;
    this.startedAt = startedAt;
    this.ready = false;
    this.pod.log(`${this.spec.name}: started ${this.kind} (pid ${child.pid ?? '?'}) on ${this.pod.ip}`);
    this.pod.changed();
    this.scheduleProbe(readinessCheck(this.spec, this.kind, line.argv), 0, 0);
  }

  /** Checks readiness every second until Ready, then every probe period; not Ready after `failureThreshold` failures. */
  private scheduleProbe(check: ReadinessCheck, delayMs: number, failures: number): void {
    this.probe = setTimeout(async () => {
      this.probe = undefined;
      if (this.stopping || this.state !== 'running') return;
      const failure = check.http
        ? await httpCheck(this.pod.ip, check.port, check.http.scheme, check.http.path, 5000)
        : (await tcpCheck(this.pod.ip, check.port, 1000))
          ? undefined
          : `dial tcp ${this.pod.ip}:${check.port}: connect: connection refused`;
      if (this.stopping || this.state !== 'running') return;
      const f = failure === undefined ? 0 : failures + 1;
      if (failure === undefined && !this.ready) {
        this.ready = true;
        this.pod.changed();
      } else if (failure !== undefined && this.ready && f >= check.failureThreshold) {
        this.ready = false;
        void this.pod.event(this.spec.name, 'Warning', 'Unhealthy', `Readiness probe failed: ${failure}`);
        this.pod.changed();
      }
      this.scheduleProbe(check, this.ready ? check.periodMs : 1000, f);
    }, delayMs);
  }

  private onExit(child: ChildProcess, startedAt: Date, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (child.pid) this.pod.deps.runtime.recordProcess(this.pidKey, undefined);
    if (this.probe) clearTimeout(this.probe);
    this.probe = undefined;
    const exitCode = code ?? (signal ? 128 + (signalNumber(signal) ?? 9) : 1);
    this.ready = false;
    this.lastTerminated = {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      startedAt,
      finishedAt: new Date(),
      containerID: this.containerID,
      signal: undefined,
    };
    if (this.stopping) {
      this.state = 'terminated';
      return;
    }
    const policy = this.pod.spec.spec?.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && exitCode === 0)) {
      this.state = 'terminated';
      this.pod.log(`${this.spec.name}: exited with code ${exitCode}`);
      this.pod.changed();
      return;
    }
    // The kubelet's crash-loop back-off: 10 s doubling to 5 min, reset after 10 min of running.
    const ranMs = Date.now() - startedAt.getTime();
    if (ranMs > 600_000) this.restartCount = 0;
    const backoffMs = Math.min(MAX_BACKOFF_MS, 10_000 * 2 ** Math.min(this.restartCount, 5));
    this.restartCount++;
    this.state = 'backoff';
    this.waiting = {
      reason: 'CrashLoopBackOff',
      message: `back-off ${formatDuration(backoffMs)} restarting failed container=${this.spec.name} pod=${this.pod.spec.metadata?.name ?? ''}_${this.pod.spec.metadata?.namespace ?? ''}(${this.pod.uid})`,
    };
    this.pod.log(`${this.spec.name}: exited with code ${exitCode}; restarting in ${formatDuration(backoffMs)}`);
    void this.pod.event(this.spec.name, 'Warning', 'BackOff', `Back-off restarting failed container ${this.spec.name} in pod ${this.pod.spec.metadata?.name ?? ''}`);
    this.pod.changed();
    this.timer = setTimeout(() => void this.launch(), backoffMs);
  }

  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.probe) clearTimeout(this.probe);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), Math.max(0, graceMs));
    await this.exited;
    clearTimeout(kill);
  }
}

function signalNumber(signal: NodeJS.Signals): number | undefined {
  return (os.constants.signals as Record<string, number>)[signal];
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}

/** True when a TCP connection to ip:port is accepted within `timeoutMs`. */
export function tcpCheck(ip: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: ip, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/**
 * A kubelet's HTTP(S) readiness check: GET `path`, success on 200–399 (the certificate is not
 * verified, as the kubelet does not). Resolves with undefined, or with why it failed.
 */
export function httpCheck(ip: string, port: number, scheme: 'HTTP' | 'HTTPS', path: string, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const opts = { host: ip, port, path, method: 'GET', timeout: timeoutMs, headers: { 'User-Agent': 'kube-probe/1.20' } };
    const onResponse = (res: http.IncomingMessage) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 400 ? undefined : `HTTP probe failed with statuscode: ${code}`);
    };
    const req = scheme === 'HTTPS' ? https.request({ ...opts, rejectUnauthorized: false }, onResponse) : http.request(opts, onResponse);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve(`Get "${scheme.toLowerCase()}://${ip}:${port}${path}": ${describeError(err)}`));
    req.end();
  });
}

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
    return { type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: old?.status === status ? old.lastTransitionTime : now };
  });
}

/**
 * The nova-agent, played in process: with the credentials of the kubeconfig its `--kubeconfig`
 * arg names (materialized from its Secret volume) it creates or updates the Cluster object
 * `--cluster-name` in the control plane and keeps its Ready condition fresh every 10 s, as the
 * agent does. Ready while that works; otherwise not Ready, with the error in a Warning event.
 */
class AgentContainer extends RealContainer {
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private running: Promise<void> | undefined;
  private kc: KubeConfig | undefined;
  private clusterName = '';
  private server = '';
  private facts: { version: string; region: string; zone: string } | undefined;
  private lastError = '';

  start(): void {
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
    if (!ok && message !== this.lastError) this.pod.log(`nova-agent: ${message}`);
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
      obj = (await api.replaceClusterCustomObject({ ...CLUSTER_RESOURCE, name, body: { ...obj, spec: { ...obj.spec, ...spec } } })) as ClusterObj;
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
    this.state = 'terminated';
    this.lastTerminated = { exitCode: 0, reason: 'Completed', startedAt: this.startedAt, finishedAt: new Date(), containerID: this.containerID };
  }
}

