import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';

describe('pki', () => {
  it('issues a serving certificate signed by the CA with IP and DNS SANs', async () => {
    const ca = await createAuthority('test-ca', 30);
    const serving = await issueCertificate(ca, {
      commonName: 'kube-apiserver',
      hosts: ['127.0.0.1', 'localhost'],
      usage: 'server',
      days: 10,
    });
    const caCert = new X509Certificate(ca.certPem);
    const cert = new X509Certificate(serving.certPem);
    expect(caCert.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkHost('example.com')).toBeUndefined();
    expect(cert.keyUsage).toContain('1.3.6.1.5.5.7.3.1'); // serverAuth
    expect(cert.keyUsage).not.toContain('1.3.6.1.5.5.7.3.2');
    const days = (Date.parse(cert.validTo) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(9);
    expect(days).toBeLessThan(11);
    expect(createPrivateKey(serving.keyPem).asymmetricKeyType).toBe('rsa');
  });

  it('puts Kubernetes groups in the subject organisation of client certificates', async () => {
    const ca = await createAuthority('test-ca', 30);
    const admin = await issueCertificate(ca, { commonName: 'admin', organizations: ['system:masters'], usage: 'client', days: 10 });
    const cert = new X509Certificate(admin.certPem);
    expect(cert.subject).toContain('O=system:masters');
    expect(cert.subject).toContain('CN=admin');
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });

  it('never outlives its CA', async () => {
    const ca = await createAuthority('short-ca', 5);
    const c = new X509Certificate((await issueCertificate(ca, { commonName: 'x', usage: 'client', days: 3650 })).certPem);
    expect(Date.parse(c.validTo)).toBeLessThanOrEqual(Date.parse(new X509Certificate(ca.certPem).validTo));
  });
});
