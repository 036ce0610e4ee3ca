import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppsV1Api, CoreV1Api, RbacAuthorizationV1Api, StorageV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, statusCode } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { installSteps } from '../../src/install/plan.js';
import { CLI, eventually, runCli } from '../helpers/cli/cli.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const NS = 'nova-e2e';
const WORKLOADS = ['kind-workload-1', 'kind-workload-2'];
const INSTALL = [
  'install',
  '--kubeconfig',
  kubeconfig,
  '--hosting-context',
  'kind-cp',
  '--workload',
  WORKLOADS.join(','),
  '--namespace',
  NS,
  '--no-ha',
  '--yes',
];
const UNINSTALL = [
  'uninstall',
  '--kubeconfig',
  kubeconfig,
  '--hosting-context',
  'kind-cp',
  '--workload',
  WORKLOADS.join(','),
  '--namespace',
  NS,
  '--yes',
];

const kc = (context: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig }).config, context);
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let dir: string;
let env: NodeJS.ProcessEnv;

/** Starts the CLI and SIGKILLs it as soon as a line of its output matches `when`; resolves with the output. */
function killWhen(args: string[], when: RegExp): Promise<{ killed: boolean; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, CI: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!killed && when.test(stdout)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ killed, stdout });
    });
  });
}

async function caFingerprint(): Promise<string> {
  const s = await makeClient(kc('kind-cp'), CoreV1Api).readNamespacedSecret({ name: 'nova-ca', namespace: NS });
  return sha(Buffer.from(s.data?.['ca.crt'] ?? '', 'base64').toString());
}

async function namesIn(context: string): Promise<string[]> {
  const apps = makeClient(kc(context), AppsV1Api);
  const core = makeClient(kc(context), CoreV1Api);
  const [deps, sets, secrets, services] = await Promise.all([
    apps.listNamespacedDeployment({ namespace: NS }),
    apps.listNamespacedStatefulSet({ namespace: NS }),
    core.listNamespacedSecret({ namespace: NS }),
    core.listNamespacedService({ namespace: NS }),
  ]);
  return [
    ...deps.items.map((d) => `deploy/${d.metadata!.name}`),
    ...sets.items.map((d) => `sts/${d.metadata!.name}`),
    ...secrets.items.filter((s) => s.type !== 'kubernetes.io/service-account-token').map((d) => `secret/${d.metadata!.name}`),
    ...services.items.map((d) => `svc/${d.metadata!.name}`),
  ].sort();
}

async function namespaceGone(context: string): Promise<boolean> {
  return makeClient(kc(context), CoreV1Api)
    .readNamespace({ name: NS })
    .then(
      () => false,
      (e: unknown) => statusCode(e) === 404,
    );
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-install-'));
  env = { FLEETDECK_FLEET_FILE: path.join(dir, 'fleet.yaml') };
});

afterAll(async () => {
  await runCli(UNINSTALL, { env, timeoutMs: 600_000 });
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('install, end to end on the sandbox', () => {
  it('a dry run lists what it would create in every context and changes nothing', async () => {
    const res = await runCli([...INSTALL, '--dry-run', '-o', 'json'], { env, timeoutMs: 120_000 });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { ok: boolean; dryRun: boolean; objects: { context: string; ref: string; action: string }[] };
    expectMatchesSchema(out, 'install');
    expect(out).toMatchObject({ ok: true, dryRun: true });
    const refs = out.objects.map((o) => `${o.context}: ${o.ref} ${o.action}`);
    expect(refs).toContain(`kind-cp: Namespace ${NS} created`);
    expect(refs).toContain(`kind-cp: Service ${NS}/apiserver created`);
    expect(refs).toContain(`kind-cp: StatefulSet ${NS}/etcd created`);
    expect(refs).toContain(`kind-cp: Secret ${NS}/nova-ca created`);
    expect(refs).toContain('nova: CustomResourceDefinition clusters.cluster.elotl.co created');
    expect(refs).toContain(`kind-workload-2: Deployment ${NS}/nova-agent created`);
    expect(refs).toContain(`kind-workload-2: Secret ${NS}/nova-cluster-init-kubeconfig created`);
    expect(await namespaceGone('kind-cp')).toBe(true);
    expect(await namespaceGone('kind-workload-1')).toBe(true);
    expect(fs.existsSync(env.FLEETDECK_FLEET_FILE!)).toBe(false);
  });

  it('is refused with --read-only, and without --yes when nobody can answer', async () => {
    const ro = await runCli([...INSTALL, '--read-only'], { env });
    expect(ro.code).toBe(2);
    expect(ro.stderr.trim().split('\n')).toEqual([
      'fleetdeck: install changes clusters and is refused with --read-only (use --dry-run to see what it would do)',
    ]);
    const noYes = await runCli(
      INSTALL.filter((a) => a !== '--yes'),
      { env },
    );
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toMatch(/confirm with --yes/);
    expect(await namespaceGone('kind-cp')).toBe(true);
  });

  it('killed at every step and run again, it finishes with no duplicates and the same CA; status is healthy', async () => {
    // Killed as each step starts, in turn (each run redoes the steps before it: they must be
    // idempotent), and once more right after the certificates were stored.
    const steps = installSteps({ workloads: WORKLOADS.map((w) => ({ context: w, clusterName: w })) as never, dryRun: false });
    // The CA after each killed run: none until a run stored it, then that one, run after run.
    const cas: (string | undefined)[] = [];
    for (const when of [...steps.map((s) => new RegExp(`\\d\\d ${escapeRegExp(s.label)}`)), /\* Certificates\.\.\. .*√/]) {
      const run = await killWhen(INSTALL, when);
      expect(run.killed, `killed at ${String(when)}; output:\n${run.stdout}`).toBe(true);
      cas.push(await caFingerprint().catch(() => undefined));
    }
    const stored = cas.findIndex((c) => c !== undefined);
    expect(stored, 'a killed run stored the CA').toBeGreaterThanOrEqual(0);
    const ca = cas[stored];
    expect(cas.slice(stored)).toEqual(cas.slice(stored).map(() => ca));

    const done = await runCli([...INSTALL, '-o', 'json'], { env, timeoutMs: 600_000 });
    expect(done.stderr).toBe('');
    const out = JSON.parse(done.stdout) as {
      ok: boolean;
      steps: { id: string; state: string; detail?: string }[];
      address: string;
      kubeconfig: string;
    };
    expectMatchesSchema(out, 'install');
    expect(out.steps.filter((s) => s.state !== 'ok').map((s) => `${s.id}: ${s.state} ${s.detail ?? ''}`)).toEqual([]);
    expect(out.ok).toBe(true);
    expect(done.code).toBe(0);
    expect(await caFingerprint()).toBe(ca);
    // Exactly the objects of one install, nothing twice.
    expect(await namesIn('kind-cp')).toEqual(
      [
        'deploy/apiserver',
        'deploy/controller-manager',
        'deploy/nova-scheduler',
        'sts/etcd',
        'svc/apiserver',
        'svc/etcd',
        ...[
          'nova-admin',
          'nova-agent-bootstrap',
          'nova-apiserver-certs',
          'nova-ca',
          'nova-controller-manager',
          'nova-etcd-ca',
          'nova-etcd-certs',
          'nova-front-proxy-ca',
          'nova-scheduler',
        ].map((n) => `secret/${n}`),
      ].sort(),
    );
    for (const w of WORKLOADS) expect(await namesIn(w)).toEqual(['deploy/nova-agent', 'secret/nova-cluster-init-kubeconfig']);
    // The kubeconfig written for the control plane: 0600, context nova.
    expect(fs.statSync(out.kubeconfig).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(out.kubeconfig, 'utf8')).toContain(`server: https://${out.address}:443`);

    // `fleetdeck status` on the recorded fleet: every row √, both clusters connected.
    const status = await runCli(['status', '--kubeconfig', kubeconfig, '--ascii'], { env, timeoutMs: 60_000 });
    expect(status.stdout).toMatch(/Nova Control Plane is healthy \[ok\]/);
    expect(status.stdout).toMatch(/Cluster kind-workload-1 connected and ready \[ok\]/);
    expect(status.stdout).toMatch(/Cluster kind-workload-2 connected and ready \[ok\]/);
    expect(status.code).toBe(0);

    // A second run changes nothing.
    const again = await runCli([...INSTALL, '-o', 'json'], { env, timeoutMs: 300_000 });
    const objects = (JSON.parse(again.stdout) as { objects: { action: string; ref: string }[] }).objects;
    expect(objects.filter((o) => o.action !== 'unchanged').map((o) => o.ref)).toEqual([]);
    expect(await caFingerprint()).toBe(ca);
  });

  it('after the install, fleetdeck logs and kubectl logs read the same agent lines; the control plane’s etcd log is etcd’s own', async () => {
    const context = WORKLOADS[0]!;
    // The agent has said it registered (it is quiet afterwards: the heartbeat writes no line).
    const agent = await eventually(
      'the agent’s registration line',
      async () => {
        const r = await runCli(['logs', '--kubeconfig', kubeconfig, '--context', context, '-n', NS, 'deployment/nova-agent'], { env });
        return r.code === 0 && r.stdout.includes('registered cluster') ? r : undefined;
      },
      60_000,
      1000,
    );
    const ours = agent.stdout
      .trimEnd()
      .split('\n')
      .map((line) => {
        expect(line).toMatch(new RegExp(`^${context}/nova-agent-[a-z0-9-]+/\\S+ `));
        return line.slice(line.indexOf(' ') + 1);
      });
    const theirs = await kubectl(['--kubeconfig', kubeconfig, '--context', context, '-n', NS, 'logs', 'deployment/nova-agent']);
    expect(ours).toEqual(theirs.trimEnd().split('\n'));

    // The fleet's control plane: etcd's own output among the components' lines.
    const cp = await runCli(['logs', '--kubeconfig', kubeconfig, '--control-plane', '-o', 'json'], { env, timeoutMs: 60_000 });
    expect(cp.code).toBe(0);
    const lines = cp.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { context: string; pod: string; container: string; line: string });
    const etcd = lines.filter((l) => l.pod.startsWith('etcd-'));
    expect(etcd.length).toBeGreaterThan(0);
    expect(etcd.every((l) => l.context === 'kind-cp')).toBe(true);
    expect(etcd.some((l) => /etcdserver|embed|"level"/.test(l.line))).toBe(true);
  });

  it('uninstall removes everything it created and the fleet file', async () => {
    const res = await runCli(UNINSTALL, { env, timeoutMs: 600_000 });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Uninstalled\./);
    for (const context of ['kind-cp', ...WORKLOADS]) expect(await namespaceGone(context)).toBe(true);
    for (const w of WORKLOADS) {
      const rbac = makeClient(kc(w), RbacAuthorizationV1Api);
      await expect(rbac.readClusterRole({ name: 'nova-agent' })).rejects.toMatchObject({ code: 404 });
    }
    expect(fs.existsSync(env.FLEETDECK_FLEET_FILE!)).toBe(false);
    // Run again: nothing left to remove is not an error.
    expect((await runCli(UNINSTALL, { env, timeoutMs: 120_000 })).code).toBe(0);
  });
});

describe('install, stopped by the prerequisite checks', () => {
  it('without a default StorageClass: nothing is changed and the hint says why etcd needs one', async () => {
    const storage = makeClient(kc('kind-cp'), StorageV1Api);
    const sc = await storage.readStorageClass({ name: 'standard' });
    const annotations = { ...sc.metadata!.annotations };
    await storage.replaceStorageClass({
      name: 'standard',
      body: {
        ...sc,
        metadata: { ...sc.metadata, annotations: { ...annotations, 'storageclass.kubernetes.io/is-default-class': 'false' } },
      },
    });
    try {
      const res = await runCli(INSTALL, { env, timeoutMs: 120_000 });
      expect(res.code).toBe(1);
      expect(res.stdout).toMatch(/default StorageClass\.\.\. .*✗/);
      expect(res.stdout).toMatch(/PersistentVolume/);
      expect(res.stdout).toMatch(/Prerequisites not met: nothing was changed\./);
      expect(await namespaceGone('kind-cp')).toBe(true);
    } finally {
      const now = await storage.readStorageClass({ name: 'standard' });
      await storage.replaceStorageClass({ name: 'standard', body: { ...now, metadata: { ...now.metadata, annotations } } });
    }
  });

  it('HA with a topology key of fewer than 3 values: stopped, the hint offers --no-ha', async () => {
    const res = await runCli([...INSTALL.filter((a) => a !== '--no-ha'), '--topology-key', 'kubernetes.io/os'], {
      env,
      timeoutMs: 120_000,
    });
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/--no-ha/);
    expect(res.stdout).toMatch(/Prerequisites not met: nothing was changed\./);
    expect(await namespaceGone('kind-cp')).toBe(true);
  });
});

/** /usr/bin/kubectl's stdout (it must succeed). */
function kubectl(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/kubectl', args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}
