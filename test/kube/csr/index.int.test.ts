import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KUBELET_CLIENT_SIGNER,
  KUBELET_SERVING_SIGNER,
  approve,
  deny,
  listCsrsWithWarnings,
  watchCsrs,
  type CsrSummary,
} from '../../../src/kube/csr/index.js';
import { eventually } from '../../helpers/cli/cli.js';
import { csrFixture, findCsr, type CsrFixture } from '../../helpers/sandbox/csr-sandbox.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const CONTEXT = 'kind-workload-2';
const kubeconfig = sandbox().kubeconfig;
let f: CsrFixture;

beforeAll(async () => {
  f = await csrFixture(kubeconfig, CONTEXT, 'fd-csr');
});

afterAll(async () => {
  await f.cleanup();
});

describe('CertificateSigningRequests (certificates.k8s.io/v1 on a sandbox cluster)', () => {
  it('lists kubelet client and serving CSRs with subject, SANs and warnings; approves (issued) and denies', async () => {
    const dupNode = `${f.P}-node`;
    await f.clientCsr(`${f.P}-client-a`, f.as(f.REQ_A), dupNode);
    await f.clientCsr(`${f.P}-client-b`, f.as(f.REQ_B), dupNode);
    const ip = f.nodeAddrs.find((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a))!;
    await f.servingCsr(
      `${f.P}-serving-ok`,
      f.as(`system:node:${f.nodeName}`),
      [f.nodeName].filter((n) => f.nodeAddrs.includes(n)),
      [ip],
    );
    await f.servingCsr(`${f.P}-serving-bad`, f.as(`system:node:${f.nodeName}`), ['evil.example.com'], [ip, '203.0.113.9']);

    const list = await listCsrsWithWarnings(f.kc);
    const a = findCsr(list, `${f.P}-client-a`);
    expect(a).toMatchObject({
      requester: f.REQ_A,
      signer: KUBELET_CLIENT_SIGNER,
      usages: ['digital signature', 'key encipherment', 'client auth'],
      subject: { commonName: `system:node:${dupNode}`, organizations: ['system:nodes'] },
      condition: 'Pending',
      nodeName: dupNode,
    });
    expect(a.groups).toContain('system:authenticated');
    // Duplicate claim: two requesters, one node name.
    expect(a.warnings).toEqual([`node ${dupNode} is also claimed by pending requests from ${f.REQ_B}`]);
    expect(findCsr(list, `${f.P}-client-b`).warnings).toEqual([`node ${dupNode} is also claimed by pending requests from ${f.REQ_A}`]);

    const ok = findCsr(list, `${f.P}-serving-ok`);
    expect(ok).toMatchObject({ signer: KUBELET_SERVING_SIGNER, requester: `system:node:${f.nodeName}`, ipAddresses: [ip] });
    expect(ok.warnings).toEqual([]);
    const bad = findCsr(list, `${f.P}-serving-bad`);
    expect(bad.dnsNames).toEqual(['evil.example.com']);
    expect(bad.ipAddresses).toEqual([ip, '203.0.113.9']);
    expect(bad.warnings).toEqual([
      `asks for evil.example.com, 203.0.113.9, not among node ${f.nodeName}'s addresses (${f.nodeAddrs.join(', ')})`,
    ]);

    // Approve: the controller-manager (started with --cluster-signing-*) then issues the certificate.
    expect((await approve(f.kc, `${f.P}-client-a`, 'test')).outcome).toBe('changed');
    const issued = await eventually(
      'certificate issued',
      async () => (await f.csrApi.readCertificateSigningRequest({ name: `${f.P}-client-a` })).status?.certificate,
      60_000,
      250,
    );
    expect(Buffer.from(issued, 'base64').toString()).toContain('BEGIN CERTIFICATE');
    // Idempotent; a decided CSR cannot be decided the other way.
    expect(await approve(f.kc, `${f.P}-client-a`)).toMatchObject({ outcome: 'unchanged', condition: 'Issued' });
    const conflict = await deny(f.kc, `${f.P}-client-a`);
    expect(conflict.outcome).toBe('conflict');
    expect(conflict.line).toBe(`${f.P}-client-a: already issued, cannot be denied any more (a decision is final)`);

    expect((await deny(f.kc, `${f.P}-serving-bad`, 'outside the node addresses')).outcome).toBe('changed');
    const denied = await f.csrApi.readCertificateSigningRequest({ name: `${f.P}-serving-bad` });
    expect(denied.status?.conditions?.find((c) => c.type === 'Denied')).toMatchObject({
      status: 'True',
      message: 'outside the node addresses',
    });
    expect(await deny(f.kc, `${f.P}-serving-bad`)).toMatchObject({ outcome: 'unchanged', condition: 'Denied' });

    // The duplicate-claim warning is gone once one of the two is decided.
    const after = await listCsrsWithWarnings(f.kc);
    expect(findCsr(after, `${f.P}-client-b`).warnings).toEqual([]);
    expect(findCsr(after, `${f.P}-client-a`).condition).toBe('Issued');
  });

  it('the watch sees a new pending CSR', async () => {
    const seen: CsrSummary[][] = [];
    const w = watchCsrs(f.kc, { onChange: (c) => seen.push(c) });
    try {
      await f.clientCsr(`${f.P}-watch-1`, f.as(f.REQ_A));
      await eventually(
        'watch sees the new CSR',
        () => seen.at(-1)?.some((c) => c.name === `${f.P}-watch-1` && c.condition === 'Pending'),
        30_000,
      );
    } finally {
      await w.stop();
    }
    expect(seen.at(-1)?.find((c) => c.name === `${f.P}-watch-1`)).toMatchObject({ requester: f.REQ_A, signer: KUBELET_CLIENT_SIGNER });
  });
});
