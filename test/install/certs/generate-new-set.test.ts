import { execFileSync } from 'node:child_process';
import crypto, { createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UserError } from '../../../src/errors.js';
import {
  type CertSetResult,
  type KeyMaterial,
  certFingerprints,
  certSetCounts,
  describeCertSet,
  generateCertSet,
  servingCertCovers,
} from '../../../src/install/certs/index.js';
import { generateKeyPair } from '../../../src/kube/certs/pki.js';
import {
  CAS,
  type CaName,
  CLIENT_AUTH,
  DAY,
  LB_IP,
  LEAVES,
  NS,
  SERVER_AUTH,
  SLOW,
  allCertPems,
  certKeyId,
  forgeExt,
  keyId,
  newCertSet,
  opts,
  subjectLines,
  x509,
} from './cert-set-fixture.js';
import { requireTool } from '../../helpers/cli/tools.js';

let first: CertSetResult;
let ticksDuringFirst = 0;
let nativeKeygensDuringFirst = 0;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-certs-'));
  ({ result: first, ticks: ticksDuringFirst, nativeKeygens: nativeKeygensDuringFirst } = await newCertSet());
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
    expect(CAS).toHaveLength(3);
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
    expect(LEAVES).toHaveLength(13);
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

  it('passes openssl verify against its CA file, with the purpose of its usage', () => {
    requireTool('openssl');
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
    expect(LEAVES).toHaveLength(13);
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
    expect(first.set.etcd).toHaveLength(3);
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
    const pems = allCertPems(first.set);
    expect(pems).toHaveLength(16);
    for (const pem of pems) {
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
    // The loop turned while the keys were made (each on the thread pool), not once at the end.
    expect(ticksDuringFirst).toBeGreaterThanOrEqual(certSetCounts(3).keys);
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
