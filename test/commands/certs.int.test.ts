import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { createAuthority, issueCertificate } from '../../src/kube/certs/pki.js';
import { runCli } from '../helpers/cli/cli.js';
import { writeCertSecrets } from '../helpers/sandbox/cert-secrets.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const readOnlyKubeconfig = sandbox().readOnlyKubeconfig;
const NS = 'certs-e2e';
const FLEET = ['--hosting-context', 'kind-cp', '--namespace', NS, '--context', 'kind-workload-1'];

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

interface CertJson {
  name: string;
  group: string;
  state: string;
  subject: string | null;
  sans: string[];
  residual: string;
  usedBy: string;
  problem: string | null;
}

let dir: string;
let dropNamespaces: () => Promise<void>;

/** The install's certificate Secrets in the hosting context, its init kubeconfig in a workload context (as the install writes them). */
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'certs-int-'));
  ({ dropNamespaces } = await writeCertSecrets(kubeconfig, NS, 'kind-cp', 'kind-workload-1'));
}, 120_000);

afterAll(async () => {
  await dropNamespaces?.();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('fleetdeck certs', () => {
  it('lists the control plane’s set with the API server’s SANs, the agents’ init kubeconfig and the kubeconfig’s client certificates', async () => {
    const res = await runCli(['certs', '--kubeconfig', kubeconfig, ...FLEET, '-o', 'json']);

    expect(res.stderr).toBe('');
    const doc = JSON.parse(res.stdout) as { certificates: CertJson[]; summary: Record<string, number> };
    expectMatchesSchema(doc, 'certs');
    const byName = new Map(doc.certificates.map((c) => [c.name, c]));
    for (const name of ['cluster-ca', 'etcd-ca', 'front-proxy-ca', 'apiserver', 'apiserver-etcd-client', 'front-proxy-client']) {
      expect(byName.get(name)).toMatchObject({ group: 'control-plane', state: 'ok', problem: null });
    }
    for (const name of ['etcd-0-server', 'etcd-0-peer', 'controller-manager', 'scheduler', 'admin', 'agent-bootstrap']) {
      expect(byName.get(name)?.state).toBe('ok');
    }
    expect(byName.get('apiserver')!.sans).toEqual(
      expect.arrayContaining(['IP Address:172.18.255.210', `DNS:apiserver.${NS}.svc`, 'DNS:kubernetes.default.svc']),
    );
    expect(byName.get('controller-manager')!.subject).toBe('CN=system:kube-controller-manager');
    expect(byName.get('service-account-key')).toMatchObject({ residual: 'no expiry', state: 'ok' });
    expect(byName.get('init-kubeconfig')).toMatchObject({ usedBy: 'nova-agent in kind-workload-1', state: 'ok' });
    expect(byName.get('init-kubeconfig')!.subject).toMatch(/CN=nova-agent-bootstrap/);
    expect(byName.get('kind-cp-admin')).toMatchObject({ group: 'kubeconfig', usedBy: 'context kind-cp', state: 'ok' });
    expect(doc.summary.fail).toBe(0);
    expect(res.stdout).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
    expect(res.code).toBe(0);
  });

  it('shows an expired client certificate of the kubeconfig as ✗ and exits 1', async () => {
    // Given a kubeconfig whose extra user holds a certificate of a throwaway CA that expired a week ago
    const ca = await createAuthority('throwaway-ca', 3650);
    const old = await issueCertificate(ca, {
      commonName: 'old-user',
      usage: 'client',
      days: 30,
      now: new Date(Date.now() - 37 * 86_400_000),
    });
    const doc = parseYaml(fs.readFileSync(kubeconfig, 'utf8')) as Record<string, { name: string }[]>;
    doc.users!.push({
      name: 'old-user',
      user: { 'client-certificate-data': b64(old.certPem), 'client-key-data': b64(old.keyPem) },
    } as never);
    doc.contexts!.push({ name: 'old', context: { cluster: 'kind-cp', user: 'old-user' } } as never);
    const file = path.join(dir, 'expired.kubeconfig');
    fs.writeFileSync(file, stringifyYaml(doc), { mode: 0o600 });

    // When certs runs
    const res = await runCli(['certs', '--kubeconfig', file, ...FLEET]);

    // Then that row is marked failed with how long ago it expired, the others are fine
    const row = res.stdout.split('\n').find((l) => /\sold-user\s/.test(l));
    expect(row).toMatch(/^✗\s+old-user\s+old-user\s+throwaway-ca\s+[0-9A-F]+…?\s+\S+\s+expired 7d ago\s+context old/);
    expect(res.stdout).toMatch(/^√\s+apiserver\s+kube-apiserver\s+nova-ca\s/m);
    expect(res.stdout).toMatch(/ 1 expired or unreadable$/m);
    expect(res.code).toBe(1);
  });

  it('says "cannot read (forbidden …)" for the control plane’s rows when the user may not read Secrets, and exits 1', async () => {
    const res = await runCli(['certs', '--kubeconfig', readOnlyKubeconfig, ...FLEET, '-o', 'json']);

    const doc = JSON.parse(res.stdout) as { certificates: CertJson[] };
    const cp = doc.certificates.filter((c) => c.group === 'control-plane');
    expect(cp.length).toBeGreaterThan(5);
    for (const c of cp)
      expect(c).toMatchObject({ state: 'fail', problem: `cannot read (forbidden: cannot get secrets in namespace ${NS})` });
    expect(doc.certificates.find((c) => c.name === 'kind-cp-viewer')?.state).toBe('ok');
    expect(res.code).toBe(1);
  });
});
