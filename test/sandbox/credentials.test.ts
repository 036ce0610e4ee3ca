import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KUBELET_CLIENT_USER, nodeAddresses, prepareClusterFiles } from '../../src/sandbox/credentials.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-credentials-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const spec = { name: 'workload-3', context: 'kind-workload-3', index: 3, dir, ports: { etcdClient: 1, etcdPeer: 2, apiserver: 3 } };
const pki = (n: string) => path.join(dir, 'pki', n);

describe('the sandbox cluster’s kubelet certificates', () => {
  it('are made with the cluster’s files, and again when a directory from before lacks them', async () => {
    await prepareClusterFiles(spec);
    const ca = new crypto.X509Certificate(fs.readFileSync(pki('ca.crt')));
    const serving = new crypto.X509Certificate(fs.readFileSync(pki('kubelet.crt')));
    const client = new crypto.X509Certificate(fs.readFileSync(pki('apiserver-kubelet-client.crt')));
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(client.verify(ca.publicKey)).toBe(true);
    expect(serving.checkIP('127.3.1.1')).toBeUndefined();
    expect(serving.checkIP('127.1.3.1')).toBe('127.1.3.1');
    expect(serving.checkIP('127.1.3.254')).toBe('127.1.3.254');
    expect(nodeAddresses(3)).toHaveLength(254);
    expect(client.subject).toContain(`CN=${KUBELET_CLIENT_USER}`);
    expect(client.subject).toContain('O=system:masters');
    for (const key of ['kubelet.key', 'apiserver-kubelet-client.key']) expect(fs.statSync(pki(key)).mode & 0o777).toBe(0o600);

    // A sandbox directory from before the kubelet API: the CA stays, the new pair is added.
    for (const f of ['kubelet.crt', 'kubelet.key', 'apiserver-kubelet-client.crt', 'apiserver-kubelet-client.key']) fs.rmSync(pki(f));
    await prepareClusterFiles(spec);
    expect(new crypto.X509Certificate(fs.readFileSync(pki('ca.crt'))).fingerprint256).toBe(ca.fingerprint256);
    expect(new crypto.X509Certificate(fs.readFileSync(pki('apiserver-kubelet-client.crt'))).verify(ca.publicKey)).toBe(true);
    expect(new crypto.X509Certificate(fs.readFileSync(pki('kubelet.crt'))).verify(ca.publicKey)).toBe(true);
  });
});
