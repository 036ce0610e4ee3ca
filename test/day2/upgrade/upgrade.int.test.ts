/**
 * `fleetdeck upgrade` on a control plane installed on the sandbox with both workload clusters:
 * from the shipped bundle to a copy with new image tags and one new flag (component by component,
 * then the agents, the canary first), the same again (nothing changes), to a copy with an image
 * that cannot be pulled (paused, with the reason and how to go back), `--rollback` (the objects
 * before it), and back to the shipped bundle: the control plane is left as it was found.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AppsV1Api, CoreV1Api, type V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { ROOT } from '../../helpers/cli/cli.js';
import { type NovaFleet, novaFleet } from '../../helpers/sandbox/nova-fleet.js';
import { expectMatchesSchema } from '../../helpers/schema.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const CP = ['apiserver', 'controller-manager', 'nova-scheduler'];
const WORKLOADS = ['kind-workload-1', 'kind-workload-2'];
const FLAG = '--concurrent-deployment-syncs=10';
/** The controller-manager's image with its name misspelt. */
const MISSPELT = 'registry.k8s.io/kube-controler-manager:v1.28.5';
let fleet: NovaFleet;
let newer: string;
let broken: string;
let shipped: Record<string, unknown>;

const kcOf = (context: string) => configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, context);
const apps = (context: string) => makeClient(kcOf(context), AppsV1Api, 60_000);

/** The Deployments' specs as they are: the control plane's and each workload cluster's agent. */
async function specs(): Promise<Record<string, V1Deployment['spec']>> {
  const out: Record<string, V1Deployment['spec']> = {};
  for (const name of CP) out[name] = (await apps('kind-cp').readNamespacedDeployment({ name, namespace: fleet.namespace })).spec;
  for (const w of WORKLOADS)
    out[`agent:${w}`] = (await apps(w).readNamespacedDeployment({ name: 'nova-agent', namespace: fleet.namespace })).spec;
  return out;
}

/** Every resourceVersion the upgrade could change (Deployments, the bundle record). */
async function versions(): Promise<string[]> {
  const out: string[] = [];
  for (const name of CP)
    out.push((await apps('kind-cp').readNamespacedDeployment({ name, namespace: fleet.namespace })).metadata?.resourceVersion ?? '');
  const core = makeClient(kcOf('kind-cp'), CoreV1Api, 60_000);
  out.push((await core.readNamespacedConfigMap({ name: 'fleetdeck-bundle', namespace: fleet.namespace })).metadata?.resourceVersion ?? '');
  return out;
}

/** A copy of the shipped bundle with `edit(file, text)` applied to each manifest. */
function bundleCopy(name: string, edit: (file: string, text: string) => string): string {
  const dir = path.join(fleet.dir, name);
  fs.cpSync(path.join(ROOT, 'src', 'install', 'bundle'), dir, { recursive: true });
  for (const f of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, f);
    if (f.endsWith('.yaml')) fs.writeFileSync(file, edit(f, fs.readFileSync(file, 'utf8')));
  }
  return dir;
}

const containers = (s: V1Deployment['spec']) => s?.template.spec?.containers ?? [];

interface UpgradeJson {
  ok: boolean;
  plan: { objects: { ref: string; action: string }[]; images: { workload: string; from?: string; to?: string }[] };
  steps: { id: string; state: string }[];
  rolled: string[];
  backup: { file: string } | null;
  failed: { step: string; reason: string; hint: string } | null;
}

beforeAll(async () => {
  fleet = novaFleet(sandbox().kubeconfig, 'nova-upgrade');
  let install = await fleet.install(['--workload', WORKLOADS.join(',')]);
  // The install continues where it stopped: once more when its last check met a slow cluster.
  if (install.code !== 0) install = await fleet.install(['--workload', WORKLOADS.join(',')]);
  expect(install.code, install.stdout + install.stderr).toBe(0);
  shipped = await specs();
  newer = bundleCopy('newer', (f, t) => {
    let out = t
      .replace(/(kube-(apiserver|controller-manager|scheduler)):v1\.28\.4/g, '$1:v1.28.5')
      .replace('nova-agent:v0.7.0', 'nova-agent:v0.7.1');
    if (f.endsWith('base/control-plane/kube-controller-manager.yaml'))
      out = out.replace('            - --bind-address=0.0.0.0\n', `            - --bind-address=0.0.0.0\n            - ${FLAG}\n`);
    return out;
  });
  // A misspelt image: the sandbox's kubelet cannot pull it, as a node cannot (ImagePullBackOff).
  broken = bundleCopy('broken', (f) => {
    const out = fs.readFileSync(path.join(newer, f), 'utf8');
    if (!f.endsWith('base/control-plane/kube-controller-manager.yaml')) return out;
    return out.replace('registry.k8s.io/kube-controller-manager:v1.28.5', MISSPELT);
  });
  expect(fs.readFileSync(path.join(broken, 'base/control-plane/kube-controller-manager.yaml'), 'utf8')).toContain(MISSPELT);
}, 900_000);

afterAll(async () => {
  await fleet.close();
});

describe('fleetdeck upgrade', () => {
  it('--dry-run prints the plan and writes nothing; --read-only refuses in one line; no TTY without --yes is exit 2', async () => {
    const before = await versions();
    const dry = await fleet.cli(['upgrade', '--bundle', newer, '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expectMatchesSchema(JSON.parse(dry.stdout), 'upgrade');
    const plan = (JSON.parse(dry.stdout) as UpgradeJson).plan;
    const changed = plan.objects.filter((o) => o.action === 'update').map((o) => o.ref);
    expect(changed).toEqual([
      ...CP.map((n) => `Deployment ${fleet.namespace}/${n}`),
      `Deployment ${fleet.namespace}/nova-agent`,
      `Deployment ${fleet.namespace}/nova-agent`,
    ]);
    expect(plan.images).toContainEqual(
      expect.objectContaining({
        workload: `Deployment ${fleet.namespace}/apiserver`,
        from: 'registry.k8s.io/kube-apiserver:v1.28.4',
        to: 'registry.k8s.io/kube-apiserver:v1.28.5',
      }),
    );
    const readOnly = await fleet.cli(['--read-only', 'upgrade', '--bundle', newer, '--yes']);
    expect(readOnly.code).toBe(2);
    expect(readOnly.stderr.trim().split('\n')).toHaveLength(1);
    expect(readOnly.stderr).toContain('refused with --read-only');
    const unconfirmed = await fleet.cli(['upgrade', '--bundle', newer]);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('confirm with --yes');
    expect(await versions()).toEqual(before);
  });

  it('rolls component by component, then the agents with the canary first; the new images and flag are in place', async () => {
    const run = await fleet.cli(['upgrade', '--bundle', newer, '--canary', 'kind-workload-2', '--yes', '-o', 'json'], 600_000);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const out = JSON.parse(run.stdout) as UpgradeJson;
    expectMatchesSchema(out, 'upgrade');
    expect(out.rolled).toEqual(['apiserver', 'controller-manager', 'scheduler', 'agent:kind-workload-2', 'agent:kind-workload-1']);
    expect(out.steps.map((s) => s.id).slice(-2)).toEqual(['agent:kind-workload-2', 'agent:kind-workload-1']);
    expect(out.steps.every((s) => s.state === 'ok')).toBe(true);
    expect(fs.statSync(out.backup!.file).mode & 0o777).toBe(0o600);
    // Recorded as this machine's last backup (the Day 2 page's fact, restore's default file).
    const last = JSON.parse(fs.readFileSync(path.join(fleet.dir, 'last-backup.json'), 'utf8')) as { file: string };
    expect(last.file).toBe(out.backup!.file);
    const now = await specs();
    expect(containers(now.apiserver)[0]?.image).toBe('registry.k8s.io/kube-apiserver:v1.28.5');
    expect(containers(now['nova-scheduler'])[0]?.image).toBe('registry.k8s.io/kube-scheduler:v1.28.5');
    expect(containers(now['controller-manager'])[0]?.image).toBe('registry.k8s.io/kube-controller-manager:v1.28.5');
    expect(containers(now['controller-manager'])[0]?.args).toContain(FLAG);
    for (const w of WORKLOADS) expect(containers(now[`agent:${w}`])[0]?.image).toBe('elotl/nova-agent:v0.7.1');
  });

  it('a second upgrade to the same bundle changes nothing', async () => {
    const before = await specs();
    const generations = await Promise.all(
      CP.map(async (name) => (await apps('kind-cp').readNamespacedDeployment({ name, namespace: fleet.namespace })).metadata?.generation),
    );
    const run = await fleet.cli(['upgrade', '--bundle', newer, '--yes', '-o', 'json'], 600_000);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as UpgradeJson;
    expect(out.plan.objects.filter((o) => o.action !== 'unchanged')).toEqual([]);
    expect(out.rolled).toEqual([]);
    expect(await specs()).toEqual(before);
    const after = await Promise.all(
      CP.map(async (name) => (await apps('kind-cp').readNamespacedDeployment({ name, namespace: fleet.namespace })).metadata?.generation),
    );
    expect(after).toEqual(generations);
  });

  it('an image that cannot be pulled pauses it with the reason and how to go back (exit 1); --rollback restores the objects before it', async () => {
    const good = await specs();
    const run = await fleet.cli(['upgrade', '--bundle', broken, '--yes'], 600_000);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/paused at "Upgrade Kube-controller-manager": .*ImagePullBackOff/);
    expect(run.stdout).toContain('fleetdeck upgrade --rollback');
    // Nothing after the failed component ran: the agents are as they were.
    const paused = await specs();
    expect(paused['agent:kind-workload-1']).toEqual(good['agent:kind-workload-1']);
    expect(containers(paused['controller-manager'])[0]?.image).toBe(MISSPELT);

    const back = await fleet.cli(['upgrade', '--rollback', '--yes', '-o', 'json'], 600_000);
    expect(back.code, back.stderr + back.stdout).toBe(0);
    expect((JSON.parse(back.stdout) as UpgradeJson).rolled).toEqual(['controller-manager']);
    expect(await specs()).toEqual(good);
    const again = await fleet.cli(['upgrade', '--rollback', '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no previous bundle is recorded');
  });

  it('back to the shipped bundle: the objects the install made', async () => {
    const run = await fleet.cli(['upgrade', '--yes', '-o', 'json'], 600_000);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(await specs()).toEqual(shipped);
  });
});
