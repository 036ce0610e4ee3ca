import crypto from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type CertSetResult,
  CertReuseError,
  type PartialCertSet,
  certFingerprints,
  certSecrets,
  certSetFromSecrets,
  generateCertSet,
  servingCertCovers,
} from '../../../src/install/certs/index.js';
import { CAS, DAY, LB_IP, LEAVES, NS, SLOW, actionOf, allCertPems, certKeyId, keyId, newCertSet, opts, x509 } from './cert-set-fixture.js';

let first: CertSetResult;
beforeAll(async () => {
  ({ result: first } = await newCertSet());
}, SLOW);

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
