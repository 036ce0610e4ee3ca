import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import {
  activeSize,
  type BudgetInput,
  budgetText,
  budgetVerdict,
  maxTakeNow,
  parseBudgetSchedule,
  parseBudgetSize,
  scheduleActive,
  scheduleText,
  sizeNodes,
  validateBudget,
} from '../../../src/rollout/guards/budget.js';
import type { DisruptionBudget } from '../../../src/rollout/guards/types.js';

const FORM = 'expected SIZE at CRON for DURATION [in ZONE], e.g. "0 at 0 9 * * mon-fri for 8h in Europe/Berlin", "50% at @daily for 30m"';
const H = 3_600_000;

function errorOf(parse: () => unknown): Error | undefined {
  try {
    parse();
  } catch (e) {
    return e as Error;
  }
  return undefined;
}

const budget = (b: Partial<DisruptionBudget>): DisruptionBudget => ({ of: 'cluster', schedules: [], ...b });
const node = (name: string, state: { cordoned?: boolean; notReady?: boolean } = {}) => ({
  name,
  unschedulable: state.cordoned ?? false,
  ready: !state.notReady,
});
const at = (iso: string) => new Date(iso);
/** A Monday, 10:00 UTC. */
const MONDAY = at('2025-01-06T10:00:00Z');
const officeHours = parseBudgetSchedule('0 at 0 9 * * 1-5 for 8h');

describe('parseBudgetSize', () => {
  it('reads a count or a percentage, 0 included', () => {
    expect(['3', '0', '20%', '0%', '100%', ' 7 '].map(parseBudgetSize)).toEqual([
      { nodes: 3 },
      { nodes: 0 },
      { percent: 20 },
      { percent: 0 },
      { percent: 100 },
      { nodes: 7 },
    ]);
  });

  it('refuses negatives, more than 100% and what is not a number, in one line', () => {
    const messages = ['-1', '101%', 'ten', '2.5', '', '%'].map((t) => errorOf(() => parseBudgetSize(t))?.message);
    expect(messages).toEqual([
      'bad budget size "-1": expected a node count such as 3, or a percentage such as 20%',
      'bad budget size "101%": a percentage is at most 100%',
      'bad budget size "ten": expected a node count such as 3, or a percentage such as 20%',
      'bad budget size "2.5": expected a node count such as 3, or a percentage such as 20%',
      'bad budget size "": expected a node count such as 3, or a percentage such as 20%',
      'bad budget size "%": expected a node count such as 3, or a percentage such as 20%',
    ]);
    expect(errorOf(() => parseBudgetSize('-1'))).toBeInstanceOf(UsageError);
  });
});

describe('parseBudgetSchedule', () => {
  it('reads SIZE at CRON for DURATION [in ZONE]', () => {
    expect(officeHours).toEqual({ cron: '0 9 * * 1-5', durationMs: 8 * H, timeZone: 'UTC', size: { nodes: 0 } });
    expect(parseBudgetSchedule('50% at @daily for 1h30m in Europe/Berlin')).toEqual({
      cron: '@daily',
      durationMs: 1.5 * H,
      timeZone: 'Europe/Berlin',
      size: { percent: 50 },
    });
    expect(parseBudgetSchedule('  2 at 30 22 * * sat,sun for 2d ').durationMs).toBe(48 * H);
  });

  it('writes the same form back', () => {
    const texts = ['0 at 0 9 * * mon-fri for 8h in Europe/Berlin', '50% at @daily for 1h30m in UTC', '1 at */15 * * * * for 45s in UTC'];
    expect(texts.map((t) => scheduleText(parseBudgetSchedule(t)))).toEqual(texts);
  });

  it('refuses each mistake in one line naming it', () => {
    const messages = [
      '0 at 0 9 * * for 8h',
      '0 at 61 9 * * * for 8h',
      '0 at 0 9 * * mon-fri for 8x',
      '0 at 0 9 * * mon-fri for 0m',
      '0 at 0 9 * * mon-fri for 8h in Nowhere/Land',
      '150% at @daily for 1h',
      'during office hours',
    ].map((t) => errorOf(() => parseBudgetSchedule(t))?.message);
    expect(messages).toEqual([
      `bad budget schedule "0 at 0 9 * * for 8h": cron "0 9 * *" has 4 fields, expected 5 (minute hour day-of-month month day-of-week) or a macro such as @daily; ${FORM}`,
      `bad budget schedule "0 at 61 9 * * * for 8h": invalid cron "61 9 * * *": Invalid value for minute: 61; ${FORM}`,
      `bad budget schedule "0 at 0 9 * * mon-fri for 8x": "8x" is not a duration above 0 (e.g. 30s, 10m, 8h, 1h30m); ${FORM}`,
      `bad budget schedule "0 at 0 9 * * mon-fri for 0m": "0m" is not a duration above 0 (e.g. 30s, 10m, 8h, 1h30m); ${FORM}`,
      `bad budget schedule "0 at 0 9 * * mon-fri for 8h in Nowhere/Land": unknown time zone "Nowhere/Land"; ${FORM}`,
      `bad budget schedule "150% at @daily for 1h": size "150%": a percentage is at most 100%; ${FORM}`,
      `bad budget schedule "during office hours": not of the form; ${FORM}`,
    ]);
    expect(errorOf(() => parseBudgetSchedule('during office hours'))).toBeInstanceOf(UsageError);
  });
});

describe('validateBudget', () => {
  it('passes a sound budget and names the problem of a broken one', () => {
    expect(validateBudget(budget({ nodes: 1, schedules: [officeHours] }))).toBeUndefined();
    expect(validateBudget(budget({ schedules: [{ ...officeHours, cron: '0 25 * * *' }] }))).toBe(
      'invalid cron "0 25 * * *": Invalid value for hour: 25',
    );
    expect(validateBudget(budget({ schedules: [{ ...officeHours, durationMs: 0 }] }))).toBe(
      'schedule "0 9 * * 1-5": the duration must be longer than 0',
    );
    expect(validateBudget(budget({ percent: 120 }))).toBe(
      'bad size "120%": expected a node count such as 3, or a percentage such as 20% (0% to 100%)',
    );
    expect(validateBudget(budget({ nodes: -2 }))).toBe(
      'bad size "-2": expected a node count such as 3, or a percentage such as 20% (0% to 100%)',
    );
    expect(validateBudget(budget({ of: 'nodepool' as 'cluster' }))).toBe('budget counts nodes of "nodepool": expected cluster or selected');
  });
});

describe('scheduleActive', () => {
  it('is active from the trigger until just before the duration has passed', () => {
    const times = ['2025-01-06T08:59:59Z', '2025-01-06T09:00:00Z', '2025-01-06T16:59:59Z', '2025-01-06T17:00:00Z', '2025-01-11T10:00:00Z'];
    expect(times.map((t) => scheduleActive(officeHours, at(t)))).toEqual([false, true, true, false, false]);
  });

  it('follows the schedule’s zone across daylight saving time', () => {
    const berlin = parseBudgetSchedule('0 at 0 9 * * * for 1h in Europe/Berlin');
    expect([scheduleActive(berlin, at('2025-01-06T08:30:00Z')), scheduleActive(berlin, at('2025-01-06T07:30:00Z'))]).toEqual([true, false]);
    expect([scheduleActive(berlin, at('2025-07-07T07:30:00Z')), scheduleActive(berlin, at('2025-07-07T08:30:00Z'))]).toEqual([true, false]);
  });
});

describe('sizeNodes', () => {
  it('rounds percentages up, as Karpenter does', () => {
    expect([
      sizeNodes({ percent: 20 }, 12),
      sizeNodes({ percent: 10 }, 12),
      sizeNodes({ percent: 20 }, 19),
      sizeNodes({ percent: 10 }, 5),
    ]).toEqual([3, 2, 4, 1]);
    expect([sizeNodes({ percent: 0 }, 50), sizeNodes({ percent: 50 }, 0), sizeNodes({ nodes: 2 }, 1)]).toEqual([0, 0, 2]);
    expect(sizeNodes({}, 10)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('activeSize', () => {
  const weekends = parseBudgetSchedule('50% at 0 0 * * sat for 2d');
  const b = budget({ nodes: 3, schedules: [officeHours, weekends] });

  it('is the budget’s own size when no schedule is active', () => {
    expect(activeSize(b, at('2025-01-06T18:00:00Z'), 10)).toStrictEqual({ size: { nodes: 3 } });
  });

  it('is an active schedule’s size instead, even a larger one, with when it ends', () => {
    expect(activeSize(b, MONDAY, 10)).toEqual({
      size: { nodes: 0 },
      schedule: 'schedule "0 9 * * 1-5" for 8h, active until 17:00 UTC',
      until: at('2025-01-06T17:00:00Z'),
    });
    expect(activeSize(b, at('2025-01-11T12:00:00Z'), 10)).toMatchObject({
      size: { percent: 50 },
      schedule: 'schedule "0 0 * * sat" for 48h, active until Mon 00:00 UTC',
    });
  });

  it('takes the smallest in nodes of the active schedules, counted on the total', () => {
    const two = budget({ schedules: [parseBudgetSchedule('2 at 0 9 * * * for 1h'), parseBudgetSchedule('20% at 0 9 * * * for 1h')] });
    expect(activeSize(two, at('2025-01-06T09:30:00Z'), 4).size).toEqual({ percent: 20 });
    expect(activeSize(two, at('2025-01-06T09:30:00Z'), 40).size).toEqual({ nodes: 2 });
  });

  it('extends the end over triggers that come while active, in the schedule’s zone', () => {
    const twice = budget({ schedules: [parseBudgetSchedule('0 at 0 9,13 * * * for 6h in Europe/Berlin')] });
    expect(activeSize(twice, at('2025-01-06T09:00:00Z'), 5).schedule).toBe(
      'schedule "0 9,13 * * *" for 6h, active until 19:00 Europe/Berlin',
    );
  });
});

describe('budgetVerdict', () => {
  const cluster = [node('node-a'), node('node-b', { notReady: true }), node('node-c'), node('node-x', { cordoned: true }), node('node-y')];
  const selected = new Set(['node-a', 'node-b', 'node-c']);
  const input = (b: Partial<DisruptionBudget>, taking: number, nodes = cluster): BudgetInput => ({
    budget: budget(b),
    now: MONDAY,
    nodes,
    selected,
    taking,
  });

  it('counts cordoned and NotReady nodes of the whole cluster, whatever made them so', () => {
    expect(budgetVerdict(input({ nodes: 2 }, 1))).toEqual({
      ok: false,
      allowed: 2,
      unavailable: ['node-b', 'node-x'],
      text: 'disruption budget: 2 nodes of 2 allowed unavailable are taken (node-b NotReady, node-x cordoned); waiting',
    });
  });

  it('counts only the selected nodes when the budget is of them', () => {
    expect(budgetVerdict(input({ nodes: 1, of: 'selected' }, 1))).toEqual({
      ok: false,
      allowed: 1,
      unavailable: ['node-b'],
      text: 'disruption budget: 1 node of 1 allowed unavailable is taken (node-b NotReady); waiting',
    });
    const healthy = cluster.map((n) => (n.name === 'node-b' ? node('node-b') : n));
    expect(budgetVerdict(input({ nodes: 1, of: 'selected' }, 1, healthy))).toMatchObject({
      ok: true,
      unavailable: [],
      text: 'disruption budget: 0 nodes of 1 allowed unavailable are taken; 1 more may be taken',
    });
  });

  it('takes a percentage of the counted nodes, rounded up', () => {
    expect(budgetVerdict(input({ percent: 50, of: 'selected' }, 1))).toEqual({
      ok: true,
      allowed: 2,
      unavailable: ['node-b'],
      text: 'disruption budget: 1 node of 2 allowed unavailable is taken (node-b NotReady) — budget 50% of 3 nodes; 1 more may be taken',
    });
    expect(budgetVerdict(input({ percent: 50 }, 1))).toMatchObject({ ok: true, allowed: 3 });
  });

  it('waits when the nodes it would take exceed what is left', () => {
    const text = budgetVerdict(input({ nodes: 3 }, 2)).text;
    expect(text).toBe(
      'disruption budget: 2 nodes of 3 allowed unavailable are taken (node-b NotReady, node-x cordoned); taking 2 would exceed it; waiting',
    );
  });

  it('names a node both cordoned and NotReady once', () => {
    const nodes = [node('node-a', { cordoned: true, notReady: true }), node('node-b')];
    expect(budgetVerdict(input({ nodes: 1 }, 0, nodes))).toMatchObject({
      ok: true,
      unavailable: ['node-a'],
      text: 'disruption budget: 1 node of 1 allowed unavailable is taken (node-a cordoned and NotReady); 0 more may be taken',
    });
  });

  it('mentions the schedule in force', () => {
    const v = budgetVerdict(input({ nodes: 2, schedules: [officeHours] }, 1));
    expect(v).toMatchObject({ ok: false, allowed: 0 });
    expect(v.text).toBe('disruption budget 0 nodes (schedule "0 9 * * 1-5" for 8h, active until 17:00 UTC); waiting');
  });

  it('sets no limit without a size', () => {
    expect(budgetVerdict(input({}, 10))).toMatchObject({ ok: true, allowed: Number.POSITIVE_INFINITY });
  });
});

describe('maxTakeNow', () => {
  const nodes = [node('a'), node('b', { cordoned: true }), node('c'), node('d'), node('e')];
  const base = { now: MONDAY, nodes, selected: new Set(['a', 'b', 'c']) };

  it('is what the size allows less the unavailable nodes, never below 0', () => {
    expect(maxTakeNow({ ...base, budget: budget({ nodes: 3 }) })).toBe(2);
    expect(maxTakeNow({ ...base, budget: budget({ percent: 40 }) })).toBe(1);
    expect(maxTakeNow({ ...base, budget: budget({ nodes: 3, schedules: [officeHours] }) })).toBe(0);
    expect(maxTakeNow({ ...base, budget: budget({ nodes: 0, of: 'selected' }) })).toBe(0);
    expect(maxTakeNow({ ...base, budget: budget({}) })).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('budgetText', () => {
  it('describes the size, what it counts, and the schedules in their flag form', () => {
    expect(budgetText(budget({ nodes: 1, schedules: [officeHours] }))).toBe(
      'at most 1 node unavailable in the cluster; 0 at 0 9 * * 1-5 for 8h in UTC',
    );
    expect(budgetText(budget({ percent: 20, of: 'selected' }))).toBe("at most 20% unavailable among the rollout's nodes");
    expect(budgetText(budget({}))).toBe('no limit on unavailable nodes in the cluster');
  });
});
