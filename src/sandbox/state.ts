import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClusterPorts, Role } from './cluster.js';

export type SandboxPhase = 'starting' | 'ready' | 'failed' | 'stopping';

export interface ClusterRecord {
  name: string;
  context: string;
  index: number;
  ports: ClusterPorts;
  /** PIDs of the processes the supervisor started for this cluster (running ones). */
  pids: Partial<Record<Role, number>>;
  /** The API server's audit log (JSON lines of audit.k8s.io/v1 Events; see audit.ts). */
  auditLog: string;
  /** `stopped` after `sandbox stop-apiserver`. */
  apiserver: 'running' | 'stopped' | 'exited';
  /** `stopped` after `sandbox stop-etcd` (absent: running). */
  etcd?: 'running' | 'stopped';
  /**
   * PIDs of the processes run for pods (etcd and kube-apiserver images), by
   * `<namespace>/<pod>/<container>@<pod uid prefix>`; their command lines name the sandbox dir.
   */
  podProcesses?: Record<string, number>;
}

/** One of the monitoring's processes: where it answers, its PID while it runs, its log. */
export interface MonitoringProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  pid?: number;
  log: string;
}

/**
 * Prometheus and Alertmanager, run by the supervisor (`sandbox up --with-monitoring`, `sandbox
 * monitoring start`); absent when they do not run. See monitoring.ts.
 */
export interface MonitoringRecord {
  prometheus: MonitoringProcess;
  alertmanager: MonitoringProcess;
  /** Who discovers the pods: Prometheus's Kubernetes service discovery, or the sandbox's served to its HTTP service discovery. */
  discovery: 'kubernetes' | 'http';
  /** The proxy Prometheus scrapes pod IPs through (monitoring-proxy.ts). */
  podProxy: string;
  /** Their configuration, kubeconfigs, data and logs. */
  dir: string;
}

export interface SandboxState {
  version: 1;
  dir: string;
  supervisorPid: number;
  phase: SandboxPhase;
  /** What the supervisor is doing now (one line). */
  progress?: string;
  error?: string;
  startedAt: string;
  options: { workloads: number; nodes: number };
  kubeconfig: string;
  readOnlyKubeconfig: string;
  controlSocket: string;
  clusters: ClusterRecord[];
  monitoring?: MonitoringRecord;
}

/** `--dir`, else FLEETDECK_SANDBOX_DIR, else $XDG_STATE_HOME/fleetdeck/sandbox. */
export function sandboxDir(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return path.resolve(explicit);
  if (env.FLEETDECK_SANDBOX_DIR) return path.resolve(env.FLEETDECK_SANDBOX_DIR);
  const state = env.XDG_STATE_HOME || path.join(env.HOME ?? os.homedir(), '.local', 'state');
  return path.join(state, 'fleetdeck', 'sandbox');
}

export function stateFile(dir: string): string {
  return path.join(dir, 'state.json');
}

export function readState(dir: string): SandboxState | undefined {
  try {
    return JSON.parse(fs.readFileSync(stateFile(dir), 'utf8')) as SandboxState;
  } catch {
    return undefined;
  }
}

/** Atomic write (temp file + rename): readers never see half a file. */
export function writeState(state: SandboxState): void {
  const file = stateFile(state.dir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state, null, 2), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Command line of a live process, or undefined when it is gone. */
export function processCmdline(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

/**
 * True when `pid` is alive and still the process the sandbox started (its command line
 * mentions the sandbox directory), so a recycled PID is never signalled.
 */
export function isOurs(pid: number | undefined, dir: string): pid is number {
  if (!pid) return false;
  const cmd = processCmdline(pid);
  if (cmd === undefined) return false;
  try {
    // A zombie has an empty command line: not running.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (/\) Z /.test(stat)) return false;
  } catch {
    return false;
  }
  return cmd.includes(dir);
}

/** Every PID the state records (supervisor first, then the clusters' processes, then pods' processes, then the monitoring's). */
export function recordedPids(state: SandboxState): number[] {
  return [
    state.supervisorPid,
    ...state.clusters.flatMap((c) => Object.values(c.pids)),
    ...state.clusters.flatMap((c) => Object.values(c.podProcesses ?? {})),
    state.monitoring?.prometheus.pid,
    state.monitoring?.alertmanager.pid,
  ].filter((p): p is number => typeof p === 'number');
}
