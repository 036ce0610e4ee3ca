import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KUBELET_CLIENT_SIGNER, type CsrSummary } from '../../src/kube/csr/index.js';
import { eventually, runCli } from '../helpers/cli/cli.js';
import { csrFixture, type CsrFixture } from '../helpers/sandbox/csr-sandbox.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const CONTEXT = 'kind-workload-2';
const kubeconfig = sandbox().kubeconfig;
const readOnlyKubeconfig = sandbox().readOnlyKubeconfig;
let f: CsrFixture;

beforeAll(async () => {
  f = await csrFixture(kubeconfig, CONTEXT, 'fd-approve');
});

afterAll(async () => {
  await f.cleanup();
});

describe('fleetdeck approve on a sandbox cluster', () => {
  it('CLI: lists pending CSRs, refuses --read-only and without --yes, approves by name and --all-from, denies', async () => {
    // A pending request of REQ_B for another node, made before: --all-from takes it too.
    await f.clientCsr(`${f.P}-client-b`, f.as(f.REQ_B), `${f.P}-node`);
    await f.clientCsr(`${f.P}-cli-1`, f.as(f.REQ_A));
    await f.clientCsr(`${f.P}-cli-2`, f.as(f.REQ_B));
    await f.clientCsr(`${f.P}-cli-3`, f.as(f.REQ_B));
    const base = ['--kubeconfig', kubeconfig, '--context', CONTEXT];

    const listed = await runCli(['approve', ...base]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${f.P}-cli-1  Pending`);
    expect(listed.stdout).toContain(`requester ${f.REQ_A}`);
    expect(listed.stdout).toContain(`signer    ${KUBELET_CLIENT_SIGNER}`);
    expect(listed.stdout).toContain(`subject   CN=system:node:${f.nodeName}, O=system:nodes`);
    expect(listed.stdout).toContain(`‼ node ${f.nodeName} is also claimed by pending requests from ${f.REQ_B}`);
    const json = JSON.parse((await runCli(['approve', ...base, '-o', 'json'])).stdout) as { context: string; pending: CsrSummary[] };
    expectMatchesSchema(json, 'approve');
    expect(json.context).toBe(CONTEXT);
    expect(json.pending.find((c) => c.name === `${f.P}-cli-2`)).toMatchObject({ requester: f.REQ_B, condition: 'Pending' });

    const ro = await runCli(['approve', ...base, '--read-only', `${f.P}-cli-1`, '--yes']);
    expect(ro.code).toBe(2);
    expect(ro.stderr).toMatch(/refused with --read-only/);
    const noYes = await runCli(['approve', ...base, `${f.P}-cli-1`]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/confirm with --yes/);
    const unknown = await runCli(['approve', ...base, `${f.P}-nope`, '--yes']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no certificate signing request named "${f.P}-nope"`);
    // The read-only user can list but not approve: the server says so in one line.
    const roUser = await runCli(['approve', '--kubeconfig', readOnlyKubeconfig, '--context', CONTEXT, `${f.P}-cli-1`, '--yes']);
    expect(roUser.code).toBe(1);
    // The refusal is an error: on stderr, one line, not among the results on stdout.
    expect(roUser.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^fleetdeck: ${f.P}-cli-1: .*HTTP 403`))]);
    expect(roUser.stdout).not.toMatch(/403/);

    const byName = await runCli(['approve', ...base, `${f.P}-cli-1`, '--yes']);
    expect(byName.code, byName.stdout + byName.stderr).toBe(0);
    expect(byName.stdout).toContain(`${f.P}-cli-1: approved`);
    const again = await runCli(['approve', ...base, `${f.P}-cli-1`, '--yes']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`${f.P}-cli-1: already approved`));

    const fromB = await runCli(['approve', ...base, '--all-from', f.REQ_B, '--deny', '--yes', '-o', 'json']);
    expect(fromB.code, fromB.stdout + fromB.stderr).toBe(0);
    const res = JSON.parse(fromB.stdout) as { decision: string; results: { name: string; outcome: string }[] };
    expectMatchesSchema(res, 'approve');
    expect(res.decision).toBe('Denied');
    // REQ_B's pending ones: these two and client-b made first.
    expect(res.results.map((r) => r.name).sort()).toEqual([`${f.P}-cli-2`, `${f.P}-cli-3`, `${f.P}-client-b`]);
    expect(res.results.every((r) => r.outcome === 'changed')).toBe(true);
    const denied = await f.csrApi.readCertificateSigningRequest({ name: `${f.P}-cli-3` });
    expect(denied.status?.conditions?.map((c) => c.type)).toEqual(['Denied']);
  });

  it('auto-approve: the watch approves new pending CSRs of one requester and signer, not others', async () => {
    // Pending before the rule is on: approved when it starts.
    await f.clientCsr(`${f.P}-watch-1`, f.as(f.REQ_A));

    const { spawn } = await import('node:child_process');
    const { CLI } = await import('../helpers/cli/cli.js');
    const child = spawn(
      process.execPath,
      [
        CLI,
        'approve',
        '--kubeconfig',
        kubeconfig,
        '--context',
        CONTEXT,
        '--auto',
        '--requester',
        f.REQ_A,
        '--signer',
        KUBELET_CLIENT_SIGNER,
        '--yes',
      ],
      {
        env: { ...process.env, CI: 'true' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    // What the auto mode printed, when a wait fails.
    const said = <T>(p: Promise<T>) => p.catch((err: unknown) => Promise.reject(new Error(`${String(err)}; output so far:\n${out}`)));
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await said(eventually('auto mode announced', () => out.includes('Auto-approve on kind-workload-2'), 30_000));
      // Pending at the start, and new ones, from REQ_A: approved; REQ_B's: left alone.
      await said(eventually('the waiting CSR approved', () => out.includes(`${f.P}-watch-1: approved`), 30_000));
      // REQ_B's request comes first: the watch hands it over before the two of REQ_A that follow,
      // so once both of those are approved the rule has long had its chance at it.
      await f.clientCsr(`${f.P}-auto-b`, f.as(f.REQ_B));
      await f.clientCsr(`${f.P}-auto-a`, f.as(f.REQ_A));
      await said(eventually('the new CSR approved', () => out.includes(`${f.P}-auto-a: approved`), 30_000));
      await f.clientCsr(`${f.P}-auto-a2`, f.as(f.REQ_A));
      await said(eventually('the next CSR approved', () => out.includes(`${f.P}-auto-a2: approved`), 30_000));
      expect(out).not.toContain(`${f.P}-auto-b`);
      const b = await f.csrApi.readCertificateSigningRequest({ name: `${f.P}-auto-b` });
      expect(b.status?.conditions ?? []).toEqual([]);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('close', r));
    }
    expect(out).toContain('Auto-approve stopped.');
  });
});
