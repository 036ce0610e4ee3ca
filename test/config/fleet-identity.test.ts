import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { readFleetFile, rerecordIdentity, writeFleetFile } from '../../src/config/fleet-config.js';
import { identityProblem, recordIdentities, sameServer } from '../../src/config/fleet-identity.js';
import { UserError } from '../../src/errors.js';
import { createAuthority } from '../../src/kube/certs/pki.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fleet-identity-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FA = Array.from({ length: 32 }, () => 'AA').join(':');

/** A kubeconfig whose `kind-cp` points at `server` (no CA: it skips verification), or has no context at all. */
function config(server: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: server ? [{ name: 'c', server, skipTLSVerify: true }] : [],
    users: [{ name: 'u' }],
    contexts: server ? [{ name: 'kind-cp', cluster: 'c', user: 'u' }] : [],
    currentContext: server ? 'kind-cp' : '',
  });
  return kc;
}

describe('the fleet file knows its clusters', () => {
  it('a context that is the cluster recorded has no problem; nothing recorded, nothing checked', () => {
    const kc = config('https://127.0.0.1:6443');
    expect(identityProblem('kind-cp', { server: 'https://127.0.0.1:6443', ca: [] }, kc, '/f.yaml')).toBeUndefined();
    expect(identityProblem('kind-cp', undefined, kc, '/f.yaml')).toBeUndefined();
  });

  it('another server: both named, and the fix', () => {
    const p = identityProblem(
      'kind-cp',
      { server: 'https://127.0.0.1:6443', ca: [FA], kubeconfig: '/a/kubeconfig' },
      config('https://127.0.0.1:7443'),
      '/f.yaml',
    );
    expect(p?.detail).toBe(
      'context kind-cp is another cluster than the fleet file recorded: it recorded https://127.0.0.1:6443 (CA AA:AA:AA…AA:AA), the kubeconfig says https://127.0.0.1:7443 (no CA)',
    );
    expect(p?.hint).toBe(
      'point KUBECONFIG (or --kubeconfig) at the kubeconfig of the fleet recorded (/a/kubeconfig); if that fleet is gone (or these are its clusters now), remove /f.yaml and install again, which records them',
    );
  });

  it('the same server with no CA in common is another cluster; a bundle sharing one CA is the same', async () => {
    const ca = await createAuthority('minikubeCA', 1);
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'minikube', server: 'https://192.168.49.2:8443', caData: Buffer.from(ca.certPem).toString('base64') }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'minikube', cluster: 'minikube', user: 'u' }],
      currentContext: 'minikube',
    });
    const id = recordIdentities([{ context: 'minikube', kc }]).minikube!;
    expect(id.ca).toHaveLength(1);
    expect(identityProblem('minikube', { ...id, ca: [FA] }, kc, '/f.yaml')?.detail).toMatch(
      /^context minikube trusts another CA than the fleet file recorded \(a new cluster at the same address, or a rotated CA\)/,
    );
    expect(identityProblem('minikube', { ...id, ca: [FA, ...(id.ca ?? [])] }, kc, '/f.yaml')).toBeUndefined();
    // A kubeconfig that trusts no CA (skips verification): the server alone decides.
    expect(
      identityProblem('kind-cp', { server: 'https://127.0.0.1:6443', ca: [FA] }, config('https://127.0.0.1:6443'), '/f.yaml'),
    ).toBeUndefined();
  });

  it('the same server written otherwise is the same; a record without CAs is judged by its server', () => {
    const kc = config('https://127.0.0.1:6443');
    expect(sameServer('https://LOCALHOST:443/', 'https://localhost')).toBe(true);
    expect(sameServer('https://127.0.0.1:6443/', 'https://127.0.0.1:6443')).toBe(true);
    expect(sameServer('https://127.0.0.1:6443', 'https://127.0.0.1:6444')).toBe(false);
    expect(identityProblem('kind-cp', { server: 'https://127.0.0.1:6443/' }, kc, '/f.yaml')).toBeUndefined();
  });

  it('a context that is gone names what was recorded', () => {
    expect(identityProblem('kind-cp', { server: 'https://127.0.0.1:6443', ca: [] }, config(undefined), '/f.yaml')?.detail).toBe(
      'context kind-cp is not in the kubeconfig (the fleet file recorded it as https://127.0.0.1:6443 (no CA))',
    );
  });

  it('written with the fleet, read back, checked; re-recorded when fleetdeck hands a CA over', () => {
    const file = path.join(dir, 'fleet.yaml');
    const fleet = { hostingContext: 'kind-cp', controlPlaneContext: 'nova', namespace: 'elotl', workloads: [] };
    const identities = recordIdentities([{ context: 'kind-cp', kc: config('https://127.0.0.1:6443') }], '/a/kubeconfig');
    writeFleetFile(file, fleet, { identities });
    expect(readFleetFile(file)?.identities).toEqual({
      'kind-cp': { server: 'https://127.0.0.1:6443', ca: [], kubeconfig: '/a/kubeconfig' },
    });
    rerecordIdentity(file, 'kind-cp', config('https://127.0.0.1:7443'));
    expect(readFleetFile(file)?.identities?.['kind-cp']).toEqual({ server: 'https://127.0.0.1:7443', ca: [], kubeconfig: '/a/kubeconfig' });
    rerecordIdentity(file, 'nova', config('https://127.0.0.1:7443'));
    expect(readFleetFile(file)?.identities?.nova).toBeUndefined();

    fs.writeFileSync(file, 'hostingContext: kind-cp\nidentities:\n  kind-cp: {server: https://x, ca: [nope]}\n');
    expect(() => readFleetFile(file)).toThrow(UserError);
    expect(() => readFleetFile(file)).toThrow(/line 2: "identities.kind-cp.ca" must be a list of SHA-256 fingerprints/);
  });
});
