import { describe, expect, it } from 'vitest';
import { certsFromPem, certsFromSecret, isCertKey } from '../../../src/kube/certs/certs.js';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const DAY = 86_400_000;

describe('certificates in Secrets', () => {
  it('keeps secret name, key, subject and expiry of every *.crt, and nothing of the data', async () => {
    // Given a CA and a serving certificate, stored the way the install stores them
    const ca = await createAuthority('nova-ca', 3650);
    const serving = await issueCertificate(ca, {
      commonName: 'apiserver',
      organizations: ['nova'],
      hosts: ['172.18.255.200'],
      usage: 'server',
      days: 10,
    });
    const secret = {
      metadata: { name: 'apiserver-certs', namespace: 'elotl' },
      data: {
        'tls.crt': b64(serving.certPem),
        'tls.key': b64(serving.keyPem),
        'ca.crt': b64(ca.certPem),
        'front-proxy-client.crt': b64(serving.certPem),
        'sa.pub': b64('not a certificate'),
      },
    };

    // When summarized
    const certs = certsFromSecret(secret);

    // Then one summary per certificate key, sorted by key
    expect(certs.map((c) => [c.secret, c.key, c.subject])).toEqual([
      ['apiserver-certs', 'ca.crt', 'CN=nova-ca'],
      ['apiserver-certs', 'front-proxy-client.crt', 'O=nova, CN=apiserver'],
      ['apiserver-certs', 'tls.crt', 'O=nova, CN=apiserver'],
    ]);
    const tls = certs.find((c) => c.key === 'tls.crt')!;
    expect(tls.notAfter - Date.now()).toBeGreaterThan(9 * DAY);
    expect(tls.notAfter - Date.now()).toBeLessThan(11 * DAY);
    expect((certs[0]!.notAfter - Date.now()) / DAY).toBeGreaterThan(3649);
    // And only those four fields: no PEM, no key, no base64 anywhere
    for (const c of certs) expect(Object.keys(c).sort()).toEqual(['key', 'notAfter', 'secret', 'subject']);
    const dump = JSON.stringify(certs);
    expect(dump).not.toContain('BEGIN');
    expect(dump).not.toContain(secret.data['tls.key'].slice(0, 40));
  });

  it('reads every certificate of a bundle and skips what does not parse', async () => {
    const a = await createAuthority('root-a', 30);
    const b = await createAuthority('root-b', 60);
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    const parsed = certsFromPem(`${a.certPem}\n${broken}${b.certPem}`);
    expect(parsed.map((c) => c.subject)).toEqual(['CN=root-a', 'CN=root-b']);
    expect(certsFromSecret({ metadata: { name: 'bundle' }, data: { 'ca.crt': b64(`${a.certPem}${b.certPem}`) } })).toHaveLength(2);
    // A service account's token Secret holds the cluster's CA, which is not the fleet's to count.
    const token = {
      metadata: { name: 'default-token-x2k9q' },
      type: 'kubernetes.io/service-account-token',
      data: { 'ca.crt': b64(a.certPem) },
    };
    expect(certsFromSecret(token)).toEqual([]);
  });

  it('ignores Secrets without certificates and keys that are not *.crt', () => {
    expect(certsFromSecret({ metadata: { name: 'token' }, data: { token: b64('abc') } })).toEqual([]);
    expect(certsFromSecret({ metadata: { name: 'empty' } })).toEqual([]);
    expect(certsFromSecret({ metadata: { name: 'junk' }, data: { 'tls.crt': 'bm90IHBlbQ==' } })).toEqual([]);
    expect(isCertKey('tls.crt')).toBe(true);
    expect(isCertKey('ca.crt')).toBe(true);
    expect(isCertKey('etcd-peer.crt')).toBe(true);
    expect(isCertKey('tls.key')).toBe(false);
    expect(isCertKey('crt')).toBe(false);
  });
});
