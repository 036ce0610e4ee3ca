import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { isSandboxContext, sandboxDirsFor } from '../../src/sandbox/recognise.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-recognise-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const CA = '-----BEGIN CERTIFICATE-----\nMIIBsandbox\n-----END CERTIFICATE-----\n';
const OTHER_CA = '-----BEGIN CERTIFICATE-----\nMIIBother\n-----END CERTIFICATE-----\n';
const b64 = (s: string) => Buffer.from(s).toString('base64');

function kubeconfig(server: string, ca: string, name = 'kind-cp'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'certificate-authority-data': b64(ca) } }],
    users: [{ name: `${name}-admin`, user: { token: 't' } }],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin` } }],
    'current-context': name,
  });
}

/** A sandbox directory as `sandbox up --dir` leaves it: state.json and the kubeconfig it names. */
function sandbox(name: string, phase = 'ready'): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'kubeconfig'), kubeconfig('https://127.3.0.1:6443', CA));
  fs.writeFileSync(path.join(dir, 'kubeconfig.read-only'), kubeconfig('https://127.3.0.1:6443', CA));
  fs.writeFileSync(
    path.join(dir, 'state.json'),
    JSON.stringify({
      version: 1,
      dir,
      phase,
      kubeconfig: path.join(dir, 'kubeconfig'),
      readOnlyKubeconfig: path.join(dir, 'kubeconfig.read-only'),
    }),
  );
  return dir;
}

const kcOf = (text: string) => {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  return kc;
};

describe('isSandboxContext', () => {
  const dir = sandbox('sb');

  it('recognises a context with the sandbox cluster’s server and CA, whatever its names', () => {
    expect(isSandboxContext(kcOf(kubeconfig('https://127.3.0.1:6443', CA)), [dir])).toBe(true);
    expect(isSandboxContext(kcOf(kubeconfig('https://127.3.0.1:6443', CA, 'renamed')), [dir])).toBe(true);
  });

  it('reads a CA given as a file', () => {
    const caFile = path.join(tmp, 'ca.crt');
    fs.writeFileSync(caFile, CA);
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.3.0.1:6443', caFile }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c',
    });
    expect(isSandboxContext(kc, [dir])).toBe(true);
  });

  it('does not recognise another server, another CA, no CA, or no sandbox recorded where it looks', () => {
    expect(isSandboxContext(kcOf(kubeconfig('https://127.3.0.2:6443', CA)), [dir])).toBe(false);
    expect(isSandboxContext(kcOf(kubeconfig('https://127.3.0.1:6443', OTHER_CA)), [dir])).toBe(false);
    const noCa = new KubeConfig();
    noCa.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.3.0.1:6443', skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
      currentContext: 'c',
    });
    expect(isSandboxContext(noCa, [dir])).toBe(false);
    expect(isSandboxContext(kcOf(kubeconfig('https://127.3.0.1:6443', CA)), [path.join(tmp, 'nothing-here')])).toBe(false);
  });

  it('does not recognise a sandbox that is stopping', () => {
    expect(isSandboxContext(kcOf(kubeconfig('https://127.3.0.1:6443', CA)), [sandbox('stopping', 'stopping')])).toBe(false);
  });
});

describe('sandboxDirsFor', () => {
  it('looks in the sandbox directory and beside every kubeconfig file read', () => {
    const env = { FLEETDECK_SANDBOX_DIR: '/srv/sb', HOME: '/home/me' };
    expect(sandboxDirsFor(['/tmp/sb-x/kubeconfig', '/home/me/.kube/config', '/tmp/sb-x/kubeconfig.read-only'], env)).toEqual([
      '/srv/sb',
      '/tmp/sb-x',
      '/home/me/.kube',
    ]);
  });
});
