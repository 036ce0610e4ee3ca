/** A held rollout, and one with a skipped node and guard rails, in the list, its progress and the terminal's live view. */
import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { UiProvider } from '../../../src/components/theme/index.js';
import { NO_GUARDS } from '../../../src/rollout/guards/types.js';
import type { RolloutState } from '../../../src/rollout/types.js';
import { RolloutList } from '../../../src/screens/rollouts/rollout-list.js';
import { RolloutLive } from '../../../src/screens/rollouts/rollout-live.js';
import { rolloutRows } from '../../../src/screens/rollouts/rows.js';
import type { ContextRollouts } from '../../../src/store/rollouts.js';
import { KEYS, waitForFrame } from '../../helpers/screens/screen.js';
import { clockAtMidday, expectFits, fakeRollouts, iso, MIN, node, openRollouts, runningRollout } from './fixtures.js';

clockAtMidday();

const REASON = 'waiting for the window: opens Sat 02:00 Europe/Berlin (in 3 h 12 min)';

/** runningRollout() held by its window for 12 min, w1-c skipped (its drain timed out), with a window, a budget and a soak. */
function heldRollout(): RolloutState {
  const s = runningRollout();
  s.spec.guards = {
    ...NO_GUARDS,
    windows: [{ days: ['Sat', 'Sun'], start: '02:00', end: '06:00', timeZone: 'Europe/Berlin' }],
    budget: { percent: 20, of: 'cluster', schedules: [] },
    soakMs: 10 * MIN,
  };
  const { blockingPdb: _gone, ...c } = s.nodes[2]!;
  s.nodes[2] = {
    ...c,
    phase: 'skipped',
    startedAt: iso(18 * MIN),
    completedAt: iso(13 * MIN),
    error: 'drain timed out after 5m00s: skipped',
  };
  s.hold = { kind: 'window', reason: REASON, since: iso(12 * MIN), checkedAt: iso(5_000) };
  return s;
}

/** Every line of `frame` at most `columns` wide, and at most `rows` lines. */
function expectWithin(frame: string, columns: number, rows: number): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThanOrEqual(columns);
  expect(lines.length, frame).toBeLessThanOrEqual(rows);
}

describe('a held rollout', () => {
  it('its row says Held and counts the skipped node, with the reason on the line under it, at 80×24', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    fake.push('kind-workload-1', heldRollout());

    const frame = await screen.waitFor(`held: ${REASON}`);
    expectFits(frame);
    expect(frame).toMatch(/kind-workload-1\s+rollout-20261122-0530\s+(fleetdeck\s+)?Held\s+2\/6, 1 skipped\s+\d\d:\d\d:\d\d/);
    expect(frame).not.toContain('Running');

    // When the hold ends, the row is Running again and the line under it keeps only the skipped node
    const free = heldRollout();
    delete free.hold;
    fake.push('kind-workload-1', free);
    const after = await screen.waitFor(/rollout-20261122-0530\s+(fleetdeck\s+)?Running\s+2\/6, 1 skipped/);
    expect(after).not.toContain('held:');
    expect(after).toContain('skipped: w1-c');
  });

  it('the list at 30 columns and 8 rows keeps the row on one line: Held, the reason cut', async () => {
    const byContext: Record<string, ContextRollouts> = {
      'kind-workload-1': { listed: true, rollouts: { 'rollout-20261122-0530': heldRollout() } },
    };
    const now = Date.now();
    const rows = rolloutRows(['kind-workload-1'], byContext, now);
    expect(rows[0]).toMatchObject({ phase: 'Held', done: 2, total: 6, skipped: 1, note: `held: ${REASON} · skipped: w1-c` });
    const r = render(
      <UiProvider value={{ ascii: false, color: false }}>
        <RolloutList
          rows={rows}
          contexts={['kind-workload-1']}
          byContext={byContext}
          selected={0}
          now={now}
          readOnly={false}
          height={6}
          width={29}
        />
      </UiProvider>,
    );
    const frame = await waitForFrame(r.lastFrame, 'Held');
    expectWithin(frame, 30, 8);
    expect(frame).toMatch(/❯ kind…d-1 rollo…0530 Held$/m);
    expect(frame).toMatch(/^ {2}held: waiting for the wind…$/m);
    r.unmount();
  });

  it('its progress says held, why and since when, the guard rails on one line at 80×24 and in full when there is room', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    fake.push('kind-workload-1', heldRollout());
    await screen.waitFor('rollout-20261122-0530');
    await screen.press(KEYS.enter);

    const frame = await screen.waitFor('rollout-20261122-0530 · kind-workload-1 · Running · held');
    expectFits(frame);
    expect(frame).toContain(`held: ${REASON}`);
    expect(frame).toMatch(/held since \d\d:\d\d:\d\d \(12m\) · checked \d+s ago/);
    expect(frame).toContain('guard rails: window, budget 20%, soak 10m');
    // The bar: the nodes finished with, done or skipped (3 of 6)
    expect(frame).toMatch(/50% 2\/6 nodes done, 1 skipped/);
    expect(frame).toMatch(/10\s+w1-c\s+skipped\s+1\s+2\s+0\s+5m00s/);
    expect(frame).toContain('drain timed out after 5m00s: skipped');

    // On a taller terminal the guard rails are listed in full
    await screen.resize(100, 40);
    const tall = await screen.waitFor('Guard rails');
    expect(tall).toContain('windows: Sat,Sun 02:00-06:00 Europe/Berlin (no node is taken outside them)');
    expect(tall).toContain('budget: at most 20% unavailable in the cluster');
    expect(tall).toContain('soak: 10m after each batch');
    expect(tall).toContain('one rollout at a time in the cluster (waits for any other)');
    expect(tall).not.toContain('guard rails: window');
  });

  it('the live view of rollout create says held with the reason, and names the guard rails', async () => {
    const tree = (state: RolloutState) => (
      <UiProvider value={{ ascii: false, color: false }}>
        <RolloutLive state={state} waiting="…" />
      </UiProvider>
    );
    const r = render(tree(heldRollout()));
    const frame = await waitForFrame(r.lastFrame, `held: ${REASON}`);
    expect(frame).toContain('rollout-20261122-0530 · kind-workload-1 · Running · held');
    expect(frame).toMatch(/held since \d\d:\d\d:\d\d \(12m\)/);
    expect(frame).toMatch(/guard rails: window, budget 20%, soak 10m|windows: Sat,Sun 02:00-06:00 Europe\/Berlin/);
    expect(frame).toContain('2/6 nodes done, 1 skipped');

    // A rollout written before guard rails existed shows none, and a paused one is not held
    const old = { ...heldRollout(), phase: 'Paused' as const, message: 'paused by the operator' };
    delete old.spec.guards;
    r.rerender(tree(old));
    const paused = await waitForFrame(r.lastFrame, 'Paused · paused by the operator');
    expect(paused).not.toContain('held');
    expect(paused).not.toMatch(/guard rails/i);
    r.unmount();
  });

  it('a Paused rollout with a hold left in its state is not called held', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake, {}, vi.fn());
    const paused = { ...heldRollout(), phase: 'Paused' as const, nodes: [node('w1-a', 10)] };
    fake.push('kind-workload-1', paused);
    const frame = await screen.waitFor(/rollout-20261122-0530\s+(fleetdeck\s+)?Paused/);
    expect(frame).not.toContain('Held');
    expect(frame).not.toContain('held:');
  });
});
