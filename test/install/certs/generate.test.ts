import { execFileSync } from 'node:child_process';
import crypto, { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { UserError } from '../../../src/errors.js';
import {
  CERT_SECRET_LABELS,
  CERT_SECRET_NAMES,
  type CertSet,
  type CertSetResult,
  CertReuseError,
  type KeyMaterial,
  type PartialCertSet,
  adminKubeconfig,
  apiserverUrl,
  certFingerprints,
  certSecrets,
  certSetCounts,
  certSetFromSecrets,
  describeCertSet,
  generateCertSet,
  initKubeconfig,
  servingCertCovers,
} from '../../../src/install/certs/index.js';
import { generateKeyPair } from '../../../src/kube/certs/pki.js';

// Private keys never appear in an assertion's values: keys are compared through booleans or
// public-key fingerprints, so a failure message cannot print one.

const NS = 'elotl';
const LB_IP = '203.0.113.10';
const DAY = 86_400_000;
const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const SLOW = 60_000;

const opts = (over: Partial<Parameters<typeof generateCertSet>[0]> = {}) => ({
  namespace: NS,
  apiserverAddress: { ip: LB_IP },
  etcdMembers: 3,
  ...over,
});

type CaName = 'clusterCA' | 'etcdCA' | 'frontProxyCA';
interface Leaf {
  id: string;
  ca: CaName;
  cn: string;
  orgs: string[];
  eku: string[];
  get(s: CertSet): KeyMaterial;
}

const LEAVES: Leaf[] = [
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

const CAS: { field: CaName; cn: string }[] = [
  { field: 'clusterCA', cn: 'nova-ca' },
  { field: 'etcdCA', cn: 'nova-etcd-ca' },
  { field: 'frontProxyCA', cn: 'nova-front-proxy-ca' },
];

const x509 = (pem: string) => new X509Certificate(pem);
const b64d = (s: string | undefined) => Buffer.from(s ?? '', 'base64').toString('utf8');
/** SHA-256 of the public key: stands for a private key in assertions. */
const keyId = (privateKeyPem: string) =>
  crypto
    .createHash('sha256')
    .update(createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' }))
    .digest('hex');
const certKeyId = (certPem: string) =>
  crypto
    .createHash('sha256')
    .update(x509(certPem).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex');
const subjectLines = (x: X509Certificate) => x.subject.split('\n').filter(Boolean);
const forgeExt = (pem: string, name: string) => forge.pki.certificateFromPem(pem).getExtension(name) as Record<string, unknown> | null;
const actionOf = (r: CertSetResult, id: string) => r.actions.find((a) => a.id === id);
const allCertPems = (s: CertSet) => [s.clusterCA.certPem, s.etcdCA.certPem, s.frontProxyCA.certPem, ...LEAVES.map((l) => l.get(s).certPem)];

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let first: CertSetResult;
let ticksDuringFirst = 0;
let nativeKeygensDuringFirst = 0;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-certs-'));
  const spy = vi.spyOn(crypto, 'generateKeyPair');
  const timer = setInterval(() => ticksDuringFirst++, 10);
  try {
    first = await generateCertSet(opts());
  } finally {
    clearInterval(timer);
    nativeKeygensDuringFirst = spy.mock.calls.length;
    spy.mockRestore();
  }
}, SLOW);

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('generateCertSet: a new set', () => {
  it('creates every CA, leaf and key pair, saying so', () => {
    // Given a first run with nothing in the cluster, then every item is reported as created
    const ids = first.actions.map((a) => a.id);
    expect(ids).toEqual(['cluster-ca', 'etcd-ca', 'front-proxy-ca', ...LEAVES.map((l) => l.id), 'service-account-key']);
    for (const a of first.actions) expect([a.id, a.action, a.reason]).toEqual([a.id, 'created', 'none found']);
    expect(certSetCounts(3)).toEqual({ certificates: 16, keys: 17 });
    expect(allCertPems(first.set)).toHaveLength(16);
  });

  it('makes self-signed CAs with their names, CA constraints and key usages', () => {
    for (const { field, cn } of CAS) {
      const x = x509(first.set[field].certPem);
      expect(x.ca, field).toBe(true);
      expect(subjectLines(x), field).toEqual([`CN=${cn}`]);
      expect(x.checkIssued(x), field).toBe(true);
      expect(x.verify(x.publicKey), field).toBe(true);
      const bc = forgeExt(first.set[field].certPem, 'basicConstraints');
      expect([bc?.cA, bc?.critical], field).toEqual([true, true]);
      const ku = forgeExt(first.set[field].certPem, 'keyUsage');
      expect([ku?.keyCertSign, ku?.cRLSign, ku?.digitalSignature], field).toEqual([true, true, true]);
    }
  });

  it('signs every leaf with its CA (node:crypto verify and checkIssued), and only with it', () => {
    for (const l of LEAVES) {
      const leaf = x509(l.get(first.set).certPem);
      const ca = x509(first.set[l.ca].certPem);
      expect(leaf.verify(ca.publicKey), l.id).toBe(true);
      expect(leaf.checkIssued(ca), l.id).toBe(true);
      expect(leaf.ca, l.id).toBe(false);
      for (const other of CAS.filter((c) => c.field !== l.ca)) {
        expect(leaf.checkIssued(x509(first.set[other.field].certPem)), `${l.id} vs ${other.field}`).toBe(false);
      }
    }
  });

  it.skipIf(!hasOpenssl())('passes openssl verify against its CA file, with the purpose of its usage', () => {
    const file = (name: string, pem: string) => {
      const p = path.join(tmp, name);
      fs.writeFileSync(p, pem); // certificates only: no key is written
      return p;
    };
    const caFiles = Object.fromEntries(CAS.map((c) => [c.field, file(`${c.field}.crt`, first.set[c.field].certPem)])) as Record<
      CaName,
      string
    >;
    for (const l of LEAVES) {
      const leaf = file(`${l.id}.crt`, l.get(first.set).certPem);
      const purposes = [...(l.eku.includes(SERVER_AUTH) ? ['sslserver'] : []), ...(l.eku.includes(CLIENT_AUTH) ? ['sslclient'] : [])];
      for (const purpose of purposes) {
        const out = execFileSync('openssl', ['verify', '-x509_strict', '-purpose', purpose, '-CAfile', caFiles[l.ca], leaf], {
          encoding: 'utf8',
        });
        expect(out.trim(), `${l.id} ${purpose}`).toBe(`${leaf}: OK`);
      }
      // and not against another CA
      const other = CAS.find((c) => c.field !== l.ca)!.field;
      let ok = true;
      try {
        execFileSync('openssl', ['verify', '-CAfile', caFiles[other], leaf], { stdio: 'pipe' });
      } catch {
        ok = false;
      }
      expect(ok, `${l.id} verified by ${other}`).toBe(false);
    }
    // The serving certificate's usages as openssl prints them.
    const text = execFileSync('openssl', ['x509', '-noout', '-text', '-in', path.join(tmp, 'apiserver.crt')], { encoding: 'utf8' });
    expect(text).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment/);
    expect(text).toMatch(/X509v3 Extended Key Usage:\s+TLS Web Server Authentication\n/);
    expect(text).toContain('Signature Algorithm: sha256WithRSAEncryption');
  });

  it('gives every leaf its subject, key usage and extended key usage', () => {
    for (const l of LEAVES) {
      const pem = l.get(first.set).certPem;
      const x = x509(pem);
      expect(subjectLines(x), l.id).toEqual([...l.orgs.map((o) => `O=${o}`), `CN=${l.cn}`]);
      expect([...x.keyUsage].sort(), l.id).toEqual([...l.eku].sort());
      const ku = forgeExt(pem, 'keyUsage');
      expect([ku?.digitalSignature, ku?.keyEncipherment, ku?.keyCertSign ?? false], l.id).toEqual([true, true, false]);
    }
  });

  it('puts the assigned address and the Service names in the serving certificate', () => {
    const x = x509(first.set.apiserver.certPem);
    for (const dns of [
      'apiserver',
      `apiserver.${NS}`,
      `apiserver.${NS}.svc`,
      `apiserver.${NS}.svc.cluster.local`,
      'kubernetes',
      'kubernetes.default',
      'kubernetes.default.svc',
      'kubernetes.default.svc.cluster.local',
      'localhost',
    ]) {
      expect(x.checkHost(dns, { subject: 'never' }), dns).toBe(dns);
    }
    for (const ip of [LB_IP, '127.0.0.1', '10.96.0.1']) expect(x.checkIP(ip), ip).toBe(ip);
    expect(x.checkIP('203.0.113.11')).toBeUndefined();
    expect(x.checkHost(`apiserver.other.svc`)).toBeUndefined();
    expect(servingCertCovers(first.set.apiserver.certPem, { ip: LB_IP })).toBe(true);
    expect(servingCertCovers(first.set.apiserver.certPem, { ip: '198.51.100.1' })).toBe(false);
    expect(servingCertCovers(first.set.apiserver.certPem, { hostname: 'lb.example.com' })).toBe(false);
    expect(servingCertCovers(first.set.apiserver.certPem, {})).toBe(false);
    expect(servingCertCovers('not a certificate', { ip: LB_IP })).toBe(false);
  });

  it("puts each etcd member's DNS names in its server and peer certificates, and not the other members'", () => {
    for (let i = 0; i < 3; i++) {
      for (const role of ['server', 'peer'] as const) {
        const x = x509(first.set.etcd[i]![role].certPem);
        const names = [
          `etcd-${i}.etcd.${NS}.svc`,
          `etcd-${i}.etcd.${NS}.svc.cluster.local`,
          `etcd-${i}`,
          `etcd.${NS}.svc`,
          `etcd.${NS}.svc.cluster.local`,
          'localhost',
        ];
        for (const n of names) expect(x.checkHost(n, { subject: 'never' }), `etcd-${i}-${role} ${n}`).toBe(n);
        expect(x.checkIP('127.0.0.1'), `etcd-${i}-${role}`).toBe('127.0.0.1');
        const j = (i + 1) % 3;
        expect(x.checkHost(`etcd-${j}.etcd.${NS}.svc`, { subject: 'never' }), `etcd-${i}-${role} vs etcd-${j}`).toBeUndefined();
      }
    }
  });

  it('is valid for 10 years by default (and no leaf outlives its CA)', () => {
    for (const pem of allCertPems(first.set)) {
      const x = x509(pem);
      const days = (x.validToDate.getTime() - Date.now()) / DAY;
      expect(days).toBeGreaterThan(3649);
      expect(days).toBeLessThanOrEqual(3650);
      expect(x.validFromDate.getTime()).toBeLessThanOrEqual(Date.now());
    }
    for (const l of LEAVES) {
      expect(x509(l.get(first.set).certPem).validToDate.getTime()).toBeLessThanOrEqual(x509(first.set[l.ca].certPem).validToDate.getTime());
    }
  });

  it('uses RSA 2048 keys in PKCS#8 PEM that belong to their certificates', () => {
    const pairs: [string, KeyMaterial][] = [
      ...CAS.map((c): [string, KeyMaterial] => [c.field, first.set[c.field]]),
      ...LEAVES.map((l): [string, KeyMaterial] => [l.id, l.get(first.set)]),
    ];
    for (const [id, km] of pairs) {
      const key = createPrivateKey(km.keyPem);
      expect([key.asymmetricKeyType, key.asymmetricKeyDetails?.modulusLength], id).toEqual(['rsa', 2048]);
      expect(km.keyPem.startsWith('-----BEGIN PRIVATE KEY-----'), id).toBe(true);
      expect(x509(km.certPem).publicKey.asymmetricKeyDetails?.modulusLength, id).toBe(2048);
      expect(keyId(km.keyPem) === certKeyId(km.certPem), id).toBe(true);
    }
    const sa = first.set.serviceAccount;
    expect(createPrivateKey(sa.privateKeyPem).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(sa.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(
      keyId(sa.privateKeyPem) ===
        crypto
          .createHash('sha256')
          .update(createPublicKey(sa.publicKeyPem).export({ type: 'spki', format: 'der' }))
          .digest('hex'),
    ).toBe(true);
    // every key is its own
    const ids = new Set([...pairs.map(([, km]) => keyId(km.keyPem)), keyId(sa.privateKeyPem)]);
    expect(ids.size).toBe(17);
  });

  it("generates the keys with Node's native generator (one call per key), forge's generator included", async () => {
    expect(nativeKeygensDuringFirst).toBe(certSetCounts(3).keys);
    const spy = vi.spyOn(crypto, 'generateKeyPair');
    try {
      await generateKeyPair();
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('keeps the event loop running while the set is generated', () => {
    // A 10 ms interval kept ticking during the whole generation in beforeAll.
    expect(ticksDuringFirst).toBeGreaterThanOrEqual(5);
  });
});

describe('Secrets and kubeconfigs', () => {
  it("writes the install's Secrets: Opaque, labelled, namespaced, base64 data with exactly the table's keys", () => {
    const secrets = certSecrets(first.set, NS);
    expect(secrets.map((s) => s.metadata?.name)).toEqual([...CERT_SECRET_NAMES]);
    const etcdKeys = [0, 1, 2].flatMap((i) => ['server', 'peer'].flatMap((r) => [`etcd-${i}-${r}.crt`, `etcd-${i}-${r}.key`]));
    const expected: Record<string, string[]> = {
      'nova-ca': ['ca.crt', 'ca.key'],
      'nova-etcd-ca': ['ca.crt', 'ca.key'],
      'nova-front-proxy-ca': ['ca.crt', 'ca.key'],
      'nova-apiserver-certs': [
        'ca.crt',
        'apiserver.crt',
        'apiserver.key',
        'apiserver-etcd-client.crt',
        'apiserver-etcd-client.key',
        'etcd-ca.crt',
        'front-proxy-ca.crt',
        'front-proxy-client.crt',
        'front-proxy-client.key',
        'sa.pub',
        'sa.key',
      ],
      'nova-etcd-certs': ['ca.crt', ...etcdKeys],
      'nova-controller-manager': ['ca.crt', 'ca.key', 'sa.key', 'kubeconfig'],
      'nova-scheduler': ['kubeconfig'],
      'nova-admin': ['tls.crt', 'tls.key'],
      'nova-agent-bootstrap': ['tls.crt', 'tls.key'],
    };
    for (const s of secrets) {
      const name = s.metadata!.name!;
      expect([s.apiVersion, s.kind, s.type, s.metadata?.namespace], name).toEqual(['v1', 'Secret', 'Opaque', NS]);
      expect(s.metadata?.labels, name).toEqual({ 'app.kubernetes.io/managed-by': 'fleetdeck', 'app.kubernetes.io/part-of': 'nova' });
      expect(s.metadata?.labels, name).toEqual(CERT_SECRET_LABELS);
      expect(s.stringData, name).toBeUndefined();
      expect(Object.keys(s.data ?? {}).sort(), name).toEqual([...expected[name]!].sort());
      for (const [k, v] of Object.entries(s.data ?? {})) {
        expect(/^[A-Za-z0-9+/]+=*$/.test(v), `${name}/${k} is base64`).toBe(true);
        const text = b64d(v);
        const kind = k.endsWith('.crt') ? 'CERTIFICATE' : k.endsWith('.key') ? 'PRIVATE KEY' : k === 'sa.pub' ? 'PUBLIC KEY' : undefined;
        if (kind) expect(text.startsWith(`-----BEGIN ${kind}-----`), `${name}/${k} is a PEM ${kind}`).toBe(true);
      }
    }
    const api = secrets.find((s) => s.metadata?.name === 'nova-apiserver-certs')!.data!;
    expect(b64d(api['ca.crt'])).toBe(first.set.clusterCA.certPem);
    expect(b64d(api['etcd-ca.crt'])).toBe(first.set.etcdCA.certPem);
    expect(b64d(api['front-proxy-ca.crt'])).toBe(first.set.frontProxyCA.certPem);
    expect(() => certSecrets(first.set, 'other')).toThrow(/namespace/);
  });

  it('gives the controller-manager and the scheduler kubeconfigs for the in-cluster Service with their client certificates', () => {
    const secrets = certSecrets(first.set, NS);
    for (const [name, cn] of [
      ['nova-controller-manager', 'system:kube-controller-manager'],
      ['nova-scheduler', 'system:kube-scheduler'],
    ] as const) {
      const kc = parseYaml(b64d(secrets.find((s) => s.metadata?.name === name)!.data!.kubeconfig)) as KubeconfigDoc;
      expect(kc.clusters[0]!.cluster.server, name).toBe(`https://apiserver.${NS}.svc:443`);
      expect(b64d(kc.clusters[0]!.cluster['certificate-authority-data']), name).toBe(first.set.clusterCA.certPem);
      const cert = b64d(kc.users[0]!.user['client-certificate-data']);
      expect(subjectLines(x509(cert)), name).toEqual([`CN=${cn}`]);
      expect(keyId(b64d(kc.users[0]!.user['client-key-data'])) === certKeyId(cert), name).toBe(true);
      expect(kc['current-context'], name).toBe(kc.contexts[0]!.name);
    }
  });

  it("builds the agents' init kubeconfig and the admin kubeconfig with embedded data", () => {
    const url = apiserverUrl({ ip: LB_IP });
    expect(url).toBe(`https://${LB_IP}:443`);
    const init = parseYaml(initKubeconfig(first.set, url)) as KubeconfigDoc;
    expect(init.clusters[0]!.cluster.server).toBe(url);
    expect(b64d(init.clusters[0]!.cluster['certificate-authority-data'])).toBe(first.set.clusterCA.certPem);
    expect(b64d(init.users[0]!.user['client-certificate-data'])).toBe(first.set.agentBootstrap.certPem);
    expect(b64d(init.users[0]!.user['client-key-data']) === first.set.agentBootstrap.keyPem).toBe(true);

    const admin = parseYaml(adminKubeconfig(first.set, url)) as KubeconfigDoc;
    expect([admin['current-context'], admin.contexts[0]!.name, admin.clusters[0]!.name, admin.users[0]!.name]).toEqual([
      'nova',
      'nova',
      'nova',
      'nova-admin',
    ]);
    expect(b64d(admin.users[0]!.user['client-certificate-data'])).toBe(first.set.admin.certPem);
    expect(b64d(admin.users[0]!.user['client-key-data']) === first.set.admin.keyPem).toBe(true);
    const named = parseYaml(adminKubeconfig(first.set, url, 'nova-prod')) as KubeconfigDoc;
    expect([named['current-context'], named.contexts[0]!.context.cluster, named.contexts[0]!.context.user]).toEqual([
      'nova-prod',
      'nova-prod',
      'nova-prod-admin',
    ]);

    expect(apiserverUrl({ hostname: 'lb.example.com' })).toBe('https://lb.example.com:443');
    expect(apiserverUrl({ ip: '2001:db8::10' })).toBe('https://[2001:db8::10]:443');
  });

  it('reads the set back from its Secrets, tolerating missing Secrets, keys and broken kubeconfigs', () => {
    const back = certSetFromSecrets(certSecrets(first.set, NS));
    const same = (a: Partial<KeyMaterial> | undefined, b: KeyMaterial) => a?.certPem === b.certPem && a?.keyPem === b.keyPem;
    for (const c of CAS) expect(same(back[c.field], first.set[c.field]), c.field).toBe(true);
    for (const l of LEAVES) expect(same(l.get(back as CertSet), l.get(first.set)), l.id).toBe(true);
    expect(back.serviceAccount?.privateKeyPem === first.set.serviceAccount.privateKeyPem).toBe(true);
    expect(back.serviceAccount?.publicKeyPem).toBe(first.set.serviceAccount.publicKeyPem);

    expect(certSetFromSecrets([])).toEqual({});
    expect(certSetFromSecrets([undefined, null, { metadata: { name: 'nova-admin' } }])).toEqual({});
    const partial = certSetFromSecrets([
      { metadata: { name: 'nova-scheduler' }, data: { kubeconfig: Buffer.from('{{ not yaml').toString('base64') } },
      { metadata: { name: 'nova-apiserver-certs' }, data: { 'ca.crt': Buffer.from(first.set.clusterCA.certPem).toString('base64') } },
      {
        metadata: { name: 'nova-etcd-certs' },
        data: { 'etcd-1-peer.crt': Buffer.from(first.set.etcd[1]!.peer.certPem).toString('base64') },
      },
    ]);
    expect(Object.keys(partial).sort()).toEqual(['clusterCA', 'etcd']);
    expect(partial.clusterCA?.certPem).toBe(first.set.clusterCA.certPem);
    expect(partial.clusterCA?.keyPem).toBeUndefined();
    expect(partial.etcd?.[1]?.peer?.certPem).toBe(first.set.etcd[1]!.peer.certPem);
    expect(partial.etcd?.[0]).toBeUndefined();
  });
});

describe('generateCertSet: re-runs', () => {
  const existing = (): PartialCertSet => certSetFromSecrets(certSecrets(first.set, NS));

  it('reuses every CA and key and re-issues nothing valid (same CA PEMs and fingerprints, no key generated)', async () => {
    const spy = vi.spyOn(crypto, 'generateKeyPair');
    let again: CertSetResult;
    try {
      again = await generateCertSet(opts(), existing());
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    for (const a of again.actions) expect([a.id, a.action]).toEqual([a.id, 'reused']);
    for (const c of CAS) expect(again.set[c.field].certPem, c.field).toBe(first.set[c.field].certPem);
    expect(certFingerprints(again.set)).toEqual(certFingerprints(first.set));
    for (const l of LEAVES) expect(l.get(again.set).certPem, l.id).toBe(l.get(first.set).certPem);
  });

  it('re-issues only the serving certificate, for the same key, when the LoadBalancer address changed, and says why', async () => {
    const moved = await generateCertSet(opts({ apiserverAddress: { ip: '198.51.100.7' } }), existing());
    const changed = moved.actions.filter((a) => a.action !== 'reused');
    expect(changed.map((a) => [a.id, a.action])).toEqual([['apiserver', 'reissued']]);
    expect(changed[0]!.reason).toContain('does not cover 198.51.100.7');
    expect(servingCertCovers(moved.set.apiserver.certPem, { ip: '198.51.100.7' })).toBe(true);
    expect(servingCertCovers(moved.set.apiserver.certPem, { ip: LB_IP })).toBe(false);
    expect(keyId(moved.set.apiserver.keyPem) === keyId(first.set.apiserver.keyPem)).toBe(true);
    expect(x509(moved.set.apiserver.certPem).verify(x509(first.set.clusterCA.certPem).publicKey)).toBe(true);
    expect(certFingerprints(moved.set)).toEqual(certFingerprints(first.set));
  });

  it('covers a LoadBalancer hostname or an IPv6 address', async () => {
    const byName = await generateCertSet(opts({ apiserverAddress: { hostname: 'Nova-LB.example.com' } }), existing());
    expect(byName.actions.filter((a) => a.action !== 'reused').map((a) => a.id)).toEqual(['apiserver']);
    expect(servingCertCovers(byName.set.apiserver.certPem, { hostname: 'nova-lb.example.com' })).toBe(true);
    expect(x509(byName.set.apiserver.certPem).checkHost('nova-lb.example.com', { subject: 'never' })).toBe('nova-lb.example.com');
    expect(byName.set.apiserverAddress).toEqual({ hostname: 'nova-lb.example.com' });
    // Both at once: both in the SANs.
    const both = await generateCertSet(opts({ apiserverAddress: { ip: LB_IP, hostname: 'nova-lb.example.com' } }), existing());
    expect(servingCertCovers(both.set.apiserver.certPem, { ip: LB_IP, hostname: 'nova-lb.example.com' })).toBe(true);
    const v6 = await generateCertSet(opts({ apiserverAddress: { ip: '2001:db8::10' } }), existing());
    expect(servingCertCovers(v6.set.apiserver.certPem, { ip: '2001:db8:0:0::10' })).toBe(true);
    expect(servingCertCovers(v6.set.apiserver.certPem, { ip: '2001:db8::11' })).toBe(false);
  });

  it('issues certificates for the keys found when only keys are left, with a custom validity', async () => {
    // Given only the private keys of a previous set (the certificates lost)
    const keysOnly: PartialCertSet = {
      clusterCA: { keyPem: first.set.clusterCA.keyPem },
      etcdCA: { keyPem: first.set.etcdCA.keyPem },
      frontProxyCA: { keyPem: first.set.frontProxyCA.keyPem },
      apiserver: { keyPem: first.set.apiserver.keyPem },
      apiserverEtcdClient: { keyPem: first.set.apiserverEtcdClient.keyPem },
      frontProxyClient: { keyPem: first.set.frontProxyClient.keyPem },
      etcd: first.set.etcd.map((m) => ({ server: { keyPem: m.server.keyPem }, peer: { keyPem: m.peer.keyPem } })),
      controllerManager: { keyPem: first.set.controllerManager.keyPem },
      scheduler: { keyPem: first.set.scheduler.keyPem },
      admin: { keyPem: first.set.admin.keyPem },
      agentBootstrap: { keyPem: first.set.agentBootstrap.keyPem },
      serviceAccount: { privateKeyPem: first.set.serviceAccount.privateKeyPem },
    };
    const spy = vi.spyOn(crypto, 'generateKeyPair');
    let r: CertSetResult;
    try {
      r = await generateCertSet(opts({ validityDays: 30 }), keysOnly);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    for (const a of r.actions.filter((x) => x.id !== 'service-account-key')) {
      expect([a.id, a.action, a.reason.startsWith('certificate missing')]).toEqual([a.id, 'reissued', true]);
    }
    expect(actionOf(r, 'service-account-key')?.reason).toMatch(/public key missing/);
    expect(r.set.serviceAccount.publicKeyPem).toBe(first.set.serviceAccount.publicKeyPem);
    for (const pem of allCertPems(r.set)) {
      const days = (x509(pem).validToDate.getTime() - Date.now()) / DAY;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
    }
    for (const c of CAS) expect(certKeyId(r.set[c.field].certPem) === keyId(first.set[c.field].keyPem), c.field).toBe(true);
    // Certificates signed before by the same key and name still verify against the new CA certificates.
    for (const l of LEAVES) {
      const old = x509(l.get(first.set).certPem);
      const ca = x509(r.set[l.ca].certPem);
      expect(old.checkIssued(ca) && old.verify(ca.publicKey), l.id).toBe(true);
    }
  });

  it('creates what is missing and keeps the rest when some Secrets or keys are gone', async () => {
    const secrets = certSecrets(first.set, NS)
      .filter((s) => s.metadata?.name !== 'nova-admin')
      .map((s) => {
        if (s.metadata?.name !== 'nova-etcd-certs') return s;
        const data = { ...s.data };
        delete data['etcd-2-peer.key'];
        return { ...s, data };
      });
    const r = await generateCertSet(opts(), certSetFromSecrets(secrets));
    expect(r.actions.filter((a) => a.action !== 'reused').map((a) => [a.id, a.action, a.reason])).toEqual([
      ['etcd-2-peer', 'created', 'private key missing'],
      ['admin', 'created', 'none found'],
    ]);
    expect(x509(r.set.admin.certPem).checkIssued(x509(first.set.clusterCA.certPem))).toBe(true);
  });

  it("keeps the existing member's certificates when etcd grows from 1 to 3 members", async () => {
    const one = certSetFromSecrets(certSecrets(first.set, NS));
    one.etcd = one.etcd!.slice(0, 1);
    const r = await generateCertSet(opts(), one);
    expect(r.actions.filter((a) => a.action !== 'reused').map((a) => a.id)).toEqual([
      'etcd-1-server',
      'etcd-1-peer',
      'etcd-2-server',
      'etcd-2-peer',
    ]);
    expect(r.set.etcd).toHaveLength(3);
  });

  describe('rotate', () => {
    let rotated: CertSetResult;
    beforeAll(async () => {
      rotated = await generateCertSet(opts({ rotate: true }), existing());
    }, SLOW);

    it('replaces every CA, certificate and key on purpose', () => {
      for (const a of rotated.actions) expect([a.id, a.action, a.reason]).toEqual([a.id, 'created', 'rotation requested']);
      const before = certFingerprints(first.set);
      const after = certFingerprints(rotated.set);
      for (const c of CAS) expect(after[c.field], c.field).not.toBe(before[c.field]);
      for (const l of LEAVES) expect(keyId(l.get(rotated.set).keyPem) === keyId(l.get(first.set).keyPem), l.id).toBe(false);
      expect(keyId(rotated.set.serviceAccount.privateKeyPem) === keyId(first.set.serviceAccount.privateKeyPem)).toBe(false);
    });

    it('re-issues a leaf signed by another CA, keeping its key, and says why', async () => {
      const mixed = existing();
      mixed.admin = { ...rotated.set.admin };
      const r = await generateCertSet(opts(), mixed);
      const changed = r.actions.filter((a) => a.action !== 'reused');
      expect(changed.map((a) => [a.id, a.action])).toEqual([['admin', 'reissued']]);
      expect(changed[0]!.reason).toContain('not signed by the current cluster CA');
      expect(x509(r.set.admin.certPem).checkIssued(x509(first.set.clusterCA.certPem))).toBe(true);
      expect(keyId(r.set.admin.keyPem) === keyId(rotated.set.admin.keyPem)).toBe(true);
    });

    it('refuses to replace a CA whose private key is missing or is not its own', async () => {
      const noKey = existing();
      noKey.clusterCA = { certPem: first.set.clusterCA.certPem };
      await expect(generateCertSet(opts(), noKey)).rejects.toBeInstanceOf(CertReuseError);
      await expect(generateCertSet(opts(), noKey)).rejects.toThrow(/cluster CA certificate exists but its private key is missing/);
      const wrongKey = existing();
      wrongKey.etcdCA = { certPem: first.set.etcdCA.certPem, keyPem: rotated.set.etcdCA.keyPem };
      await expect(generateCertSet(opts(), wrongKey)).rejects.toThrow(/etcd CA private key does not belong to its certificate/);
    });
  });
});

describe('printable output', () => {
  it('fingerprints the CAs with SHA-256 and never prints a private key in fingerprints, summaries or actions', () => {
    const fp = certFingerprints(first.set);
    for (const c of CAS) {
      expect(fp[c.field]).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
      expect(fp[c.field]).toBe(x509(first.set[c.field].certPem).fingerprint256);
    }
    expect(certFingerprints({ clusterCA: { certPem: first.set.clusterCA.certPem } })).toEqual({ clusterCA: fp.clusterCA });
    const summary = describeCertSet(first.set);
    expect(summary.map((s) => s.id)).toEqual(['cluster-ca', 'etcd-ca', 'front-proxy-ca', ...LEAVES.map((l) => l.id)]);
    expect(summary.find((s) => s.id === 'apiserver')?.sans).toContain(`IP Address:${LB_IP}`);
    const printed = JSON.stringify([fp, summary, first.actions]);
    expect(printed.includes('PRIVATE KEY')).toBe(false);
    expect(printed.includes('BEGIN')).toBe(false);
  });

  it('rejects options it cannot issue for', async () => {
    await expect(generateCertSet(opts({ apiserverAddress: {} }))).rejects.toBeInstanceOf(UserError);
    await expect(generateCertSet(opts({ apiserverAddress: { ip: 'not-an-ip' } }))).rejects.toThrow(/not an IP address/);
    await expect(generateCertSet(opts({ etcdMembers: 0 }))).rejects.toThrow(/etcd members/);
    await expect(generateCertSet(opts({ namespace: 'Bad_NS' }))).rejects.toThrow(/namespace/);
    await expect(generateCertSet(opts({ validityDays: 0 }))).rejects.toThrow(/validity/);
  });
});

interface KubeconfigDoc {
  'current-context': string;
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { 'client-certificate-data': string; 'client-key-data': string } }[];
  contexts: { name: string; context: { cluster: string; user: string } }[];
}
