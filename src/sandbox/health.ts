import type { Role } from './cluster.js';
import type { SandboxState } from './state.js';

/** What `sandbox status` found for one cluster, and the verdict on the whole sandbox. */

export const ROLES: readonly Role[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'];

export interface ClusterHealth {
  context: string;
  server: string;
  /**
   * `stopped`: by `sandbox stop-apiserver`; `down`: its process is not running (it exited or
   * was killed); `not ready`: running but /readyz does not answer ok.
   */
  apiserver: 'ready' | 'not ready' | 'stopped' | 'down';
  /** The cluster's processes (etcd, kube-apiserver, controller manager, scheduler); `down` names the ones not running. */
  processes: { running: number; expected: number; down: Role[] };
  nodes: { ready: number; total: number } | null;
  error?: string;
  /** Set when the cluster is not healthy: what is wrong and what to do, in one line. */
  problem?: string;
}

/** One of the monitoring's processes as `sandbox status` found it. */
export interface MonitoringProcessHealth {
  url: string;
  /** Its process is alive (and still the one the sandbox started) and answers `/-/ready`. */
  state: 'ready' | 'not ready' | 'down';
}

/** Prometheus and Alertmanager, when the sandbox runs them (`sandbox monitoring start`). */
export interface MonitoringHealth {
  prometheus: MonitoringProcessHealth;
  alertmanager: MonitoringProcessHealth;
  discovery: 'kubernetes' | 'http';
  /** Set when one of them is not ready: what is wrong and what to do. */
  problem?: string;
}

export interface SandboxStatus {
  running: boolean;
  /** The supervisor's phase (`ready` once it started everything; it does not mean healthy). */
  phase?: SandboxState['phase'];
  /** Every cluster's API server ready, its processes running, its nodes Ready. */
  healthy: boolean;
  dir: string;
  kubeconfig?: string;
  /** Set when the sandbox is not running or not healthy: what is wrong and what to do. */
  problem?: string;
  clusters: ClusterHealth[];
  monitoring?: MonitoringHealth;
}

export function clusterHealthy(c: ClusterHealth): boolean {
  return c.apiserver === 'ready' && c.processes.running === c.processes.expected && c.nodes !== null && c.nodes.ready === c.nodes.total;
}

/**
 * What is wrong with one cluster and what to do about it, or undefined when it is healthy.
 * `dirFlag` is ` --dir DIR` when the sandbox is not in the default directory, else ''.
 */
export function clusterProblem(c: ClusterHealth, dirFlag: string, logs: (role: Role) => string): string | undefined {
  if (clusterHealthy(c)) return undefined;
  const others = c.processes.down.filter((r) => r !== 'kube-apiserver');
  const restart = `restart the sandbox: fleetdeck sandbox down${dirFlag} && fleetdeck sandbox up${dirFlag}`;
  if (others.length > 0) {
    const what = others.map((r) => `${r} is not running (log: ${logs(r)})`).join('; ');
    const api = c.apiserver === 'ready' ? '' : `; API server ${c.apiserver}`;
    return `${c.context} is down: ${what}${api}; ${restart}`;
  }
  if (c.apiserver === 'stopped') {
    return `${c.context} is down: its API server was stopped (sandbox stop-apiserver); start it with: fleetdeck sandbox start-apiserver ${c.context}${dirFlag}`;
  }
  if (c.apiserver === 'down') {
    return `${c.context} is down: its API server is not running (log: ${logs('kube-apiserver')}); start it with: fleetdeck sandbox start-apiserver ${c.context}${dirFlag}`;
  }
  if (c.apiserver === 'not ready') {
    const why = c.error ? ` (${c.error})` : '';
    return `${c.context} is down: its API server does not answer ready${why}; see ${logs('kube-apiserver')}, or ${restart}`;
  }
  const nodes = c.nodes ? `${c.nodes.ready}/${c.nodes.total} nodes Ready` : `its nodes cannot be listed${c.error ? ` (${c.error})` : ''}`;
  return `${c.context} is degraded: ${nodes}; the simulated kubelet logs to supervisor.log in the sandbox directory`;
}

/** The verdict on the whole sandbox: healthy, and a one-line problem when it is not. */
export function sandboxVerdict(s: Omit<SandboxStatus, 'healthy' | 'problem'>, dirFlag: string): { healthy: boolean; problem?: string } {
  if (!s.running) return { healthy: false };
  if (s.phase !== 'ready') {
    return { healthy: false, problem: `the sandbox is ${s.phase ?? 'not ready'}; wait for \`fleetdeck sandbox up${dirFlag}\` to finish` };
  }
  const bad = s.clusters.filter((c) => !clusterHealthy(c));
  if (bad.length === 0) return { healthy: true };
  const names = bad.map((c) => c.context).join(', ');
  return { healthy: false, problem: `${bad.length} of ${s.clusters.length} clusters not healthy: ${names}` };
}
