import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuthority } from '../../../src/kube/certs/pki.js';
import { caFingerprints, identityOf } from '../../../src/kube/config/identity.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-identity-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function config(cluster: Record<string, unknown>): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://10.0.0.1:6443', ...cluster }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'prod', cluster: 'c', user: 'u' }],
    currentContext: 'prod',
  });
  return kc;
}

describe('which cluster a context points at', () => {
  it('its server and the SHA-256 fingerprints of the CAs it trusts, from caData or caFile', async () => {
    const a = await createAuthority('ca-a', 1);
    const b = await createAuthority('ca-b', 1);
    const fa = new X509Certificate(a.certPem).fingerprint256;
    const fb = new X509Certificate(b.certPem).fingerprint256;
    expect(identityOf(config({ caData: Buffer.from(a.certPem).toString('base64') }), 'prod')).toEqual({
      server: 'https://10.0.0.1:6443',
      ca: [fa],
    });
    const file = path.join(dir, 'bundle.crt');
    fs.writeFileSync(file, a.certPem + b.certPem);
    expect(identityOf(config({ caFile: file }), 'prod')?.ca).toEqual([fa, fb]);
    expect(caFingerprints('not a certificate')).toEqual([]);
  });

  it('no CA when it skips verification; undefined for a context it does not have', () => {
    const kc = config({ skipTLSVerify: true });
    expect(identityOf(kc, 'prod')).toEqual({ server: 'https://10.0.0.1:6443', ca: [] });
    expect(identityOf(kc, 'staging')).toBeUndefined();
  });
});
