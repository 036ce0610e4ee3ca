import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Health, KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { createAuthority, issueCertificate, keyPairPem, type KeyMaterial } from '../kube/pki.js';
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

/** What a kubeconfig needs to reach the cluster. PEM strings; keys are never printed. */
export interface ClusterAccess {
  server: string;
  caPem: string;
  admin: KeyMaterial;
  viewer: KeyMaterial;
}

export const ADMIN_USER = 'fleetdeck-admin';
export const VIEWER_USER = 'fleetdeck-viewer';
export const VIEWER_ROLE = 'fleetdeck:read-only';
const CERT_DAYS = 365;

function writeSecret(file: string, data: string): void {
  fs.writeFileSync(file, data, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/**
 * Generates the cluster's CA, the API server's serving certificate (127.0.0.1, localhost),
 * the admin (system:masters) and read-only client certificates, and the service-account
 * key pair. Idempotent: existing files are kept.
 */
export async function prepareClusterFiles(spec: ClusterSpec): Promise<ClusterAccess> {
  const pkiDir = path.join(spec.dir, 'pki');
  fs.mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
  const file = (n: string) => path.join(pkiDir, n);
  if (!fs.existsSync(file('viewer.key'))) {
    const ca = await createAuthority(`fleetdeck-sandbox-${spec.name}-ca`, CERT_DAYS);
    const serving = await issueCertificate(ca, {
      commonName: 'kube-apiserver',
      hosts: ['127.0.0.1', 'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
      usage: 'server',
      days: CERT_DAYS,
    });
    const admin = await issueCertificate(ca, {
      commonName: ADMIN_USER,
      organizations: ['system:masters'],
      usage: 'client',
      days: CERT_DAYS,
    });
    const viewer = await issueCertificate(ca, { commonName: VIEWER_USER, usage: 'client', days: CERT_DAYS });
    const sa = await keyPairPem();
    fs.writeFileSync(file('ca.crt'), ca.certPem);
    writeSecret(file('ca.key'), ca.keyPem);
    fs.writeFileSync(file('apiserver.crt'), serving.certPem);
    writeSecret(file('apiserver.key'), serving.keyPem);
    fs.writeFileSync(file('admin.crt'), admin.certPem);
    writeSecret(file('admin.key'), admin.keyPem);
    fs.writeFileSync(file('sa.pub'), sa.publicKeyPem);
    writeSecret(file('sa.key'), sa.privateKeyPem);
    fs.writeFileSync(file('viewer.crt'), viewer.certPem);
    writeSecret(file('viewer.key'), viewer.keyPem); // written last: marks the set complete
  }
  const read = (n: string) => fs.readFileSync(file(n), 'utf8');
  const access: ClusterAccess = {
    server: `https://127.0.0.1:${spec.ports.apiserver}`,
    caPem: read('ca.crt'),
    admin: { certPem: read('admin.crt'), keyPem: read('admin.key') },
    viewer: { certPem: read('viewer.crt'), keyPem: read('viewer.key') },
  };
  // Kubeconfig for the controller manager and scheduler (admin credentials, files by path).
  writeSecret(
    path.join(spec.dir, 'components.kubeconfig'),
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: spec.name, cluster: { server: access.server, 'certificate-authority': file('ca.crt') } }],
      users: [{ name: ADMIN_USER, user: { 'client-certificate': file('admin.crt'), 'client-key': file('admin.key') } }],
      contexts: [{ name: spec.context, context: { cluster: spec.name, user: ADMIN_USER } }],
      'current-context': spec.context,
    }),
  );
  return access;
}

/** An in-memory KubeConfig for one sandbox cluster and one of its users. */
export function accessConfig(spec: Pick<ClusterSpec, 'name' | 'context'>, access: ClusterAccess, as: 'admin' | 'viewer' = 'admin'): KubeConfig {
  const user = as === 'admin' ? access.admin : access.viewer;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: spec.name, server: access.server, caData: b64(access.caPem), skipTLSVerify: false }],
    users: [{ name: as, certData: b64(user.certPem), keyData: b64(user.keyPem) }],
    contexts: [{ name: spec.context, cluster: spec.name, user: as }],
    currentContext: spec.context,
  });
  return kc;
}

export function b64(s: string): string {
  return Buffer.from(s).toString('base64');
}

export function roleArgs(role: Role, spec: ClusterSpec): string[] {
  const pki = (n: string) => path.join(spec.dir, 'pki', n);
  const kubeconfig = path.join(spec.dir, 'components.kubeconfig');
  switch (role) {
    case 'etcd':
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
    case 'kube-apiserver':
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
        `--service-account-key-file=${pki('sa.pub')}`,
        `--service-account-signing-key-file=${pki('sa.key')}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        '--service-cluster-ip-range=10.96.0.0/16',
        '--authorization-mode=RBAC',
        '--disable-admission-plugins=ServiceAccount',
        '--allow-privileged=true',
        '--profiling=false',
        '--v=0',
      ];
    case 'kube-controller-manager':
      return [
        `--kubeconfig=${kubeconfig}`,
        `--authentication-kubeconfig=${kubeconfig}`,
        `--authorization-kubeconfig=${kubeconfig}`,
        '--leader-elect=false',
        `--service-account-private-key-file=${pki('sa.key')}`,
        `--root-ca-file=${pki('ca.crt')}`,
        `--cluster-signing-cert-file=${pki('ca.crt')}`,
        `--cluster-signing-key-file=${pki('ca.key')}`,
        '--controllers=*,-serviceaccount-token',
        '--port=0',
        '--secure-port=0',
        '--v=0',
      ];
    case 'kube-scheduler':
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
