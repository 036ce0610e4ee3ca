import { describe, expect, it } from 'vitest';
import { changeJson, changeText } from '../../../src/commands/rollout/lines.js';
import type { RolloutHold } from '../../../src/rollout/guards/types.js';
import type { RolloutState } from '../../../src/rollout/types.js';
import { etaMs, nodeDetail, rolloutChanges, rolloutChecklist, rolloutSummary } from '../../../src/report/rollout/view.js';
import { state } from '../../helpers/objects/rollout.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

const WINDOW: RolloutHold = {
  kind: 'window',
  reason: 'waiting for the window: opens Sat 02:00 Europe/Berlin (in 3 h 12 min)',
  since: at(0),
  until: at(3 * 3600 + 12 * 60),
  checkedAt: at(0),
};

/** A running rollout (m-1, m-2 priority 20; w-1 … w-4 priority 10), held by `hold` when given. */
function running(hold?: RolloutHold): RolloutState {
  const st = state();
  st.phase = 'Running';
  if (hold) st.hold = hold;
  return st;
}

const kinds = (prev: RolloutState, next: RolloutState) =>
  rolloutChanges(prev, next).map((c) => (c.kind === 'node' ? `node ${c.node!.name}` : 'rollout'));

describe('rolloutSummary with a hold', () => {
  it('says what holds the running rollout, after the counts and the ETA', () => {
    const st = running(WINDOW);
    expect(rolloutSummary(st, T0)).toBe(
      'Running · 0/6 nodes done · held: waiting for the window: opens Sat 02:00 Europe/Berlin (in 3 h 12 min)',
    );
    Object.assign(st.nodes[0]!, { phase: 'done', startedAt: at(0), completedAt: at(60) });
    st.message = 'resumed by ops';
    expect(rolloutSummary(st, T0 + 60_000)).toBe(
      'Running · 1/6 nodes done · ETA 5m · held: waiting for the window: opens Sat 02:00 Europe/Berlin (in 3 h 12 min) · resumed by ops',
    );
  });

  it('a rollout not running shows no hold (a hold left in its record is stale)', () => {
    const st = running(WINDOW);
    st.phase = 'Paused';
    st.message = 'paused by ops';
    expect(rolloutSummary(st, T0)).toBe('Paused · 0/6 nodes done · paused by ops');
  });

  it('the text line of the rollout carries it', () => {
    const [c] = rolloutChanges(running(), running(WINDOW));
    expect(changeText(c!, T0, false, false)).toMatch(
      /^\d\d:\d\d:\d\d rollout r1: Running · 0\/6 nodes done · held: waiting for the window: /,
    );
  });
});

describe('rolloutChanges and holds', () => {
  it('a hold that starts: one rollout change', () => {
    expect(kinds(running(), running(WINDOW))).toEqual(['rollout']);
  });

  it('the same hold with its reason rewritten and checked again: no change', () => {
    const later = { ...WINDOW, reason: 'waiting for the window: opens Sat 02:00 Europe/Berlin (in 3 h 11 min)', checkedAt: at(60) };
    expect(rolloutChanges(running(WINDOW), running(later))).toEqual([]);
  });

  it('a hold of another kind: one rollout change', () => {
    const budget: RolloutHold = { kind: 'budget', reason: 'disruption budget 0 nodes; waiting', since: at(120), checkedAt: at(120) };
    expect(kinds(running(WINDOW), running(budget))).toEqual(['rollout']);
  });

  it('a hold that ends: one rollout change, whose line no longer says held', () => {
    const changes = rolloutChanges(running(WINDOW), running());
    expect(changes.map((c) => c.kind)).toEqual(['rollout']);
    expect(rolloutSummary(changes[0]!.state, T0)).toBe('Running · 0/6 nodes done');
  });

  it('a node going skipped: a node change saying why', () => {
    const prev = running();
    Object.assign(prev.nodes[0]!, { phase: 'draining', total: 3, evicted: 1, startedAt: at(0) });
    const next = structuredClone(prev);
    Object.assign(next.nodes[0]!, {
      phase: 'skipped',
      completedAt: at(900),
      error: 'drain timed out after 15m; skipped (drainTimeout: skip), uncordoned',
    });
    expect(kinds(prev, next)).toEqual(['node m-1']);
    expect(nodeDetail(next.nodes[0]!)).toBe(
      'skipped · 1 evicted, 0 ignored, 0 failed · drain timed out after 15m; skipped (drainTimeout: skip), uncordoned',
    );
  });
});

describe('changeJson: the hold of a running rollout', () => {
  it('is the hold while Running, null otherwise', () => {
    const [held] = rolloutChanges(running(), running(WINDOW));
    expect(changeJson(held!, T0)).toMatchObject({ kind: 'rollout', phase: 'Running', hold: WINDOW });
    const [free] = rolloutChanges(running(WINDOW), running());
    expect(changeJson(free!, T0)).toMatchObject({ kind: 'rollout', phase: 'Running', hold: null });
    const paused = running(WINDOW);
    paused.phase = 'Paused';
    const [p] = rolloutChanges(running(WINDOW), paused);
    expect(changeJson(p!, T0)).toMatchObject({ phase: 'Paused', hold: null });
  });
});

describe('skipped nodes are finished with', () => {
  it('etaMs: the mean from the nodes done only, no time left for the skipped ones', () => {
    const st = running();
    Object.assign(st.nodes[0]!, { phase: 'done', startedAt: at(0), completedAt: at(60) });
    // Skipped after a 10-minute drain timeout: not a node's usual duration, and not to be waited for.
    Object.assign(st.nodes[1]!, { phase: 'skipped', startedAt: at(60), completedAt: at(660) });
    // 4 workers left, one at a time, 60 s each.
    expect(etaMs(st, T0 + 660_000)).toBe(240_000);
    for (const n of st.nodes.slice(2)) Object.assign(n, { phase: 'skipped', startedAt: at(660), completedAt: at(700) });
    expect(etaMs(st, T0 + 700_000)).toBe(0);
    expect(rolloutSummary(st, T0 + 700_000)).toBe('Running · 1/6 nodes done, 5 skipped');
  });

  it('etaMs: nothing done yet, only skipped: no ETA', () => {
    expect(etaMs(state({}, { 'm-1': 'skipped' }), T0)).toBeUndefined();
  });

  it('the checklist row of a skipped node: a warning whose elapsed time stops when it was skipped', () => {
    const st = running();
    Object.assign(st.nodes[0]!, { phase: 'skipped', startedAt: at(0), completedAt: at(900) });
    const [row] = rolloutChecklist(st, T0 + 3_600_000);
    expect(row).toMatchObject({ id: 'm-1', state: 'warn', elapsedMs: 900_000 });
  });
});
