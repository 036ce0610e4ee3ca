import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { CLI_PATH } from '../paths.js';
import { describeError, makeClient } from '../kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { summarizeNode } from '../kube/nodes/nodes.js';
import { ensureBinaries } from './binaries.js';
import { apiserverReady, type Role } from './cluster.js';
import type { ControlledRole } from './control.js';
import { clusterProblem, ROLES, sandboxVerdict, type ClusterHealth, type SandboxStatus } from './health.js';
import { monitoringHealth } from './monitoring-status.js';
import { isOurs, readState, recordedPids, sandboxDir, type ClusterRecord, type SandboxState } from './state.js';

export interface Out {
  out: (line: string) => void;
  err: (line: string) => void;
}

const CLI = CLI_PATH;

export function exportLine(state: Pick<SandboxState, 'kubeconfig'>): string {
  return `export KUBECONFIG=${state.kubeconfig}`;
}

export function supervisorAlive(state: SandboxState): boolean {
  return isOurs(state.supervisorPid, state.dir);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitGone(pids: number[], dir: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (pids.every((p) => !isOurs(p, dir))) return true;
    await sleep(100);
  }
  return pids.every((p) => !isOurs(p, dir));
}

/** Stops exactly the processes the state records (supervisor first), then any leftovers. */
async function stopRecorded(state: SandboxState): Promise<number> {
  const pids = recordedPids(state).filter((p) => isOurs(p, state.dir));
  if (isOurs(state.supervisorPid, state.dir)) {
    process.kill(state.supervisorPid, 'SIGTERM');
    await waitGone([state.supervisorPid], state.dir, 30_000);
  }
  // Whatever the supervisor did not stop (it may have been killed): children it recorded.
  const latest = readState(state.dir) ?? state;
  const left = [...new Set([...recordedPids(latest), ...pids])].filter((p) => isOurs(p, state.dir));
  for (const p of left) process.kill(p, 'SIGTERM');
  if (!(await waitGone(left, state.dir, 10_000))) {
    for (const p of left) if (isOurs(p, state.dir)) process.kill(p, 'SIGKILL');
    await waitGone(left, state.dir, 5_000);
  }
  return pids.length;
}

export interface UpOptions {
  dir: string;
  workloads: number;
  nodes: number;
  /** Called with each progress line (to stderr in plain mode). */
  progress?: (line: string) => void;
  signal?: AbortSignal;
  /** Every simulated node is replaced by a new one once cordoned and drained (default true). */
  replaceDrained?: boolean;
  /** Prometheus and Alertmanager start with the clusters (a sandbox already running: see controlMonitoring). */
  withMonitoring?: boolean;
}

/**
 * Starts the sandbox (or finds it running) and resolves with its state once every cluster is
 * ready. On failure or abort, whatever was started is stopped again.
 */
export async function sandboxUp(opts: UpOptions): Promise<SandboxState> {
  const progress = opts.progress ?? (() => {});
  const existing = readState(opts.dir);
  if (existing && supervisorAlive(existing)) {
    if (existing.phase === 'ready') return existing;
    if (existing.phase === 'starting') {
      progress('the sandbox is already starting; waiting for it');
      return waitReady(opts.dir, existing.supervisorPid, progress, opts.signal);
    }
  }
  if (existing) {
    // Left over from a killed supervisor or a failed start: clean it up first.
    await stopRecorded(existing);
    fs.rmSync(opts.dir, { recursive: true, force: true });
  }
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const binaries = await ensureBinaries({ logFile: path.join(opts.dir, 'testbed.log'), onProgress: progress, signal: opts.signal });
  opts.signal?.throwIfAborted();
  const logFd = fs.openSync(path.join(opts.dir, 'supervisor.log'), 'a');
  const child = spawn(
    process.execPath,
    [
      CLI,
      'sandbox',
      '__supervise',
      '--dir',
      opts.dir,
      '--workloads',
      String(opts.workloads),
      '--nodes',
      String(opts.nodes),
      ...(opts.replaceDrained === false ? ['--no-replace'] : []),
      ...(opts.withMonitoring ? ['--with-monitoring'] : []),
    ],
    {
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: {
        ...process.env,
        FLEETDECK_ETCD: binaries.etcd,
        FLEETDECK_KUBE_APISERVER: binaries['kube-apiserver'],
        FLEETDECK_KUBE_CONTROLLER_MANAGER: binaries['kube-controller-manager'],
        FLEETDECK_KUBE_SCHEDULER: binaries['kube-scheduler'],
      },
    },
  );
  fs.closeSync(logFd);
  child.unref();
  const pid = child.pid;
  if (!pid) throw new UserError('could not start the sandbox supervisor');
  try {
    return await waitReady(opts.dir, pid, progress, opts.signal);
  } catch (err) {
    const st = readState(opts.dir);
    if (st) await stopRecorded(st);
    else if (isOurs(pid, opts.dir)) process.kill(pid, 'SIGKILL');
    // Interrupted: nothing worth keeping. Failed: keep the logs for diagnosis.
    if (opts.signal?.aborted) fs.rmSync(opts.dir, { recursive: true, force: true });
    throw err;
  }
}

async function waitReady(dir: string, pid: number, progress: (l: string) => void, signal?: AbortSignal): Promise<SandboxState> {
  let last = '';
  for (;;) {
    if (signal?.aborted) throw new UserError('interrupted: the sandbox was stopped again', 130);
    const st = readState(dir);
    if (st?.progress && st.progress !== last) {
      last = st.progress;
      progress(last);
    }
    if (st?.phase === 'ready') return st;
    if (st?.phase === 'failed') {
      throw new UserError(`sandbox failed to start: ${st.error ?? 'unknown error'} (logs: ${dir})`);
    }
    if (!isOurs(pid, dir)) {
      throw new UserError(`the sandbox supervisor exited during start-up; see ${path.join(dir, 'supervisor.log')}`);
    }
    await sleep(200);
  }
}

export async function sandboxDown(dir: string, io: Out): Promise<number> {
  const state = readState(dir);
  if (!state) {
    io.out('the sandbox is not running (nothing to stop)');
    return 0;
  }
  const n = await stopRecorded(state);
  fs.rmSync(dir, { recursive: true, force: true });
  io.out(`sandbox stopped: ${n} process${n === 1 ? '' : 'es'} ended, ${dir} removed`);
  return 0;
}

/** ` --dir DIR` for the hints, unless DIR is where the sandbox commands look by default. */
function dirFlag(dir: string): string {
  return dir === sandboxDir() ? '' : ` --dir ${dir}`;
}

/** One cluster: its processes (each checked to be alive and ours), its API server's /readyz, its nodes. */
async function clusterHealth(c: ClusterRecord, dir: string, kc: KubeConfig | undefined): Promise<ClusterHealth> {
  const down = ROLES.filter((role) => !isOurs(c.pids[role], dir));
  const h: ClusterHealth = {
    context: c.context,
    server: `https://127.0.0.1:${c.ports.apiserver}`,
    apiserver: c.apiserver === 'stopped' ? 'stopped' : down.includes('kube-apiserver') ? 'down' : 'not ready',
    processes: { running: ROLES.length - down.length, expected: ROLES.length, down },
    nodes: null,
  };
  if (kc && h.apiserver === 'not ready') {
    const ckc = configForContext(kc, c.context);
    try {
      if (await apiserverReady(ckc)) h.apiserver = 'ready';
      const nodes = (await makeClient(ckc, CoreV1Api, 5000).listNode()).items.map(summarizeNode);
      h.nodes = { ready: nodes.filter((n) => n.ready).length, total: nodes.length };
    } catch (err) {
      h.error = describeError(err);
    }
  }
  const logs = (role: Role) => path.join(dir, 'clusters', c.name, 'logs', `${role}.log`);
  const problem = clusterProblem(h, dirFlag(dir), logs);
  return problem ? { ...h, problem } : h;
}

/**
 * The sandbox's health: the supervisor, then every cluster's processes, API server and nodes.
 * The supervisor's phase `ready` only says that it started everything once.
 */
export async function sandboxStatus(dir: string): Promise<SandboxStatus> {
  const state = readState(dir);
  if (!state) return { running: false, healthy: false, dir, clusters: [] };
  if (!supervisorAlive(state)) {
    const problem = `the sandbox's supervisor is gone (its clusters' processes may still run); clean up with \`fleetdeck sandbox down${dirFlag(dir)}\`, then start again with \`fleetdeck sandbox up${dirFlag(dir)}\``;
    return { running: false, healthy: false, dir, problem, clusters: [] };
  }
  const kc = state.phase === 'ready' ? loadKubeconfig({ kubeconfig: state.kubeconfig }).config : undefined;
  const clusters = await Promise.all(state.clusters.map((c) => clusterHealth(c, dir, kc)));
  const s = { running: true, phase: state.phase, dir, kubeconfig: state.kubeconfig, clusters };
  const monitoring = state.monitoring && (await monitoringHealth(state.monitoring, dir, dirFlag(dir)));
  const verdict = sandboxVerdict(s, dirFlag(dir));
  const problem = verdict.problem ?? monitoring?.problem;
  return {
    running: true,
    phase: state.phase,
    healthy: verdict.healthy && !monitoring?.problem,
    dir,
    kubeconfig: state.kubeconfig,
    ...(problem ? { problem } : {}),
    clusters,
    ...(monitoring ? { monitoring } : {}),
  };
}

/** The sandbox's state while its supervisor runs and is ready (what the control socket needs), else a UserError. */
function readyState(dir: string): SandboxState {
  const state = readState(dir);
  if (!state || !supervisorAlive(state) || state.phase !== 'ready') {
    throw new UserError(`the sandbox is not running; start it with \`fleetdeck sandbox up${dirFlag(dir)}\``);
  }
  return state;
}

/** POSTs to the supervisor's control socket: the answer's message (and fields), or a UserError with it. */
function askSupervisor(state: SandboxState, requestPath: string): Promise<{ message: string } & Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: state.controlSocket, method: 'POST', path: requestPath }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        let answer: { message: string } & Record<string, unknown> = { message: body };
        try {
          answer = JSON.parse(body) as typeof answer;
        } catch {
          // plain text
        }
        if (res.statusCode === 200) resolve(answer);
        else reject(new UserError(answer.message));
      });
    });
    req.on('error', (err) => reject(new UserError(`cannot reach the sandbox supervisor: ${describeError(err)}`)));
    req.end();
  });
}

/** Asks the supervisor to stop or start one cluster's API server or etcd (outage drills). */
export async function controlProcess(dir: string, context: string, role: ControlledRole, action: 'stop' | 'start'): Promise<string> {
  const state = readyState(dir);
  if (!state.clusters.some((c) => c.context === context)) {
    const known = state.clusters.map((c) => c.context).join(', ');
    throw new UserError(`no sandbox cluster has context "${context}" (known: ${known})`, 2);
  }
  return (await askSupervisor(state, `/${role}/${action}?context=${encodeURIComponent(context)}`)).message;
}

/**
 * Asks the supervisor to start Prometheus and Alertmanager (or find them running: it answers once
 * both are ready) or to stop them; resolves with its message and the state after.
 */
export async function controlMonitoring(dir: string, action: 'start' | 'stop'): Promise<{ message: string; state: SandboxState }> {
  const { message } = await askSupervisor(readyState(dir), `/monitoring/${action}`);
  return { message, state: readState(dir) ?? readyState(dir) };
}
