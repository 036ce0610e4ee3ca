import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { V1Container } from '@kubernetes/client-node';
import { describeError } from '../../kube/client.js';
import { RealContainer, rfc3339, type PodHandle } from './container.js';
import { httpCheck, tcpCheck } from './probes.js';
import { readinessCheck, rewriteListenArgs, sandboxDefaults, type ContainerKind, type ReadinessCheck } from './processes.js';
import { MountError } from './volumes.js';

const MAX_BACKOFF_MS = 300_000;
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * A container whose image is etcd or kube-apiserver, run as the test bed's binary: the pod's
 * command and args with `$(VAR)` expanded, mount paths pointing at the materialized volumes and
 * wildcard listen addresses at the pod's address, inside its own mount namespace whose
 * /etc/hosts is the cluster's hosts file. Ready while its port accepts connections; restarted
 * with the kubelet's back-off (10 s doubling to 5 min) when it exits.
 */
export class ProcessContainer extends RealContainer {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private probe: NodeJS.Timeout | undefined;
  private stopping = false;
  private mountFailures = 0;
  private readonly pidKey: string;
  private readonly logFile: string;

  constructor(
    pod: PodHandle,
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
    const cwd = wd?.startsWith(this.pod.deps.runtime.dir) && fs.existsSync(wd) ? wd : this.pod.dir;
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
      ? spawn(
          'unshare',
          [
            '--mount',
            '--propagation',
            'private',
            '--',
            'sh',
            '-c',
            'mount --bind "$0" /etc/hosts && exec "$@"',
            hosts,
            line.file,
            ...line.argv,
          ],
          {
            cwd: workingDir,
            env: childEnv,
            stdio: ['ignore', out, out],
          },
        )
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

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${s % 60}s` : `${s}s`;
}
