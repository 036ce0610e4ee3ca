/**
 * Guard rails that hold a rollout before it takes a node, on a sandbox cluster through the built
 * CLI: a maintenance window that is closed, pods matching a blocking selector, a disruption
 * budget used up by a NotReady node, and a second rollout waiting for the first (one per cluster).
 * Each hold is on the record (its reason), in `rollout watch`, as an Event, and as a webhook message.
 */
import { describe, expect, it } from 'vitest';
import { listObjectEvents } from '../../../src/kube/events/event-recorder.js';
import { configMapName, ROLLOUT_NAMESPACE } from '../../../src/rollout/types.js';
import { eventually, runCli } from '../../helpers/cli/cli.js';
import { cleanUpGuardMarks, createRollout, fileWebhook, heldBy, inPhase, setNodeReady } from './guard-cluster.js';
import {
  CONTEXT,
  NS,
  cli,
  core,
  deployment,
  kc,
  onlyOn,
  pdb,
  podSpec,
  rolloutName,
  running,
  scale,
  schedulable,
  startCli,
  state,
  unschedulable,
  setUpRunCluster,
} from './run-cluster.js';

setUpRunCluster('holds');
cleanUpGuardMarks();

const webhook = fileWebhook();

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** A pod without a controller, on the last node (never one a rollout here takes: it would refuse the drain). */
async function blockingPod(name: string): Promise<void> {
  const nodeName = (await schedulable()).at(-1)!;
  await core.createNamespacedPod({
    namespace: NS.holds,
    body: { metadata: { name, labels: { 'fd-block': name } }, spec: podSpec({ nodeName }) },
  });
}

describe('rollout guard rails that hold', () => {
  it('outside its maintenance window the rollout takes no node: held with when the window opens, in watch, as an Event', async () => {
    const [node] = await schedulable();
    // A whole day two days from now (UTC): closed now, whatever the time.
    const day = DAYS[(new Date().getUTCDay() + 2) % 7]!;
    const name = rolloutName('window');
    // The plan says it before anything runs.
    const dry = await runCli(
      cli(['rollout', 'create', '--context', CONTEXT, '--node', node!, '--window', `${day} 00:00-24:00 UTC`, '--dry-run']),
    );
    expect(dry.stdout).toContain(`  windows: ${day} 00:00-24:00 UTC (no node is taken outside them)\n`);
    expect(dry.stdout).toContain('  one rollout at a time in the cluster (waits for any other)\n');
    const run = createRollout(name, [node!], ['--window', `${day} 00:00-24:00 UTC`]);
    const held = await heldBy(name, 'window', run);
    expect(held.hold!.reason).toMatch(new RegExp(`^waiting for the window: opens ${day} 00:00 UTC \\(in \\d+ d( \\d+ h)?\\)$`));
    expect(held.nodes[0]).toMatchObject({ name: node, phase: 'waiting' });
    expect(await unschedulable(node!)).toBe(false);
    // rollout watch, elsewhere, says why.
    const watch = startCli(['rollout', 'watch', name, '--context', CONTEXT]);
    await eventually('watch shows the hold', () => watch.out().includes(`held: waiting for the window: opens ${day} 00:00 UTC`), 30_000);
    const events = await listObjectEvents(kc, ROLLOUT_NAMESPACE, configMapName(name), 'ConfigMap');
    expect(events.find((e) => e.reason === 'RolloutHeld')?.message).toContain(`held: waiting for the window: opens ${day}`);
    // Aborted while held: nothing to uncordon, the run ends.
    const abort = await runCli(cli(['rollout', 'abort', name, '--context', CONTEXT, '--yes']));
    expect(abort.code, abort.stderr).toBe(0);
    expect((await run.done).code).toBe(1);
    await watch.done;
    expect(await unschedulable(node!)).toBe(false);
  });

  it('pods matching a blocking selector hold it until they are gone; the webhook hears each step', async () => {
    const [a] = await schedulable();
    await blockingPod('backup');
    const name = rolloutName('blocked');
    const run = createRollout(
      name,
      [a!],
      ['--blocking-pod-selector', 'fd-block=backup', '--notify-url', webhook().url('/hook/s3cr3t'), '--notify-format', 'json'],
    );
    const held = await heldBy(name, 'pods', run);
    expect(held.hold!.reason).toBe(`held by 1 pod matching fd-block=backup: ${NS.holds}/backup`);
    expect(await unschedulable(a!)).toBe(false);

    await core.deleteNamespacedPod({ namespace: NS.holds, name: 'backup', gracePeriodSeconds: 0 });
    const done = await run.done;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain(`Rollout ${name} completed: 1/1 nodes done.`);
    const final = await inPhase(name, 'Completed');
    expect(final.hold).toBeUndefined();
    expect(final.log.map((l) => l.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^released after \S+ \(pods\)$/)]));

    // The webhook heard it start, held, drained, replaced and completed, in that order.
    const heard = webhook().received.filter((r) => r.path === '/hook/s3cr3t');
    expect(heard.map((r) => r.body.event)).toEqual(['start', 'blocked', 'drained', 'replaced', 'completed']);
    expect(heard[1]!.body).toMatchObject({ rollout: name, context: CONTEXT, reason: held.hold!.reason });
  });

  it('one rollout at a time: a second waits while the first works on a node, and goes once it is done', async () => {
    const [, , b] = await schedulable();
    await deployment(NS.holds, 'guarded', 1, onlyOn([b!]));
    await running(NS.holds, 'guarded', 1);
    await pdb(NS.holds, 'guarded-pdb', 'guarded', 1);
    const first = rolloutName('first');
    const second = rolloutName('second');
    const runA = createRollout(first, [b!]);
    await eventually(
      'the first drains, blocked by the budget',
      async () => (await state(first)).nodes[0]?.blockingPdb?.name === 'guarded-pdb',
      60_000,
    );
    const [c] = await schedulable();
    const runB = createRollout(second, [c!]);
    const held = await heldBy(second, 'cluster', runB);
    expect(held.hold!.reason).toContain(`another rollout runs in this cluster: ${first}`);
    expect(await unschedulable(c!)).toBe(false);

    // Scaled to nothing, the pod the budget kept goes: the first finishes, then the second goes.
    await scale(NS.holds, 'guarded', 0);
    const [doneA, doneB] = await Promise.all([runA.done, runB.done]);
    expect([doneA.code, doneB.code], doneA.stdout + doneB.stdout).toEqual([0, 0]);
    const [a, b2] = [await state(first), await state(second)];
    // The second took its node only after the first was done.
    expect(Date.parse(b2.nodes[0]!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(a.nodes[0]!.completedAt!));
    expect(b2.log.map((l) => l.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^released after \S+ \(cluster\)$/)]));
  });

  it('a rollout that fails tells the webhook why', async () => {
    const [x] = await schedulable();
    await blockingPod('hold-fail');
    const name = rolloutName('fails');
    const run = createRollout(name, [x!], ['--blocking-pod-selector', 'fd-block=hold-fail', '--notify-url', webhook().url('/fail/k3y')]);
    await heldBy(name, 'pods', run);
    // While it is held, a pod no controller recreates lands on its node: the drain is refused, the rollout fails.
    await core.createNamespacedPod({ namespace: NS.holds, body: { metadata: { name: 'lonely' }, spec: podSpec({ nodeName: x! }) } });
    await core.deleteNamespacedPod({ namespace: NS.holds, name: 'hold-fail', gracePeriodSeconds: 0 });
    const done = await run.done;
    expect(done.code).toBe(1);
    const failed = await inPhase(name, 'Failed');
    const texts = webhook()
      .received.filter((r) => r.path === '/fail/k3y')
      .map((r) => String(r.body.text));
    expect(texts.at(-1)).toBe(`Rollout ${name} in ${CONTEXT} failed: ${failed.message}`);
    expect(failed.message).toContain(`needs --force for ${NS.holds}/lonely`);
    await core.deleteNamespacedPod({ namespace: NS.holds, name: 'lonely', gracePeriodSeconds: 0 });
    expect((await runCli(cli(['rollout', 'abort', name, '--context', CONTEXT, '--yes']))).code).toBe(0);
  });

  it('a budget of 1 node holds the rollout while another node is NotReady, and lets it go once that node is Ready', async () => {
    const [down, node] = await schedulable();
    await setNodeReady(down!, false);
    const name = rolloutName('budget');
    const run = createRollout(name, [node!], ['--budget', '1']);
    const held = await heldBy(name, 'budget', run);
    expect(held.hold!.reason).toContain(`1 node of 1 allowed unavailable is taken (${down} NotReady)`);
    expect(await unschedulable(node!)).toBe(false);
    await setNodeReady(down!, true);
    const done = await run.done;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect((await inPhase(name, 'Completed')).nodes[0]!.phase).toBe('done');
  });
});
