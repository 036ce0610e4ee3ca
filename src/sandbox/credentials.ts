import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { authorityFromPem, createAuthority, issueCertificate, keyPairPem, type KeyMaterial } from '../kube/certs/pki.js';
import type { ClusterSpec } from './cluster.js';

/** The people's users: in the kubeconfig as `<context>-admin` (system:masters) and `<context>-viewer`. */
export const ADMIN_USER = 'fleetdeck-admin';
export const VIEWER_USER = 'fleetdeck-viewer';
/**
 * The sandbox's own user (system:masters): its controller manager, scheduler, simulated kubelet,
 * load balancer and provisioner, and the supervisor's probes. Never in a kubeconfig, so in the
 * audit log whatever a person or fleetdeck did is told apart from what the sandbox does itself.
 */
export const SIM_USER = 'sandbox-sim';
const CERT_DAYS = 365;

/** What a kubeconfig needs to reach the cluster. PEM strings; keys are never printed. */
export interface ClusterAccess {
  server: string;
  caPem: string;
  admin: KeyMaterial;
  viewer: KeyMaterial;
  sim: KeyMaterial;
}

export type AccessAs = 'admin' | 'viewer' | 'sim';

function writeSecret(file: string, data: string): void {
  fs.writeFileSync(file, data, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** The cluster's CA, serving certificate, client certificates and service-account key pair, written under `pki`. */
async function generatePki(spec: ClusterSpec, file: (n: string) => string): Promise<void> {
  const ca = await createAuthority(`fleetdeck-sandbox-${spec.name}-ca`, CERT_DAYS);
  const serving = await issueCertificate(ca, {
    commonName: 'kube-apiserver',
    hosts: ['127.0.0.1', 'localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
    usage: 'server',
    days: CERT_DAYS,
  });
  const admin = await issueCertificate(ca, { commonName: ADMIN_USER, organizations: ['system:masters'], usage: 'client', days: CERT_DAYS });
  const viewer = await issueCertificate(ca, { commonName: VIEWER_USER, usage: 'client', days: CERT_DAYS });
  const sim = await issueCertificate(ca, { commonName: SIM_USER, organizations: ['system:masters'], usage: 'client', days: CERT_DAYS });
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
  writeSecret(file('viewer.key'), viewer.keyPem);
  fs.writeFileSync(file('sim.crt'), sim.certPem);
  writeSecret(file('sim.key'), sim.keyPem); // written last: marks the set complete
}

/** The API server's client certificate for the kubelets (CN and group as kubeadm issues it). */
export const KUBELET_CLIENT_USER = 'kube-apiserver-kubelet-client';

/** The IP SANs of the kubelet serving certificate: every node address the cluster can have (127.1.<index>.1–254). */
export function nodeAddresses(clusterIndex: number): string[] {
  return Array.from({ length: 254 }, (_, i) => `127.1.${clusterIndex}.${i + 1}`);
}

/**
 * The kubelets' serving certificate (one for every node address of the cluster) and the API
 * server's kubelet client certificate, signed by the cluster CA; written when missing, so a
 * sandbox directory from before they existed still comes up.
 */
async function generateKubeletPki(spec: ClusterSpec, file: (n: string) => string): Promise<void> {
  if (fs.existsSync(file('kubelet.key')) && fs.existsSync(file('apiserver-kubelet-client.key'))) return;
  const ca = authorityFromPem(fs.readFileSync(file('ca.crt'), 'utf8'), fs.readFileSync(file('ca.key'), 'utf8'));
  const serving = await issueCertificate(ca, {
    commonName: `${spec.name}-kubelet`,
    hosts: nodeAddresses(spec.index),
    usage: 'server',
    days: CERT_DAYS,
  });
  const client = await issueCertificate(ca, {
    commonName: KUBELET_CLIENT_USER,
    organizations: ['system:masters'],
    usage: 'client',
    days: CERT_DAYS,
  });
  fs.writeFileSync(file('kubelet.crt'), serving.certPem);
  writeSecret(file('kubelet.key'), serving.keyPem);
  fs.writeFileSync(file('apiserver-kubelet-client.crt'), client.certPem);
  writeSecret(file('apiserver-kubelet-client.key'), client.keyPem); // written last: marks the set complete
}

/**
 * Generates the cluster's CA, the API server's serving certificate (127.0.0.1, localhost),
 * the admin (system:masters), read-only and sandbox (system:masters) client certificates, the
 * service-account key pair, the kubelets' serving and the API server's kubelet client certificate; writes the kubeconfig of the controller manager and scheduler
 * (the sandbox's own user). Idempotent: existing files are kept.
 */
export async function prepareClusterFiles(spec: ClusterSpec): Promise<ClusterAccess> {
  const pkiDir = path.join(spec.dir, 'pki');
  fs.mkdirSync(pkiDir, { recursive: true, mode: 0o700 });
  const file = (n: string) => path.join(pkiDir, n);
  if (!fs.existsSync(file('sim.key'))) await generatePki(spec, file);
  await generateKubeletPki(spec, file);
  const read = (n: string) => fs.readFileSync(file(n), 'utf8');
  const access: ClusterAccess = {
    server: `https://127.0.0.1:${spec.ports.apiserver}`,
    caPem: read('ca.crt'),
    admin: { certPem: read('admin.crt'), keyPem: read('admin.key') },
    viewer: { certPem: read('viewer.crt'), keyPem: read('viewer.key') },
    sim: { certPem: read('sim.crt'), keyPem: read('sim.key') },
  };
  // Kubeconfig for the controller manager and scheduler (the sandbox's user, files by path).
  writeSecret(
    path.join(spec.dir, 'components.kubeconfig'),
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: spec.name, cluster: { server: access.server, 'certificate-authority': file('ca.crt') } }],
      users: [{ name: SIM_USER, user: { 'client-certificate': file('sim.crt'), 'client-key': file('sim.key') } }],
      contexts: [{ name: spec.context, context: { cluster: spec.name, user: SIM_USER } }],
      'current-context': spec.context,
    }),
  );
  return access;
}

/** An in-memory KubeConfig for one sandbox cluster and one of its users. */
export function accessConfig(spec: Pick<ClusterSpec, 'name' | 'context'>, access: ClusterAccess, as: AccessAs = 'admin'): KubeConfig {
  const user = access[as];
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
