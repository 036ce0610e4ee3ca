/**
 * Guard rails that pace a rollout, on a sandbox cluster through the built CLI: the soak between
 * batches (with the PreferNoSchedule taint on the node about to go, and labels before and
 * after), a node deadline pausing it, and a drain timeout paused by default and skipped when the
 * spec says so; the webhook hears each.
 */
import { describe, expect, it } from 'vitest';
import { PREFER_NO_SCHEDULE_TAINT } from '../../../src/rollout/guards/types.js';
import { runCli } from '../../helpers/cli/cli.js';
import { cleanUpGuardMarks, createRollout, fileWebhook, GUARD_LABELS, heldBy, inPhase, marks } from './guard-cluster.js';
import {
  CONTEXT,
  NS,
  cli,
  deployment,
  onlyOn,
  pdb,
  rolloutName,
  running,
  schedulable,
  state,
  unschedulable,
  setUpRunCluster,
} from './run-cluster.js';

setUpRunCluster('pacing');
cleanUpGuardMarks();

const webhook = fileWebhook();

const [BEFORE, AFTER] = GUARD_LABELS as [string, string];

/** A node whose only pod a PodDisruptionBudget keeps: its drain cannot finish. */
async function undrainable(app: string): Promise<string> {
  const nodes = await schedulable();
  await deployment(NS.pacing, app, 1, onlyOn(nodes.slice(-2)));
  const [pod] = await running(NS.pacing, app, 1);
  await pdb(NS.pacing, `${app}-pdb`, app, 1);
  return pod!.spec!.nodeName!;
}

describe('rollout guard rails that pace', () => {
  it('soaks between nodes, with the next node tainted PreferNoSchedule meanwhile, and labels each node before and after', async () => {
    const [a, b] = await schedulable();
    const name = rolloutName('soak');
    const run = createRollout(
      name,
      [a!, b!],
      [
        '--soak',
        '4s',
        '--prefer-no-schedule-taint',
        '--label-before',
        `${BEFORE}=true`,
        '--label-after',
        `${AFTER}=2026-11`,
        '--notify-url',
        webhook().url('/soak/t0ken'),
        '--notify-format',
        'json',
      ],
    );
    const soaking = await heldBy(name, 'soak', run);
    expect(soaking.nodes.map((n) => n.phase)).toEqual(['done', 'waiting']);
    expect(soaking.hold!.reason).toMatch(/^soaking before the next node: \d+s left$/);
    // The node about to go carries the taint; the one done carries the "after" label, not the "before" one, nor the taint.
    expect((await marks(b!)).taints).toEqual([{ key: PREFER_NO_SCHEDULE_TAINT, value: name, effect: 'PreferNoSchedule' }]);
    const first = await marks(a!);
    expect(first.taints).toEqual([]);
    expect(first.labels[AFTER]).toBe('2026-11');
    expect(first.labels[BEFORE]).toBeUndefined();

    const done = await run.done;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    const final = await state(name);
    expect(final.nodes.map((n) => n.phase)).toEqual(['done', 'done']);
    // The second node started only once the soak after the first was over.
    expect(Date.parse(final.nodes[1]!.startedAt!) - Date.parse(final.nodes[0]!.completedAt!)).toBeGreaterThanOrEqual(4_000);
    const second = await marks(b!);
    expect(second).toMatchObject({ taints: [], labels: { [AFTER]: '2026-11' } });
    // A soak is the pace asked for: not a "blocked" message.
    expect(
      webhook()
        .received.filter((r) => r.path === '/soak/t0ken')
        .map((r) => r.body.event),
    ).toEqual(['start', 'drained', 'replaced', 'drained', 'replaced', 'completed']);
  });

  it('a node deadline pauses the rollout when the node is not done in time', async () => {
    const node = await undrainable('late');
    const name = rolloutName('deadline');
    const run = createRollout(
      name,
      [node],
      ['--node-deadline', '3s', '--notify-url', webhook().url('/deadline/x'), '--label-before', `${BEFORE}=true`],
    );
    const done = await run.done;
    expect(done.code).toBe(1);
    const paused = await inPhase(name, 'Paused');
    expect(paused.message).toBe(`node ${node} not done within its deadline of 3s`);
    expect(done.stdout).toContain(`Rollout ${name} paused: node ${node} not done within its deadline of 3s`);
    // Slack's form by default: a text.
    const texts = webhook()
      .received.filter((r) => r.path === '/deadline/x')
      .map((r) => r.body.text);
    expect(texts.at(-1)).toContain(`node ${node} not done within its deadline of 3s`);
    // The node it was working on carries the "before" label until the rollout lets it go.
    expect((await marks(node)).labels[BEFORE]).toBe('true');
    // Aborted: schedulable again for the tests after, and the label gone.
    expect((await runCli(cli(['rollout', 'abort', name, '--context', CONTEXT, '--yes']))).code).toBe(0);
    expect((await marks(node)).labels[BEFORE]).toBeUndefined();
  });

  it('a drain that times out pauses the rollout by default, is skipped (node uncordoned) when the spec says skip, and forced when it says force', async () => {
    const node = await undrainable('stuck');
    const paused = rolloutName('timeout');
    const first = await createRollout(paused, [node], ['--timeout', '3s']).done;
    expect(first.code).toBe(1);
    const p = await inPhase(paused, 'Paused');
    expect(p.message).toMatch(new RegExp(`^drain of node ${node} timed out after 3 s: 1 pod left: ${NS.pacing}/stuck-`));
    expect(p.nodes[0]!.phase).toBe('failed');
    expect(await unschedulable(node)).toBe(true);

    // Aborted: the node it cordoned is schedulable again.
    const abort = await runCli(cli(['rollout', 'abort', paused, '--context', CONTEXT, '--yes']));
    expect(abort.code, abort.stderr).toBe(0);
    expect(await unschedulable(node)).toBe(false);

    const skipped = rolloutName('skip');
    const second = await createRollout(skipped, [node], ['--timeout', '3s', '--on-drain-timeout', 'skip']).done;
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const s = await inPhase(skipped, 'Completed');
    expect(s.nodes[0]).toMatchObject({ name: node, phase: 'skipped', cordonedByUs: false });
    expect(s.nodes[0]!.error).toContain('skipped (drainTimeout: skip), uncordoned');
    expect(s.log.at(-1)!.message).toBe('completed: 0 nodes done, 1 skipped');
    // Skipped: uncordoned, its pod left running where it was.
    expect(await unschedulable(node)).toBe(false);
    expect((await running(NS.pacing, 'stuck', 1))[0]!.spec!.nodeName).toBe(node);

    // Written explicitly, force: the pod the budget keeps is deleted without eviction, the node done, the pod recreated elsewhere.
    const forced = rolloutName('force');
    const third = await createRollout(forced, [node], ['--timeout', '3s', '--on-drain-timeout', 'force']).done;
    expect(third.code, third.stdout + third.stderr).toBe(0);
    const f = await inPhase(forced, 'Completed');
    expect(f.nodes[0]).toMatchObject({ name: node, phase: 'done' });
    expect(f.log.map((l) => l.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/deleting the pods left without eviction \(drainTimeout: force: PodDisruptionBudgets bypassed\)$/),
      ]),
    );
    const [again] = await running(NS.pacing, 'stuck', 1);
    expect(again!.spec!.nodeName).not.toBe(node);
  });
});
