/**
 * The rollout workflow on a sandbox cluster: priority order (the Navarchos README example), through
 * the built CLI, seen by a second fleetdeck.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readRollout } from '../../../src/rollout/state.js';
import { runCli } from '../../helpers/cli/cli.js';
import {
  CONTEXT,
  FAST,
  NS,
  ROLE,
  cli,
  deployment,
  kc,
  label,
  onlyOn,
  rolloutName,
  rollouts,
  running,
  schedulable,
  state,
  unschedulable,
  setUpRunCluster,
} from './run-cluster.js';

setUpRunCluster('order');

describe('fleetdeck rollout on a sandbox cluster', () => {
  it('Navarchos README example (-f): nodes labelled master at priority 20 finish before workers at 10 start; replace uncordon', async () => {
    const [m, w1, w2] = await schedulable();
    await label(m!, ROLE, 'master');
    await label(w1!, ROLE, 'worker');
    await label(w2!, ROLE, 'worker');
    await deployment(NS.order, 'web', 4, onlyOn((await schedulable()).slice(0, 5)));
    await running(NS.order, 'web', 4);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-rollout-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'noderollout.yaml');
    // As Navarchos' README shows it.
    fs.writeFileSync(
      file,
      `apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
metadata:
  generateName: "rollout-"
spec:
  nodeSelectors:
  - replacement:
      priority: 10
    matchLabels:
      "kubernetes.io/role": "worker"
  - replacement:
      priority: 20
    matchLabels:
      "kubernetes.io/role": "master"
`,
    );
    const name = rolloutName('order');
    rollouts.add(name);

    // The dry run: the ordered list, every pod's fate, nothing changed.
    const dry = await runCli(
      cli(['rollout', 'create', '--context', CONTEXT, '-f', file, '--name', name, '--replace', 'uncordon', '--dry-run']),
    );
    expect(dry.code, dry.stderr).toBe(0);
    const order = [...dry.stdout.matchAll(/^\s+\d+\. (\S+)\s+priority (\d+)/gm)].map((x) => [x[1], Number(x[2])]);
    expect(order).toEqual([
      [m, 20],
      [w1, 10],
      [w2, 10],
    ]);
    expect(dry.stdout).toContain('Dry run (nothing is changed):');
    expect(dry.stdout).toMatch(/room: every batch fits/);
    expect(await readRollout(kc, name)).toBeUndefined();
    expect(await unschedulable(m!)).toBe(false);

    const run = await runCli(
      cli(['rollout', 'create', '--context', CONTEXT, '-f', file, '--name', name, '--replace', 'uncordon', ...FAST]),
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain(`Rollout ${name} completed: 3/3 nodes done.`);
    expect(run.stdout).toMatch(new RegExp(`${m} \\(priority 20\\): draining`));

    const s = await state(name);
    expect(s.phase).toBe('Completed');
    expect(s.owner).toBeUndefined();
    expect(s.nodes.map((n) => [n.name, n.priority, n.phase])).toEqual([
      [m, 20, 'done'],
      [w1, 10, 'done'],
      [w2, 10, 'done'],
    ]);
    // Priority 20 finished before any priority 10 node started.
    const master = s.nodes[0]!;
    for (const w of s.nodes.slice(1)) expect(Date.parse(w.startedAt!)).toBeGreaterThanOrEqual(Date.parse(master.completedAt!));
    // The log says the same: the master's gate passed before the first worker was cordoned.
    const logIndex = (re: RegExp) => s.log.findIndex((l) => re.test(l.message));
    const masterDone = logIndex(new RegExp(`^health gate passed .*: ${m} done$`));
    expect(masterDone).toBeGreaterThan(-1);
    expect(logIndex(new RegExp(`^${w1}: cordoned`))).toBeGreaterThan(masterDone);
    expect(logIndex(new RegExp(`^${w2}: cordoned`))).toBeGreaterThan(masterDone);
    // In-place maintenance: every node schedulable again.
    for (const n of [m!, w1!, w2!]) expect(await unschedulable(n)).toBe(false);

    // A second fleetdeck sees the same: list and watch (which ends at once: completed).
    const list = await runCli(cli(['rollout', 'list', '--context', CONTEXT, '-o', 'json']));
    expect(list.code).toBe(0);
    expect(
      (JSON.parse(list.stdout) as { rollouts: { name: string; phase: string; done: number; total: number }[] }).rollouts.find(
        (r) => r.name === name,
      ),
    ).toMatchObject({ phase: 'Completed', done: 3, total: 3 });
    const watch = await runCli(cli(['rollout', 'watch', name, '--context', CONTEXT]));
    expect(watch.code).toBe(0);
    expect(watch.stdout).toContain(`rollout ${name}: Completed`);
  });
});
