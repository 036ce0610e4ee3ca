import { CertificatesV1Api, CoreV1Api, KubeConfig, RbacAuthorizationV1Api, type V1CertificateSigningRequest } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeClient, statusCode } from '../../src/kube/client.js';
import {
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  approve,
  deny,
  listCsrsWithWarnings,
  makeCsrPem,
  nodeAddressesOf,
  watchCsrs,
  type CsrSummary,
} from '../../src/kube/csr.js';
import { configForContext, loadKubeconfig } from '../../src/kube/kubeconfig.js';
import { eventually, runCli } from '../helpers/cli.js';

const CONTEXT = 'kind-workload-2';
const kubeconfig = inject('kubeconfig');
const readOnlyKubeconfig = inject('readOnlyKubeconfig');
const id = Math.random().toString(36).slice(2, 8);
const P = `fd-approvals-${id}`;
const REQ_A = `${P}-bootstrap-a`;
const REQ_B = `${P}-bootstrap-b`;
const BINDING = `${P}-bootstrappers`;

let kc: KubeConfig;
let csrApi: CertificatesV1Api;
let nodeName = '';
let nodeAddrs: string[] = [];
const created: string[] = [];

/** The same context acting as another user (Impersonate-User): the CSR's spec.username is that user. */
function as(user: string): KubeConfig {
  const u = kc.getCurrentUser()!;
  const out = new KubeConfig();
  out.loadFromOptions({
    clusters: kc.getClusters(),
    users: [{ ...u, impersonateUser: user }],
    contexts: kc.getContexts(),
    currentContext: kc.getCurrentContext(),
  });
  return out;
}

async function createCsr(name: string, who: KubeConfig, signerName: string, usages: string[], subject: Parameters<typeof makeCsrPem>[0]): Promise<V1CertificateSigningRequest> {
  const { csrPem } = await makeCsrPem(subject);
  created.push(name);
  return makeClient(who, CertificatesV1Api).createCertificateSigningRequest({
    body: { metadata: { name }, spec: { request: Buffer.from(csrPem).toString('base64'), signerName, usages } },
  });
}

const clientCsr = (name: string, who: KubeConfig, node = nodeName) =>
  createCsr(name, who, KUBELET_CLIENT_SIGNER, ['digital signature', 'key encipherment', 'client auth'], { commonName: `system:node:${node}`, organizations: ['system:nodes'] });
const servingCsr = (name: string, who: KubeConfig, dnsNames: string[], ipAddresses: string[]) =>
  createCsr(name, who, KUBELET_SERVING_SIGNER, ['digital signature', 'key encipherment', 'server auth'], { commonName: `system:node:${nodeName}`, organizations: ['system:nodes'], dnsNames, ipAddresses });

const find = (list: CsrSummary[], name: string) => {
  const c = list.find((x) => x.name === name);
  if (!c) throw new Error(`${name} not listed`);
  return c;
};

beforeAll(async () => {
  kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  csrApi = makeClient(kc, CertificatesV1Api);
  const nodes = await makeClient(kc, CoreV1Api).listNode();
  const node = nodes.items.find((n) => nodeAddressesOf(n).length > 0);
  if (!node) throw new Error('no node with addresses in the sandbox');
  nodeName = node.metadata!.name!;
  nodeAddrs = nodeAddressesOf(node);
  // Requesters without the nodeclient permission (as bootstrap tokens have it): the
  // controller-manager's auto-approver leaves their kubelet client CSRs pending.
  await makeClient(kc, RbacAuthorizationV1Api).createClusterRoleBinding({
    body: {
      metadata: { name: BINDING },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node-bootstrapper' },
      subjects: [REQ_A, REQ_B, `system:node:${nodeName}`].map((name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name })),
    },
  });
});

afterAll(async () => {
  for (const name of created) {
    await csrApi.deleteCertificateSigningRequest({ name }).catch((err: unknown) => {
      if (statusCode(err) !== 404) throw err;
    });
  }
  await makeClient(kc, RbacAuthorizationV1Api).deleteClusterRoleBinding({ name: BINDING }).catch(() => {});
});

describe('approvals (certificates.k8s.io/v1 on a sandbox cluster)', () => {
  it('lists kubelet client and serving CSRs with subject, SANs and warnings; approves (issued) and denies', async () => {
    const dupNode = `${P}-node`;
    await clientCsr(`${P}-client-a`, as(REQ_A), dupNode);
    await clientCsr(`${P}-client-b`, as(REQ_B), dupNode);
    const ip = nodeAddrs.find((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a))!;
    await servingCsr(`${P}-serving-ok`, as(`system:node:${nodeName}`), [nodeName].filter((n) => nodeAddrs.includes(n)), [ip]);
    await servingCsr(`${P}-serving-bad`, as(`system:node:${nodeName}`), ['evil.example.com'], [ip, '203.0.113.9']);

    const list = await listCsrsWithWarnings(kc);
    const a = find(list, `${P}-client-a`);
    expect(a).toMatchObject({
      requester: REQ_A,
      signer: KUBELET_CLIENT_SIGNER,
      usages: ['digital signature', 'key encipherment', 'client auth'],
      subject: { commonName: `system:node:${dupNode}`, organizations: ['system:nodes'] },
      condition: 'Pending',
      nodeName: dupNode,
    });
    expect(a.groups).toContain('system:authenticated');
    // Duplicate claim: two requesters, one node name.
    expect(a.warnings).toEqual([`node ${dupNode} is also claimed by pending requests from ${REQ_B}`]);
    expect(find(list, `${P}-client-b`).warnings).toEqual([`node ${dupNode} is also claimed by pending requests from ${REQ_A}`]);

    const ok = find(list, `${P}-serving-ok`);
    expect(ok).toMatchObject({ signer: KUBELET_SERVING_SIGNER, requester: `system:node:${nodeName}`, ipAddresses: [ip] });
    expect(ok.warnings).toEqual([]);
    const bad = find(list, `${P}-serving-bad`);
    expect(bad.dnsNames).toEqual(['evil.example.com']);
    expect(bad.ipAddresses).toEqual([ip, '203.0.113.9']);
    expect(bad.warnings).toEqual([`asks for evil.example.com, 203.0.113.9, not among node ${nodeName}'s addresses (${nodeAddrs.join(', ')})`]);

    // Approve: the controller-manager (started with --cluster-signing-*) then issues the certificate.
    expect((await approve(kc, `${P}-client-a`, 'test')).outcome).toBe('changed');
    const issued = await eventually('certificate issued', async () => (await csrApi.readCertificateSigningRequest({ name: `${P}-client-a` })).status?.certificate, 60_000, 250);
    expect(Buffer.from(issued, 'base64').toString()).toContain('BEGIN CERTIFICATE');
    // Idempotent; a decided CSR cannot be decided the other way.
    expect(await approve(kc, `${P}-client-a`)).toMatchObject({ outcome: 'unchanged', condition: 'Issued' });
    const conflict = await deny(kc, `${P}-client-a`);
    expect(conflict.outcome).toBe('conflict');
    expect(conflict.line).toBe(`${P}-client-a: already issued, cannot be denied any more (a decision is final)`);

    expect((await deny(kc, `${P}-serving-bad`, 'outside the node addresses')).outcome).toBe('changed');
    const denied = await csrApi.readCertificateSigningRequest({ name: `${P}-serving-bad` });
    expect(denied.status?.conditions?.find((c) => c.type === 'Denied')).toMatchObject({ status: 'True', message: 'outside the node addresses' });
    expect(await deny(kc, `${P}-serving-bad`)).toMatchObject({ outcome: 'unchanged', condition: 'Denied' });

    // The duplicate-claim warning is gone once one of the two is decided.
    const after = await listCsrsWithWarnings(kc);
    expect(find(after, `${P}-client-b`).warnings).toEqual([]);
    expect(find(after, `${P}-client-a`).condition).toBe('Issued');
  });

  it('CLI: lists pending CSRs, refuses --read-only and without --yes, approves by name and --all-from, denies', async () => {
    await clientCsr(`${P}-cli-1`, as(REQ_A));
    await clientCsr(`${P}-cli-2`, as(REQ_B));
    await clientCsr(`${P}-cli-3`, as(REQ_B));
    const base = ['--kubeconfig', kubeconfig, '--context', CONTEXT];

    const listed = await runCli(['approve', ...base]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${P}-cli-1  Pending`);
    expect(listed.stdout).toContain(`requester ${REQ_A}`);
    expect(listed.stdout).toContain(`signer    ${KUBELET_CLIENT_SIGNER}`);
    expect(listed.stdout).toContain(`subject   CN=system:node:${nodeName}, O=system:nodes`);
    expect(listed.stdout).toContain(`‼ node ${nodeName} is also claimed by pending requests from ${REQ_B}`);
    const json = JSON.parse((await runCli(['approve', ...base, '-o', 'json'])).stdout) as { context: string; pending: CsrSummary[] };
    expect(json.context).toBe(CONTEXT);
    expect(json.pending.find((c) => c.name === `${P}-cli-2`)).toMatchObject({ requester: REQ_B, condition: 'Pending' });

    const ro = await runCli(['approve', ...base, '--read-only', `${P}-cli-1`, '--yes']);
    expect(ro.code).toBe(2);
    expect(ro.stderr).toMatch(/refused with --read-only/);
    const noYes = await runCli(['approve', ...base, `${P}-cli-1`]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/confirm with --yes/);
    const unknown = await runCli(['approve', ...base, `${P}-nope`, '--yes']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no certificate signing request named "${P}-nope"`);
    // The read-only user can list but not approve: the server says so in one line.
    const roUser = await runCli(['approve', '--kubeconfig', readOnlyKubeconfig, '--context', CONTEXT, `${P}-cli-1`, '--yes']);
    expect(roUser.code).toBe(1);
    expect(roUser.stdout + roUser.stderr).toMatch(/HTTP 403/);

    const byName = await runCli(['approve', ...base, `${P}-cli-1`, '--yes']);
    expect(byName.code).toBe(0);
    expect(byName.stdout).toContain(`${P}-cli-1: approved`);
    const again = await runCli(['approve', ...base, `${P}-cli-1`, '--yes']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`${P}-cli-1: already approved`));

    const fromB = await runCli(['approve', ...base, '--all-from', REQ_B, '--deny', '--yes', '-o', 'json']);
    expect(fromB.code).toBe(0);
    const res = JSON.parse(fromB.stdout) as { decision: string; results: { name: string; outcome: string }[] };
    expect(res.decision).toBe('Denied');
    // REQ_B's pending ones: these two and client-b of the first test.
    expect(res.results.map((r) => r.name).sort()).toEqual([`${P}-cli-2`, `${P}-cli-3`, `${P}-client-b`]);
    expect(res.results.every((r) => r.outcome === 'changed')).toBe(true);
    const denied = await csrApi.readCertificateSigningRequest({ name: `${P}-cli-3` });
    expect(denied.status?.conditions?.map((c) => c.type)).toEqual(['Denied']);
  });

  it('auto-approve: the watch approves new pending CSRs of one requester and signer, not others', async () => {
    // The library watch the --auto mode and the panel use.
    const seen: CsrSummary[][] = [];
    const w = watchCsrs(kc, { onChange: (c) => seen.push(c) });
    try {
      await clientCsr(`${P}-watch-1`, as(REQ_A));
      await eventually('watch sees the new CSR', () => seen.at(-1)?.some((c) => c.name === `${P}-watch-1` && c.condition === 'Pending'), 30_000);
    } finally {
      await w.stop();
    }

    const { spawn } = await import('node:child_process');
    const { CLI } = await import('../helpers/cli.js');
    const child = spawn(process.execPath, [CLI, 'approve', '--kubeconfig', kubeconfig, '--context', CONTEXT, '--auto', '--requester', REQ_A, '--signer', KUBELET_CLIENT_SIGNER, '--yes'], {
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await eventually('auto mode announced', () => out.includes('Auto-approve on kind-workload-2'), 30_000);
      // Pending at the start, and new ones, from REQ_A: approved; REQ_B's: left alone.
      await eventually('the waiting CSR approved', () => out.includes(`${P}-watch-1: approved`), 30_000);
      await clientCsr(`${P}-auto-a`, as(REQ_A));
      await clientCsr(`${P}-auto-b`, as(REQ_B));
      await eventually('the new CSR approved', () => out.includes(`${P}-auto-a: approved`), 30_000);
      await new Promise((r) => setTimeout(r, 1500));
      expect(out).not.toContain(`${P}-auto-b`);
      const b = await csrApi.readCertificateSigningRequest({ name: `${P}-auto-b` });
      expect(b.status?.conditions ?? []).toEqual([]);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('close', r));
    }
    expect(out).toContain('Auto-approve stopped.');
  });
});
