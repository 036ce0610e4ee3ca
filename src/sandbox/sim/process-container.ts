import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { V1Container } from '@kubernetes/client-node';
import { formatDuration } from '../../duration.js';
import { describeError } from '../../kube/transport/client.js';
import { ContainerLog, podLogDir } from './container-log.js';
import { RealContainer, type PodHandle } from './container.js';
import { httpCheck, tcpCheck } from './probes.js';
import { namespacedCommand, type BindMount } from './mount-namespace.js';
import type { MountMapping, ReadinessCheck } from './processes.js';
import { MountError } from './volumes.js';

/** A container's environment, `$(VAR)` expansion and volume mounts, as RealPod.prepare reads them. */
export interface Prepared {
  env: Record<string, string>;
  expand: (s: string) => string;
  mounts: MountMapping[];
}

/** What to run for a container. */
export interface Launch {
  file: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Volumes bind-mounted at their mount paths in the process's mount namespace. */
  binds: BindMount[];
  /** Absent: Ready as soon as it runs. */
  readiness?: ReadinessCheck;
}

/** How one kind of image becomes a local process (see BinaryLauncher, FleetdeckLauncher). */
export interface Launcher {
  readonly kind: string;
  launch(prepared: Prepared): Promise<Launch>;
}

const MAX_BACKOFF_MS = 300_000;
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * A container run as a local process (what runs comes from its Launcher), inside its own mount
 * namespace whose /etc/hosts is the cluster's hosts file (see mount-namespace.ts), output to
 * the pod's container log. Restarted as the pod's restartPolicy says, with the kubelet's
 * back-off (10 s doubling to 5 min); stopped with SIGTERM, SIGKILL after the grace period.
 */
export class ProcessContainer extends RealContainer {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private probe: NodeJS.Timeout | undefined;
  private stopping = false;
  private mountFailures = 0;
  private readonly pidKey: string;
  private readonly logDir: string;

  constructor(
    pod: PodHandle,
    spec: V1Container,
    private readonly launcher: Launcher,
  ) {
    super(pod, spec);
    const p = pod.spec.metadata;
    this.pidKey = `${p?.namespace ?? ''}/${p?.name ?? ''}/${spec.name}@${pod.uid.slice(0, 8)}`;
    this.logDir = podLogDir(pod.deps.runtime.dir, p?.namespace ?? '', p?.name ?? '', pod.uid);
  }

  start(): void {
    void this.launch();
  }

  private async launch(): Promise<void> {
    this.timer = undefined;
    if (this.stopping) return;
    let line: Launch;
    try {
      line = await this.launcher.launch(await this.pod.prepare(this.spec));
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
    const binDir = path.join(this.pod.deps.runtime.dir, 'bin');
    const childEnv = { PATH: `${binDir}:${PATH}`, HOME: this.pod.dir, ...line.env };
    const startedAt = new Date();
    const kind = this.launcher.kind;
    // Own mount namespace with the cluster's hosts file over /etc/hosts; `exec` keeps the PID.
    const run = this.pod.deps.network.mountNamespaces()
      ? namespacedCommand(this.pod.deps.network.hostsFile, line.binds, line.file, line.argv)
      : { file: line.file, argv: line.argv };
    // The container log of this instance (see container-log.ts), as the kubelet keeps it.
    const log = new ContainerLog(this.logDir, this.spec.name, this.restartCount);
    const child = spawn(run.file, run.argv, { cwd: line.cwd, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.stdout) log.pipe(child.stdout, 'stdout');
    if (child.stderr) log.pipe(child.stderr, 'stderr');
    child.once('close', () => log.close());
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
        log.close();
        finish(127, null);
      });
    });
    if (child.pid) this.pod.deps.runtime.recordProcess(this.pidKey, child.pid);
    this.state = 'running';
    this.everStarted = true;
    this.startedAt = startedAt;
    this.ready = false;
    this.pod.log(`${this.spec.name}: started ${kind} (pid ${child.pid ?? '?'}) on ${this.pod.ip}`);
    if (line.readiness) this.scheduleProbe(line.readiness, 0, 0);
    else this.ready = true;
    this.pod.changed();
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
      message: `back-off ${formatDuration(backoffMs, 'go')} restarting failed container=${this.spec.name} pod=${this.pod.spec.metadata?.name ?? ''}_${this.pod.spec.metadata?.namespace ?? ''}(${this.pod.uid})`,
    };
    this.pod.log(`${this.spec.name}: exited with code ${exitCode}; restarting in ${formatDuration(backoffMs, 'go')}`);
    void this.pod.event(
      this.spec.name,
      'Warning',
      'BackOff',
      `Back-off restarting failed container ${this.spec.name} in pod ${this.pod.spec.metadata?.name ?? ''}`,
    );
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
