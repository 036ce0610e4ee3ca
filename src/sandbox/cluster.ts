import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CoreV1Api, Health, type KubeConfig } from '@kubernetes/client-node';
import { makeClient } from '../kube/transport/client.js';
import { auditArgs } from './audit.js';
import type { Binaries } from './binaries.js';

export type Role = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler';

export interface ClusterPorts {
  etcdClient: number;
  etcdPeer: number;
  apiserver: number;
}

export interface ClusterSpec {
  /** Short name, e.g. `cp` or `workload-1`. */
  name: string;
  /** Kube context name, e.g. `kind-cp`. */
  context: string;
  index: number;
  /** This cluster's state directory (certificates, etcd data, logs). */
  dir: string;
  ports: ClusterPorts;
}

const pkiFile = (spec: ClusterSpec, name: string) => path.join(spec.dir, 'pki', name);
const componentsKubeconfig = (spec: ClusterSpec) => path.join(spec.dir, 'components.kubeconfig');

function etcdArgs(spec: ClusterSpec): string[] {
  return [
    `--name=${spec.name}`,
    `--data-dir=${path.join(spec.dir, 'etcd')}`,
    `--listen-client-urls=http://127.0.0.1:${spec.ports.etcdClient}`,
    `--advertise-client-urls=http://127.0.0.1:${spec.ports.etcdClient}`,
    `--listen-peer-urls=http://127.0.0.1:${spec.ports.etcdPeer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${spec.ports.etcdPeer}`,
    `--initial-cluster=${spec.name}=http://127.0.0.1:${spec.ports.etcdPeer}`,
    '--quota-backend-bytes=2147483648',
    '--log-level=warn',
  ];
}

/** The API server on loopback, with the cluster's certificates, RBAC and its audit log (see audit.ts). */
function apiserverArgs(spec: ClusterSpec): string[] {
  const pki = (n: string) => pkiFile(spec, n);
  return [
    `--etcd-servers=http://127.0.0.1:${spec.ports.etcdClient}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${spec.ports.apiserver}`,
    '--insecure-port=0',
    `--cert-dir=${path.join(spec.dir, 'apiserver-certs')}`,
    `--tls-cert-file=${pki('apiserver.crt')}`,
    `--tls-private-key-file=${pki('apiserver.key')}`,
    `--client-ca-file=${pki('ca.crt')}`,
    // Logs, exec and port-forward go to the simulated kubelets' API (sim/kubelet-server.ts).
    `--kubelet-client-certificate=${pki('apiserver-kubelet-client.crt')}`,
    `--kubelet-client-key=${pki('apiserver-kubelet-client.key')}`,
    `--kubelet-certificate-authority=${pki('ca.crt')}`,
    '--kubelet-preferred-address-types=InternalIP',
    `--service-account-key-file=${pki('sa.pub')}`,
    `--service-account-signing-key-file=${pki('sa.key')}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    '--service-cluster-ip-range=10.96.0.0/16',
    '--authorization-mode=RBAC',
    '--allow-privileged=true',
    ...auditArgs(spec.dir),
    '--profiling=false',
    '--v=0',
  ];
}

function controllerManagerArgs(spec: ClusterSpec): string[] {
  const kubeconfig = componentsKubeconfig(spec);
  return [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    `--service-account-private-key-file=${pkiFile(spec, 'sa.key')}`,
    `--root-ca-file=${pkiFile(spec, 'ca.crt')}`,
    `--cluster-signing-cert-file=${pkiFile(spec, 'ca.crt')}`,
    `--cluster-signing-key-file=${pkiFile(spec, 'ca.key')}`,
    '--controllers=*',
    '--port=0',
    '--secure-port=0',
    '--v=0',
  ];
}

function schedulerArgs(spec: ClusterSpec): string[] {
  const kubeconfig = componentsKubeconfig(spec);
  return [
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--port=0',
    '--secure-port=0',
    '--v=0',
  ];
}

/** The command-line flags of one of the cluster's processes. */
export function roleArgs(role: Role, spec: ClusterSpec): string[] {
  switch (role) {
    case 'etcd':
      return etcdArgs(spec);
    case 'kube-apiserver':
      return apiserverArgs(spec);
    case 'kube-controller-manager':
      return controllerManagerArgs(spec);
    case 'kube-scheduler':
      return schedulerArgs(spec);
  }
}

export interface Spawned {
  role: Role;
  pid: number;
}

/**
 * Runs one cluster's processes as children of the calling process, logs under
 * `<dir>/logs/`. Stops them in reverse order.
 */
export class ClusterProcesses {
  private children = new Map<Role, ChildProcess>();
  private closed = false;

  constructor(
    readonly spec: ClusterSpec,
    private readonly binaries: Binaries,
    private readonly onChange: (role: Role, pid: number | undefined) => void = () => {},
  ) {}

  pids(): Spawned[] {
    return [...this.children].flatMap(([role, c]) => (c.pid && c.exitCode === null ? [{ role, pid: c.pid }] : []));
  }

  running(role: Role): boolean {
    const c = this.children.get(role);
    return !!c && c.exitCode === null && c.signalCode === null;
  }

  spawn(role: Role): ChildProcess {
    if (this.closed) throw new Error(`${this.spec.context} is shutting down; not starting ${role}`);
    const logs = path.join(this.spec.dir, 'logs');
    fs.mkdirSync(logs, { recursive: true });
    const out = fs.openSync(path.join(logs, `${role}.log`), 'a');
    const bin = this.binaries[role];
    const child = spawn(bin, roleArgs(role, this.spec), { stdio: ['ignore', out, out], env: { ...process.env, HOME: this.spec.dir } });
    fs.closeSync(out);
    this.children.set(role, child);
    if (child.pid) this.onChange(role, child.pid);
    child.on('exit', () => {
      if (this.children.get(role) === child) this.onChange(role, undefined);
    });
    return child;
  }

  async stopRole(role: Role, graceMs = 5000): Promise<void> {
    const c = this.children.get(role);
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    c.kill('SIGTERM');
    const t = setTimeout(() => c.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(t);
  }

  async stopAll(): Promise<void> {
    this.closed = true;
    for (const role of ['kube-scheduler', 'kube-controller-manager', 'kube-apiserver', 'etcd'] as Role[]) {
      await this.stopRole(role);
    }
  }

  /** SIGKILL everything now (used when the parent itself must exit immediately). */
  killAllSync(): void {
    for (const c of this.children.values()) if (c.exitCode === null) c.kill('SIGKILL');
  }

  logFile(role: Role): string {
    return path.join(this.spec.dir, 'logs', `${role}.log`);
  }
}

/** Polls until `check` resolves true, or throws with `what` after `timeoutMs`. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    signal?.throwIfAborted();
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not become ready within ${Math.round(timeoutMs / 1000)} s`);
}

export async function etcdHealthy(port: number): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) });
  if (!res.ok) return false;
  const body = (await res.json()) as { health?: string };
  return body.health === 'true';
}

export async function apiserverReady(kc: KubeConfig): Promise<boolean> {
  return new Health(kc).readyz({ signal: AbortSignal.timeout(2000) });
}

/**
 * True once pods can be created in namespace `default`: its ServiceAccount has the token
 * Secret the ServiceAccount admission plugin mounts (until then it refuses pods).
 */
export async function defaultTokenReady(kc: KubeConfig): Promise<boolean> {
  const sa = await makeClient(kc, CoreV1Api, 2000).readNamespacedServiceAccount({ name: 'default', namespace: 'default' });
  return (sa.secrets?.length ?? 0) > 0;
}
