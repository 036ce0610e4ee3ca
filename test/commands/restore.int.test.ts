/**
 * Backup and restore, end to end on the sandbox: a control plane with SchedulePolicies,
 * ScheduleGroups, a Cluster, a namespaced Deployment and RBAC; `backup`, `uninstall` (which
 * backs up first), `install`, `restore` → the same objects. A second restore plans everything
 * unchanged and sends no write (the control plane's audit log says so).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, statusCode } from '../../src/kube/transport/client.js';
import { mutatingEvents } from '../../src/sandbox/audit.js';
import { CLI, eventually } from '../helpers/cli/cli.js';
import { createNovaCluster, pauseDeployment } from '../helpers/sandbox/nova.js';
import { controlPlaneAuditEvents, type NovaFleet, novaFleet } from '../helpers/sandbox/nova-fleet.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const TEAM = 'team-a';
let fleet: NovaFleet;
let backupFile = '';

/** Runs a restore and SIGKILLs it as soon as it has applied one object; resolves with what it printed. */
function restoreKilledAfterOne(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'restore', file, '--yes', '--kubeconfig', sandbox().kubeconfig], {
      env: { ...process.env, CI: 'true', ...fleet.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/applied · created /.test(out)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', () => resolve(out));
  });
}

const custom = (kc: KubeConfig) => makeClient(kc, CustomObjectsApi);
const policy = (plural: string, name: string) => ({ group: 'policy.elotl.co', version: 'v1alpha1', plural, name });

async function createFleetObjects(kc: KubeConfig): Promise<void> {
  await makeClient(kc, CoreV1Api).createNamespace({ body: { metadata: { name: TEAM, labels: { team: 'a' } } } });
  await pauseDeployment(kc, TEAM, 'web', { app: 'web' }, { replicas: 2 });
  await makeClient(kc, CoreV1Api).createNamespacedConfigMap({
    namespace: TEAM,
    body: { metadata: { name: 'cfg' }, data: { mode: 'blue' } },
  });
  const rbac = makeClient(kc, RbacAuthorizationV1Api);
  await rbac.createClusterRole({
    body: { metadata: { name: `${fleet.namespace}-reader` }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: TEAM,
    body: {
      metadata: { name: 'alice-reads' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `${fleet.namespace}-reader` },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
    },
  });
  const { name: _p, ...pp } = policy('schedulepolicies', 'p1');
  await custom(kc).createClusterCustomObject({
    ...pp,
    body: {
      apiVersion: 'policy.elotl.co/v1alpha1',
      kind: 'SchedulePolicy',
      metadata: { name: 'p1' },
      spec: {
        namespaceSelector: { matchLabels: { team: 'a' } },
        clusterSelector: { matchLabels: { region: 'eu' } },
        groupBy: { labelKey: 'app' },
      },
    },
  });
  const { name: _g, ...gp } = policy('schedulegroups', 'g1');
  await custom(kc).createClusterCustomObject({
    ...gp,
    body: {
      apiVersion: 'policy.elotl.co/v1alpha1',
      kind: 'ScheduleGroup',
      metadata: { name: 'g1' },
      spec: { policy: 'p1', members: ['web'] },
    },
  });
  await createNovaCluster(kc, 'prod-eu', { region: 'eu', zone: 'eu-1' }, { Ready: 'True', Idle: 'False', Standby: 'False' });
}

/** What an operator defined, read back: the specs, data, rules and subjects that must survive. */
async function fleetObjects(kc: KubeConfig) {
  const apps = makeClient(kc, AppsV1Api);
  const core = makeClient(kc, CoreV1Api);
  const rbac = makeClient(kc, RbacAuthorizationV1Api);
  const [ns, deploy, cm, role, binding, p1, g1, cluster] = await Promise.all([
    core.readNamespace({ name: TEAM }),
    apps.readNamespacedDeployment({ name: 'web', namespace: TEAM }),
    core.readNamespacedConfigMap({ name: 'cfg', namespace: TEAM }),
    rbac.readClusterRole({ name: `${fleet.namespace}-reader` }),
    rbac.readNamespacedRoleBinding({ name: 'alice-reads', namespace: TEAM }),
    custom(kc).getClusterCustomObject(policy('schedulepolicies', 'p1')) as Promise<{ spec: unknown }>,
    custom(kc).getClusterCustomObject(policy('schedulegroups', 'g1')) as Promise<{ spec: unknown }>,
    custom(kc).getClusterCustomObject({ group: 'cluster.elotl.co', version: 'v1alpha1', plural: 'clusters', name: 'prod-eu' }) as Promise<{
      spec: unknown;
    }>,
  ]);
  return {
    namespaceLabels: ns.metadata?.labels?.team,
    deployment: { spec: deploy.spec?.template.spec?.containers, replicas: deploy.spec?.replicas, selector: deploy.spec?.selector },
    configMap: cm.data,
    clusterRole: role.rules,
    roleBinding: { roleRef: binding.roleRef, subjects: binding.subjects },
    schedulePolicy: p1.spec,
    scheduleGroup: g1.spec,
    cluster: cluster.spec,
  };
}

interface RestoreJson {
  ok: boolean;
  counts: { create: number; update: number; unchanged: number };
  objects: { ref: string; action: string; kept?: string; result?: string }[];
}

beforeAll(async () => {
  fleet = novaFleet(sandbox().kubeconfig, 'nova-restore');
  const install = await fleet.install();
  expect(install.code, install.stdout + install.stderr).toBe(0);
});

afterAll(async () => {
  await fleet.close();
});

describe('backup, uninstall, install, restore', () => {
  it('brings back the same objects, and a second restore changes nothing', async () => {
    await createFleetObjects(fleet.cpKc());
    const before = await fleetObjects(fleet.cpKc());

    // The backup the operator asks for: a summary per kind.
    const file = `${fleet.dir}/by-hand.yaml`;
    backupFile = file;
    const backup = await fleet.cli(['backup', '-f', file, '-o', 'json']);
    expect(backup.code, backup.stderr).toBe(0);
    const summary = JSON.parse(backup.stdout) as { file: string; objects: number; kinds: { kind: string; objects: number }[] };
    expect(summary.file).toBe(file);
    const counts = Object.fromEntries(summary.kinds.map((k) => [k.kind, k.objects]));
    expect(counts).toMatchObject({
      Namespace: 1,
      Deployment: 1,
      ConfigMap: 1,
      ClusterRole: 1,
      RoleBinding: 1,
      SchedulePolicy: 1,
      ScheduleGroup: 1,
      Cluster: 1,
    });
    // The install's own objects (CRDs, the agents' RBAC, the init kubeconfig) are not in it: the install makes them again.
    expect(counts.CustomResourceDefinition ?? 0).toBe(0);

    // The uninstall backs up first and says where.
    const uninstall = await fleet.cli(['uninstall', '--hosting-context', 'kind-cp', '--namespace', fleet.namespace, '--yes'], 600_000);
    expect(uninstall.code, uninstall.stdout + uninstall.stderr).toBe(0);
    const saved = /Backup of (\d+) objects of the control plane written to (\S+) \(/.exec(uninstall.stdout);
    expect(saved?.[2]).toMatch(new RegExp(`^${fleet.dir}/backups/fleetdeck-backup-nova-.*\\.yaml$`));
    expect(Number(saved?.[1])).toBe(summary.objects);
    expect(fs.statSync(saved![2]!).mode & 0o777).toBe(0o600);

    // A new control plane: nothing of the old one is there.
    const install = await fleet.install();
    expect(install.code, install.stdout + install.stderr).toBe(0);
    const gone = await custom(fleet.cpKc())
      .getClusterCustomObject(policy('schedulepolicies', 'p1'))
      .catch((e: unknown) => statusCode(e));
    expect(gone).toBe(404);

    // The restore of the uninstall's backup: everything created, in dependency order.
    const restore = await fleet.cli(['restore', saved![2]!, '--yes', '-o', 'json']);
    expect(restore.code, restore.stdout + restore.stderr).toBe(0);
    const first = JSON.parse(restore.stdout) as RestoreJson;
    expect(first.ok).toBe(true);
    expect(first.counts.create).toBe(summary.objects);
    expect(first.objects.map((o) => o.ref.split(' ')[0])).toEqual([
      'Namespace',
      'ClusterRole',
      'RoleBinding',
      'ConfigMap',
      'Deployment',
      'Cluster',
      'ScheduleGroup',
      'SchedulePolicy',
    ]);
    expect(first.objects.every((o) => o.result === 'created')).toBe(true);
    expect(await fleetObjects(fleet.cpKc())).toEqual(before);

    // Again: everything unchanged, and the control plane saw no write from fleetdeck.
    const since = new Date();
    const again = await fleet.cli(['restore', file, '--yes', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout) as RestoreJson;
    expect(second.counts).toEqual({ create: 0, update: 0, unchanged: summary.objects });
    const marker = `restore-marker-${Date.now()}`;
    await makeClient(fleet.cpKc(), CoreV1Api)
      .readNamespacedConfigMap({ name: marker, namespace: TEAM })
      .catch(() => undefined);
    const events = await eventually('the marker request in the control plane audit log', () => {
      const e = controlPlaneAuditEvents(sandbox().dir, fleet.namespace, { since, user: 'nova-admin' });
      return e.some((x) => x.requestURI.includes(marker)) ? e : undefined;
    });
    // The second restore's reads and dry runs are there; no change is.
    expect(events.some((e) => e.verb === 'patch' && e.requestURI.includes('dryRun=All'))).toBe(true);
    expect(mutatingEvents(events).map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);

    // A Cluster that differs from the backup (its agent reports another zone now) is its agent's: left as it is.
    const agentsView = `${fleet.dir}/agent-moved.yaml`;
    // Edited on purpose: its seal line goes, or the restore refuses it as damaged.
    const edited = fs
      .readFileSync(file, 'utf8')
      .replace('zone: eu-1', 'zone: eu-2')
      .replace(/^# fleetdeck-backup:.*\n/m, '');
    fs.writeFileSync(agentsView, edited, { mode: 0o600 });
    const moved = await fleet.cli(['restore', agentsView, '--yes', '-o', 'json']);
    expect(moved.code, moved.stderr).toBe(0);
    const third = JSON.parse(moved.stdout) as RestoreJson;
    expect(third.counts).toEqual({ create: 0, update: 0, unchanged: summary.objects });
    expect(third.objects.find((o) => o.ref.startsWith('Cluster '))?.kept).toMatch(/kept as its agent reports it/);
    expect(await fleetObjects(fleet.cpKc())).toEqual(before);
  });

  it('a backup cut short is refused with nothing written; an update in the plan says which fields it changes', async () => {
    const kc = fleet.cpKc();
    const before = await fleetObjects(kc);
    const apps = makeClient(kc, AppsV1Api);
    await apps.patchNamespacedDeployment({ name: 'web', namespace: TEAM, body: [{ op: 'replace', path: '/spec/replicas', value: 3 }] });

    // Cut on a line boundary: still valid YAML, one object short.
    const text = fs.readFileSync(backupFile, 'utf8');
    const cut = `${fleet.dir}/cut.yaml`;
    fs.writeFileSync(cut, text.slice(0, text.lastIndexOf('---\n')), { mode: 0o600 });
    const since = new Date();
    const refused = await fleet.cli(['restore', cut, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^fleetdeck: backup file .*cut\.yaml does not match its header .*cut short or edited/),
    ]);
    expect(mutatingEvents(controlPlaneAuditEvents(sandbox().dir, fleet.namespace, { since, user: 'nova-admin' }))).toEqual([]);

    const dry = await fleet.cli(['restore', backupFile, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/ {2}update Deployment team-a\/web\n {11}spec\.replicas: 3 → 2\n/);
    const json = await fleet.cli(['restore', backupFile, '--dry-run', '-o', 'json']);
    const planned = (JSON.parse(json.stdout) as { objects: { ref: string; changes?: unknown }[] }).objects;
    expect(planned.find((o) => o.ref === 'Deployment team-a/web')?.changes).toEqual([{ path: 'spec.replicas', from: '3', to: '2' }]);
    expect((await apps.readNamespacedDeployment({ name: 'web', namespace: TEAM })).spec?.replicas).toBe(3);

    const restored = await fleet.cli(['restore', backupFile, '--yes']);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await fleetObjects(kc)).toEqual(before);
  });

  it('a restore killed half-way finishes when run again', async () => {
    const kc = fleet.cpKc();
    const before = await fleetObjects(kc);
    await custom(kc).deleteClusterCustomObject(policy('schedulepolicies', 'p1'));
    await custom(kc).deleteClusterCustomObject(policy('schedulegroups', 'g1'));
    await makeClient(kc, CoreV1Api).deleteNamespacedConfigMap({ name: 'cfg', namespace: TEAM });
    await eventually('the objects gone', async () => {
      const left = await custom(kc)
        .getClusterCustomObject(policy('schedulepolicies', 'p1'))
        .catch((e: unknown) => statusCode(e));
      return left === 404;
    });

    const killed = await restoreKilledAfterOne(backupFile);
    expect(killed).toContain('  3 to create, 0 to update');
    // The Day 2 page's rows, as lines: the first object created shows on the apply row
    expect(killed).toMatch(/Apply the other objects\.\.\. 1 applied · created ConfigMap team-a\/cfg/);
    expect(killed).not.toContain('Restored:');

    const rerun = await fleet.cli(['restore', backupFile, '--yes', '-o', 'json']);
    expect(rerun.code, rerun.stderr).toBe(0);
    const done = JSON.parse(rerun.stdout) as RestoreJson;
    // What the killed run applied is unchanged now; the rest (what it had not reached) is created.
    const byRef = Object.fromEntries(done.objects.map((o) => [o.ref, o.action]));
    expect(byRef['ConfigMap team-a/cfg']).toBe('unchanged');
    const created = done.objects.filter((o) => o.action === 'create').map((o) => o.ref);
    expect(created.length).toBeGreaterThan(0);
    expect(['ScheduleGroup g1', 'SchedulePolicy p1']).toEqual(expect.arrayContaining(created));
    expect(await fleetObjects(kc)).toEqual(before);
  });
});
