/**
 * `fleetdeck certs renew --rotate-ca` on a control plane installed on the sandbox (HA, one
 * workload cluster, a namespace of its own): `all --yes` while a watcher polls the API through
 * the load balancer (it answers before, during and after the run) hands every CA over (new
 * serials, serving certificate signed by the new cluster CA, the install's kubeconfig working
 * with only the new CA, the agent re-connected); a rotation killed mid-way is finished by the
 * next run with the same new CA; a plain renewal afterwards still works.
 */
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { apiAnswers } from '../../../src/kube/certs/serving-cert.js';
import { CLI, eventually } from '../../helpers/cli/cli.js';
import { answeringThrough, renewFleet, serial } from '../../helpers/sandbox/renew-fleet.js';
import { expectMatchesSchema } from '../../helpers/schema.js';

const fleet = renewFleet('rotca');
const { kubeconfig, env, written, cli, cpKc, secretText, servingMatchesSecret } = fleet;
const CA_SECRETS = ['nova-ca', 'nova-etcd-ca', 'nova-front-proxy-ca'];

const caSerials = async () => Promise.all(CA_SECRETS.map(async (s) => serial(await secretText(s, 'ca.crt'))));
const pemCount = (pem: string) => (pem.match(/BEGIN CERTIFICATE/g) ?? []).length;

/** The serving certificate in the Secret is signed by the cluster CA in its Secret, and the install's kubeconfig trusts exactly that CA. */
async function handedOver(): Promise<void> {
  const ca = new X509Certificate(await secretText('nova-ca', 'ca.crt'));
  expect(new X509Certificate(await secretText('nova-apiserver-certs', 'apiserver.crt')).verify(ca.publicKey)).toBe(true);
  for (const [secret, key] of [
    ['nova-apiserver-certs', 'ca.crt'],
    ['nova-apiserver-certs', 'etcd-ca.crt'],
    ['nova-etcd-certs', 'ca.crt'],
  ] as const)
    expect(pemCount(await secretText(secret, key)), `${secret} ${key}`).toBe(1);
  await servingMatchesSecret();
  const cluster = loadKubeconfig({ kubeconfig: written }).config.getCurrentCluster();
  const trusted = Buffer.from(cluster?.caData ?? '', 'base64').toString('utf8');
  expect(pemCount(trusted)).toBe(1);
  expect(serial(trusted)).toBe(serial(ca.toString()));
  expect(await apiAnswers(cpKc())).toBe(true);
}

beforeAll(() => fleet.install());
afterAll(() => fleet.uninstall());

// A rotation restarts every component three times, one replica at a time: minutes on a busy machine.
describe('fleetdeck certs renew --rotate-ca', { timeout: 900_000 }, () => {
  it('--dry-run prints the three phases and writes nothing; a leaf name is refused', async () => {
    const dry = await cli(['certs', 'renew', 'all', '--rotate-ca', '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expectMatchesSchema(JSON.parse(dry.stdout), 'certs-renew');
    const plan = (JSON.parse(dry.stdout) as { plan: { cas: { name: string }[]; phases: { phase: string }[] } }).plan;
    expect(plan.cas.map((c) => c.name)).toEqual(['cluster-ca', 'etcd-ca', 'front-proxy-ca']);
    expect(plan.phases.map((p) => p.phase)).toEqual(['bundle', 'leaves', 'drop']);
    expect(await fleet.record('rotation')).toBeUndefined();
    const bad = await cli(['certs', 'renew', 'admin', '--rotate-ca', '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('all --yes: every CA handed over with the API answering through the load balancer, the agent re-connected', async () => {
    const before = await caSerials();
    const start = Date.now();
    // The kubeconfig file is re-read for every poll: the trust and the admin certificate in it change.
    const run = await answeringThrough(cpKc, () => cli(['certs', 'renew', 'all', '--rotate-ca', '--yes']));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toMatch(/PRIVATE KEY/);
    const after = await caSerials();
    for (const [i, s] of after.entries()) expect(s).not.toBe(before[i]);
    await handedOver();
    await fleet.agentFresh(start);
    expect((await fleet.record('rotation'))?.phase).toBe('done');
  });

  it('a rotation killed mid-way is finished by the next run with the same new CA', async () => {
    const old = serial(await secretText('nova-ca', 'ca.crt'));
    const child = spawn(process.execPath, [CLI, 'certs', 'renew', 'cluster-ca', '--rotate-ca', '--yes', '--kubeconfig', kubeconfig], {
      env: { ...process.env, CI: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    for (const s of [child.stdout, child.stderr]) s.on('data', (d: Buffer) => (said += d.toString()));
    const exited = new Promise((r) => child.once('exit', r));
    // Stopped the moment its record shows the bundle's Secrets written (its restarts under way)
    // or a later phase, so what is read next is the state the kill leaves behind.
    const at = await eventually(
      'the rotation past writing its bundle',
      async () => {
        const rec = (await fleet.record('rotation')) as { phase: string; written?: boolean } | undefined;
        const midway = rec && ((rec.phase === 'bundle' && rec.written) || rec.phase === 'leaves');
        if (midway) child.kill('SIGSTOP');
        return midway ? rec.phase : undefined;
      },
      600_000,
    );
    const stopped = await fleet.record('rotation');
    expect(['bundle', 'leaves']).toContain(stopped?.phase);
    // What the stopped run printed and recorded, should its new CA not be where it says it is.
    const next = serial(
      await secretText('nova-ca-next', 'ca.crt').catch((err: unknown) => {
        throw new Error(`${String(err).split('\n')[0]}; record ${JSON.stringify(stopped)}; the run printed:\n${said}`);
      }),
    );
    child.kill('SIGKILL');
    await exited;
    const again = await cli(['certs', 'renew', '--rotate-ca', '--yes']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain(`continuing the rotation started`);
    expect(again.stdout).toMatch(new RegExp(`at phase (${at}|${stopped?.phase})`));
    const now = serial(await secretText('nova-ca', 'ca.crt'));
    expect(now).not.toBe(old);
    expect(now).toBe(next);
    await handedOver();
  });

  it('a plain renewal afterwards still works', async () => {
    const ca = await secretText('nova-ca', 'ca.crt');
    const run = await cli(['certs', 'renew', 'all', '--yes']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(await secretText('nova-ca', 'ca.crt')).toBe(ca);
    await servingMatchesSecret();
    const status = await cli(['certs']);
    expect(status.code, status.stdout).toBe(0);
  });
});
