/**
 * `fleetdeck certs renew` on a control plane installed on the sandbox (HA, one workload
 * cluster), in a namespace of its own: refused under --read-only and changes nothing in a dry
 * run; `all --yes` while a watcher polls the API through the load balancer (it answers before,
 * during and after the run), the new serving certificate in use, the CA kept, the agent
 * re-connected, the kubeconfig updated; a second run renews again; a run killed after its first
 * Secret update is finished by the next. The control plane is left healthy and uninstalled.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { apiAnswers } from '../../../src/kube/certs/serving-cert.js';
import { CLI, eventually } from '../../helpers/cli/cli.js';
import { answeringThrough, renewFleet, serial } from '../../helpers/sandbox/renew-fleet.js';
import { expectMatchesSchema } from '../../helpers/schema.js';

const fleet = renewFleet('renew');
const { kubeconfig, env, written, cli, cpKc, secretText, versions, servingMatchesSecret } = fleet;
const recordPhase = async () => (await fleet.record())?.phase;

beforeAll(() => fleet.install());
afterAll(() => fleet.uninstall());

describe('fleetdeck certs renew', () => {
  it('--read-only refuses in one line and --dry-run prints the plan; neither writes', async () => {
    const before = await versions();
    const file = fs.readFileSync(written, 'utf8');
    const refused = await cli(['--read-only', 'certs', 'renew', 'all', '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      "fleetdeck: certs renew changes the control plane's certificates and is refused with --read-only (use --dry-run to see its plan)",
    ]);
    const dry = await cli(['certs', 'renew', '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expectMatchesSchema(JSON.parse(dry.stdout), 'certs-renew');
    const plan = (JSON.parse(dry.stdout) as { plan: { certs: { name: string }[]; restarts: { component: string }[]; agents: string[] } })
      .plan;
    expect(plan.certs).toHaveLength(13);
    expect(plan.restarts.map((r) => r.component)).toEqual(['etcd', 'apiserver', 'controller-manager', 'nova-scheduler']);
    expect(plan.agents).toEqual(['kind-workload-1']);
    expect(dry.stdout).not.toMatch(/PRIVATE KEY/);
    expect(await versions()).toEqual(before);
    expect(await recordPhase()).toBeUndefined();
    expect(fs.readFileSync(written, 'utf8')).toBe(file);
  });

  it('all --yes: the API keeps answering through the load balancer, the new serving certificate is in use, the CA is kept, the agent reconnects', async () => {
    const ca = await secretText('nova-ca', 'ca.crt');
    const oldServing = serial(await secretText('nova-apiserver-certs', 'apiserver.crt'));
    const start = Date.now();
    const run = await answeringThrough(cpKc(), () => cli(['certs', 'renew', 'all', '--yes']));
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('Renewal finished');
    expect(run.stdout + run.stderr).not.toMatch(/PRIVATE KEY/);

    expect(await secretText('nova-ca', 'ca.crt')).toBe(ca);
    const serving = await secretText('nova-apiserver-certs', 'apiserver.crt');
    expect(serial(serving)).not.toBe(oldServing);
    await servingMatchesSecret();

    await fleet.agentFresh(start);

    const admin = await secretText('nova-admin', 'tls.crt');
    const user = loadKubeconfig({ kubeconfig: written }).config.getCurrentUser();
    expect(Buffer.from(user?.certData ?? '', 'base64').toString('utf8')).toBe(admin);
    expect(fs.statSync(written).mode & 0o777).toBe(0o600);
    expect(await apiAnswers(cpKc())).toBe(true);
    expect(await recordPhase()).toBe('done');
  });

  it('a second run after a finished one renews again (new serials, same CA)', async () => {
    const ca = await secretText('nova-ca', 'ca.crt');
    const before = serial(await secretText('nova-admin', 'tls.crt'));
    const run = await cli(['certs', 'renew', 'admin', 'apiserver', '--yes', '-o', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { ok: boolean; certs: { name: string; serial: string }[] };
    expectMatchesSchema(out, 'certs-renew');
    expect(out.ok).toBe(true);
    expect(out.certs.map((c) => c.name)).toEqual(['apiserver', 'admin']);
    expect(out.certs[1]?.serial).not.toBe(before);
    expect(out.certs[1]?.serial).toBe(serial(await secretText('nova-admin', 'tls.crt')));
    expect(await secretText('nova-ca', 'ca.crt')).toBe(ca);
    await servingMatchesSecret();
  });

  it('a run killed after its first Secret update is finished by the next run', async () => {
    const before = (await versions())['nova-apiserver-certs'];
    const child = spawn(process.execPath, [CLI, 'certs', 'renew', 'all', '--yes', '--kubeconfig', kubeconfig], {
      env: { ...process.env, CI: 'true', ...env },
      stdio: 'ignore',
    });
    const exited = new Promise((r) => child.once('exit', r));
    await eventually('a Secret updated by the renewal', async () => (await versions())['nova-apiserver-certs'] !== before, 300_000, 50);
    child.kill('SIGKILL');
    await exited;
    expect(await recordPhase()).not.toBe('done');

    const again = await cli(['certs', 'renew', 'all', '--yes']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('did not finish: this run finishes it');
    expect(again.stdout).toContain('continuing the renewal started');
    expect(await recordPhase()).toBe('done');
    await servingMatchesSecret();
    const status = await cli(['certs']);
    expect(status.code, status.stdout).toBe(0);
  });
});
