/**
 * The Day 2 page's feed on a control plane installed on the sandbox: "Back up now" and "Restore
 * from a file" through the real registry, as the page drives them (open, plan, run): the file
 * written 0600 with the operator's objects, recorded as the last backup; a deleted object
 * restored, with every step a row; a second plan has nothing to do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { day2Registry } from '../../src/day2/registry.js';
import { startDay2Feed } from '../../src/feeds/day2.js';
import type { HeldActions } from '../../src/feeds/feed.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { openSession } from '../../src/session/session.js';
import type { Day2Slice } from '../../src/store/day2.js';
import { createFleetStore, type FleetStore } from '../../src/store/fleet-store.js';
import { type NovaFleet, novaFleet } from '../helpers/sandbox/nova-fleet.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const TEAM = 'team-d';
let fleet: NovaFleet;
let store: FleetStore;
let feed: HeldActions<'day2'>;
const before = process.env.FLEETDECK_FLEET_FILE;

/** Resolves with the slice once `ok` holds for it. */
function until(ok: (s: Day2Slice) => boolean, timeoutMs = 120_000): Promise<Day2Slice> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const s = store.getState().day2;
      if (!ok(s)) return false;
      unsubscribe();
      clearTimeout(timer);
      resolve(s);
      return true;
    };
    const unsubscribe = store.subscribe(() => void check());
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out; the slice: ${JSON.stringify(store.getState().day2)}`));
    }, timeoutMs);
    check();
  });
}

const stageOf = (s: Day2Slice) => s.stage.stage;

beforeAll(async () => {
  fleet = novaFleet(sandbox().kubeconfig, 'nova-day2');
  const install = await fleet.install();
  expect(install.code, install.stdout + install.stderr).toBe(0);
  const core = makeClient(fleet.cpKc(), CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: TEAM } } });
  await core.createNamespacedConfigMap({ namespace: TEAM, body: { metadata: { name: 'cfg' }, data: { a: 'b' } } });
  // The session the dashboard opens with this fleet file.
  process.env.FLEETDECK_FLEET_FILE = fleet.env.FLEETDECK_FLEET_FILE;
  const session = openSession({ kubeconfig: sandbox().kubeconfig });
  store = createFleetStore();
  feed = startDay2Feed(store, () => session, { registry: () => day2Registry({ dir: fleet.dir }) });
}, 900_000);

afterAll(async () => {
  feed?.stop();
  if (before === undefined) delete process.env.FLEETDECK_FLEET_FILE;
  else process.env.FLEETDECK_FLEET_FILE = before;
  await fleet?.close();
}, 900_000);

describe('the Day 2 feed on the sandbox', () => {
  const file = () => path.join(fleet.dir, 'day2-backup.yaml');

  it('backs up through the page: the plan reads, the run writes the file 0600 with the objects, rows ok, recorded', async () => {
    feed.open();
    const opened = await until((s) => s.entries.length > 0 && s.facts.context !== undefined);
    expect(opened.entries.map((e) => [e.id, e.unavailable ?? 'available'])).toEqual([
      ['backup', 'available'],
      ['restore', 'available'],
      ['renew', 'available'],
      ['upgrade', 'available'],
      ['rollback', 'available'],
    ]);
    expect(opened.facts.context).toBe('nova');
    // The install recorded its bundle in the hosting cluster.
    const recorded = await until((s) => s.facts.bundle !== undefined);
    expect(recorded.facts.bundle).toMatch(/^the built-in reference bundle, recorded \d{4}-/);
    expect(opened.entries[0]?.inputs[0]?.default.startsWith(fleet.dir)).toBe(true);

    feed.plan('backup', { file: file() });
    const plan = await until((s) => stageOf(s) !== 'planning');
    expect(plan.stage).toMatchObject({ stage: 'plan', todo: true });
    expect(fs.existsSync(file())).toBe(false);

    feed.run();
    const done = await until((s) => stageOf(s) === 'done');
    if (done.stage.stage !== 'done') throw new Error('not done');
    expect(done.stage.ok, JSON.stringify(done.stage)).toBe(true);
    expect(done.stage.items.map((i) => [i.id, i.state])).toEqual([
      ['discover', 'ok'],
      ['read', 'ok'],
      ['write', 'ok'],
    ]);
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    const kinds = parseAllDocuments(fs.readFileSync(file(), 'utf8'))
      .map((d) => d.toJS() as { kind: string; metadata: { name: string } } | null)
      .filter((d) => d !== null)
      .map((d) => `${d.kind} ${d.metadata.name}`);
    expect(kinds).toEqual([`Namespace ${TEAM}`, 'ConfigMap cfg']);
    const facts = await until((s) => s.facts.lastBackup?.file === file());
    expect(Date.parse(facts.facts.lastBackup?.at ?? '')).toBeGreaterThan(Date.now() - 600_000);
  });

  it('restores a deleted object through the page, every step a row; then nothing is left to do', async () => {
    const core = makeClient(fleet.cpKc(), CoreV1Api);
    await core.deleteNamespacedConfigMap({ namespace: TEAM, name: 'cfg' });
    feed.back();
    await until((s) => stageOf(s) === 'menu');
    // The restore's default file is the last backup.
    expect(store.getState().day2.entries.find((e) => e.id === 'restore')?.inputs[0]?.default).toBe(file());

    feed.plan('restore', { file: file() });
    const plan = await until((s) => stageOf(s) !== 'planning');
    if (plan.stage.stage !== 'plan') throw new Error(JSON.stringify(plan.stage));
    expect(plan.stage.todo).toBe(true);
    expect(plan.stage.lines).toContain('  1 to create, 0 to update, 1 unchanged.');

    feed.run();
    const done = await until((s) => stageOf(s) === 'done');
    if (done.stage.stage !== 'done') throw new Error('not done');
    expect(done.stage.ok, JSON.stringify(done.stage)).toBe(true);
    expect(done.stage.items.map((i) => [i.id, i.state, i.detail])).toEqual([
      ['read', 'ok', `2 objects in ${file()}`],
      ['plan', 'ok', '1 to create, 0 to update, 1 unchanged'],
      ['apply-first', 'ok', 'nothing to change'],
      ['apply-rest', 'ok', '1 applied'],
      ['verify', 'ok', '2 objects as in the backup'],
    ]);
    const cm = await core.readNamespacedConfigMap({ namespace: TEAM, name: 'cfg' });
    expect(cm.data).toEqual({ a: 'b' });

    feed.back();
    feed.plan('restore', { file: file() });
    const again = await until((s) => stageOf(s) === 'plan' || stageOf(s) === 'error');
    expect(again.stage).toMatchObject({ stage: 'plan', todo: false });
  });

  it('plans a renewal, an upgrade and a rollback through the page, reading only', async () => {
    const hostingCore = makeClient(configForContext(loadKubeconfig({ kubeconfig: sandbox().kubeconfig }).config, 'kind-cp'), CoreV1Api);
    const records = async () =>
      (await hostingCore.listNamespacedConfigMap({ namespace: fleet.namespace })).items
        .map((c) => `${c.metadata?.name}@${c.metadata?.resourceVersion}`)
        .sort();
    const before = await records();

    feed.back();
    await until((s) => stageOf(s) === 'menu');
    feed.plan('renew', {});
    const renew = await until((s) => stageOf(s) !== 'planning');
    if (renew.stage.stage !== 'plan') throw new Error(JSON.stringify(renew.stage));
    expect(renew.stage.todo).toBe(true);
    expect(renew.stage.lines[0]).toMatch(/^Plan: renew \d+ certificate\(s\) in namespace /);
    expect(renew.stage.lines.some((l) => l.includes('Restart one at a time: '))).toBe(true);

    feed.back();
    feed.plan('upgrade', { bundle: '', canary: '' });
    const upgrade = await until((s) => stageOf(s) !== 'planning');
    if (upgrade.stage.stage !== 'plan') throw new Error(JSON.stringify(upgrade.stage));
    expect(upgrade.stage.lines.at(-1)).toMatch(/^(Backup: |Nothing to change)/);

    // A fresh install records its bundle and none before it: nothing to roll back to.
    feed.back();
    feed.plan('rollback', {});
    const rollback = await until((s) => stageOf(s) !== 'planning');
    expect(rollback.stage).toMatchObject({ stage: 'error', id: 'rollback', error: expect.stringMatching(/previous bundle/) });

    expect(await records()).toEqual(before);
  });
});
