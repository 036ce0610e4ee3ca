/** The certificate tests' expectations (every CA and leaf of a set), lookups, and a new set made once per file. */
import crypto, { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import forge from 'node-forge';
import { vi } from 'vitest';
import { type CertSet, type CertSetResult, type KeyMaterial, generateCertSet } from '../../../src/install/certs/index.js';

// Private keys never appear in an assertion's values: keys are compared through booleans or
// public-key fingerprints, so a failure message cannot print one.

export const NS = 'elotl';
export const LB_IP = '203.0.113.10';
export const DAY = 86_400_000;
export const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
export const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
export const SLOW = 60_000;

export const opts = (over: Partial<Parameters<typeof generateCertSet>[0]> = {}) => ({
  namespace: NS,
  apiserverAddress: { ip: LB_IP },
  etcdMembers: 3,
  ...over,
});

export type CaName = 'clusterCA' | 'etcdCA' | 'frontProxyCA';
interface Leaf {
  id: string;
  ca: CaName;
  cn: string;
  orgs: string[];
  eku: string[];
  get(s: CertSet): KeyMaterial;
}

export const LEAVES: Leaf[] = [
  { id: 'apiserver', ca: 'clusterCA', cn: 'kube-apiserver', orgs: [], eku: [SERVER_AUTH], get: (s) => s.apiserver },
  {
    id: 'apiserver-etcd-client',
    ca: 'etcdCA',
    cn: 'kube-apiserver-etcd-client',
    orgs: [],
    eku: [CLIENT_AUTH],
    get: (s) => s.apiserverEtcdClient,
  },
  { id: 'front-proxy-client', ca: 'frontProxyCA', cn: 'front-proxy-client', orgs: [], eku: [CLIENT_AUTH], get: (s) => s.frontProxyClient },
  ...[0, 1, 2].flatMap((i): Leaf[] =>
    (['server', 'peer'] as const).map((role) => ({
      id: `etcd-${i}-${role}`,
      ca: 'etcdCA' as const,
      cn: `etcd-${i}`,
      orgs: [],
      eku: [SERVER_AUTH, CLIENT_AUTH],
      get: (s: CertSet) => s.etcd[i]![role],
    })),
  ),
  {
    id: 'controller-manager',
    ca: 'clusterCA',
    cn: 'system:kube-controller-manager',
    orgs: [],
    eku: [CLIENT_AUTH],
    get: (s) => s.controllerManager,
  },
  { id: 'scheduler', ca: 'clusterCA', cn: 'system:kube-scheduler', orgs: [], eku: [CLIENT_AUTH], get: (s) => s.scheduler },
  { id: 'admin', ca: 'clusterCA', cn: 'nova-admin', orgs: ['system:masters'], eku: [CLIENT_AUTH], get: (s) => s.admin },
  {
    id: 'agent-bootstrap',
    ca: 'clusterCA',
    cn: 'nova-agent-bootstrap',
    orgs: ['nova:agents'],
    eku: [CLIENT_AUTH],
    get: (s) => s.agentBootstrap,
  },
];

export const CAS: { field: CaName; cn: string }[] = [
  { field: 'clusterCA', cn: 'nova-ca' },
  { field: 'etcdCA', cn: 'nova-etcd-ca' },
  { field: 'frontProxyCA', cn: 'nova-front-proxy-ca' },
];

export const x509 = (pem: string) => new X509Certificate(pem);
export const b64d = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString('utf8');
/** SHA-256 of the public key: stands for a private key in assertions. */
export const keyId = (privateKeyPem: string) =>
  crypto
    .createHash('sha256')
    .update(createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' }))
    .digest('hex');
export const certKeyId = (certPem: string) =>
  crypto
    .createHash('sha256')
    .update(x509(certPem).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
export const subjectLines = (x: X509Certificate) => x.subject.split('\n').filter(Boolean);
export const forgeExt = (pem: string, name: string) =>
  forge.pki.certificateFromPem(pem).getExtension(name) as Record<string, unknown> | null;
export const actionOf = (r: CertSetResult, id: string) => r.actions.find((a) => a.id === id);
export const allCertPems = (s: CertSet) => [
  s.clusterCA.certPem,
  s.etcdCA.certPem,
  s.frontProxyCA.certPem,
  ...LEAVES.map((l) => l.get(s).certPem),
];

/** A new set made with `opts()`: the result, and the event loop's ticks and Node's key generations while it was made. */
export async function newCertSet(): Promise<{ result: CertSetResult; ticks: number; nativeKeygens: number }> {
  const spy = vi.spyOn(crypto, 'generateKeyPair');
  // Turns of the event loop while the set is generated: each setImmediate runs on the next turn.
  let ticks = 0;
  let running = true;
  const turn = () => {
    ticks++;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    const result = await generateCertSet(opts());
    return { result, ticks, nativeKeygens: spy.mock.calls.length };
  } finally {
    running = false;
    spy.mockRestore();
  }
}

export interface KubeconfigDoc {
  'current-context': string;
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { 'client-certificate-data': string; 'client-key-data': string } }[];
  contexts: { name: string; context: { cluster: string; user: string } }[];
}
