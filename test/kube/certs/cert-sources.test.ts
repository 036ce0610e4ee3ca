import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeconfigClientCert, kubeconfigCredentials } from '../../../src/kube/certs/cert-sources.js';
import { certDetailsFromPem } from '../../../src/kube/certs/certs.js';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('certificate details', () => {
  it('reads subject, issuer, SANs, serial and validity of every certificate of a PEM bundle', async () => {
    // Given a CA and a serving certificate with a DNS and an IP SAN
    const ca = await createAuthority('test-ca', 100);
    const leaf = await issueCertificate(ca, { commonName: 'kube-apiserver', hosts: ['apiserver', '10.96.0.1'], usage: 'server', days: 10 });

    // When both are read from one bundle
    const [first, second] = certDetailsFromPem(`${leaf.certPem}\n${ca.certPem}`);

    // Then each is described, the leaf with its SANs and its CA as issuer
    expect(first).toMatchObject({
      subject: 'CN=kube-apiserver',
      issuer: 'CN=test-ca',
      sans: ['DNS:apiserver', 'IP Address:10.96.0.1'],
      isCA: false,
    });
    expect(first!.serial).toMatch(/^[0-9A-F]+$/);
    expect(first!.notAfter - first!.notBefore).toBeGreaterThan(9 * 86_400_000);
    expect(second).toMatchObject({ subject: 'CN=test-ca', issuer: 'CN=test-ca', sans: [], isCA: true });
  });
});

describe('kubeconfig client certificates', () => {
  it('finds each context user’s certificate from data or file, says why one is unreadable and how the others authenticate', async () => {
    // Given users with embedded data, a file, a missing file, a token and an exec plugin
    const ca = await createAuthority('test-ca', 100);
    const alice = await issueCertificate(ca, { commonName: 'alice', organizations: ['devs'], usage: 'client', days: 10 });
    const bob = await issueCertificate(ca, { commonName: 'bob', usage: 'client', days: 10 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'certs-kc-'));
    fs.writeFileSync(path.join(dir, 'bob.crt'), bob.certPem);
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
      users: [
        { name: 'alice', certData: b64(alice.certPem), keyData: b64(alice.keyPem) },
        { name: 'bob', certFile: path.join(dir, 'bob.crt'), keyFile: path.join(dir, 'bob.key') },
        { name: 'gone', certFile: path.join(dir, 'gone.crt') },
        { name: 'tok', token: 'x' },
        { name: 'plug', exec: { command: 'true', apiVersion: 'client.authentication.k8s.io/v1' } },
      ],
      contexts: ['alice', 'bob', 'gone', 'tok', 'plug'].map((u) => ({ name: `ctx-${u}`, cluster: 'c', user: u })),
      currentContext: 'ctx-alice',
    });

    // When the credentials are read
    const creds = kubeconfigCredentials(kc);

    // Then certificates are described, the missing file is reported, the others are named by method
    expect(creds[0]).toMatchObject({ context: 'ctx-alice', kind: 'certificate', source: 'client-certificate-data' });
    expect(creds[0]!.kind === 'certificate' && creds[0]!.certs[0]!.subject).toBe('O=devs, CN=alice');
    expect(creds[1]).toMatchObject({ context: 'ctx-bob', kind: 'certificate', source: path.join(dir, 'bob.crt') });
    expect(creds[2]).toMatchObject({ kind: 'unreadable', message: `open ${path.join(dir, 'gone.crt')}: no such file or directory` });
    expect(creds[3]).toMatchObject({ context: 'ctx-tok', kind: 'other', method: 'token' });
    expect(creds[4]).toMatchObject({ context: 'ctx-plug', kind: 'other', method: 'exec plugin' });
    expect(JSON.stringify(creds)).not.toContain('PRIVATE KEY');
  });

  it('takes the current user’s client certificate out of an embedded kubeconfig, not its key', async () => {
    const ca = await createAuthority('test-ca', 100);
    const agent = await issueCertificate(ca, {
      commonName: 'nova-agent-bootstrap',
      organizations: ['nova:agents'],
      usage: 'client',
      days: 10,
    });
    const text = [
      'apiVersion: v1',
      'kind: Config',
      `users: [{name: a, user: {client-certificate-data: ${b64(agent.certPem)}, client-key-data: ${b64(agent.keyPem)}}}]`,
      'contexts: [{name: n, context: {cluster: n, user: a}}]',
      'current-context: n',
    ].join('\n');

    expect(kubeconfigClientCert(text).map((c) => c.subject)).toEqual(['O=nova:agents, CN=nova-agent-bootstrap']);
    expect(kubeconfigClientCert('not: [yaml')).toEqual([]);
  });
});
