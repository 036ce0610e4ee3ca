import { describe, expect, it } from 'vitest';
import { planLines } from '../../../src/commands/rollout/lines.js';
import { guardLines, holdText } from '../../../src/report/rollout/guards-text.js';
import { NO_GUARDS, type RolloutGuards } from '../../../src/rollout/guards/types.js';
import { resolvePlan } from '../../../src/rollout/plan.js';
import { CLUSTER, spec } from '../../helpers/objects/rollout.js';

const ONE_AT_A_TIME = 'one rollout at a time in the cluster (waits for any other)';

const FULL: RolloutGuards = {
  windows: [
    { days: ['Sat', 'Sun'], start: '02:00', end: '06:00', timeZone: 'Europe/Berlin' },
    { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '22:00', end: '04:00', timeZone: 'UTC' },
  ],
  budget: {
    nodes: 1,
    of: 'cluster',
    schedules: [{ cron: '0 9 * * mon-fri', durationMs: 8 * 3_600_000, timeZone: 'Europe/Berlin', size: { nodes: 0 } }],
  },
  alerts: {
    url: 'https://ops:s3cret@prometheus.example:9090/',
    api: 'prometheus',
    match: '^Node',
    ignore: '^Watchdog$',
    firingOnly: true,
  },
  blockingPods: ['app=backup', 'job in (etl)'],
  recheckMs: 120_000,
  soakMs: 600_000,
  prioritySoakMs: 1_800_000,
  nodeDeadlineMs: 2_700_000,
  rolloutDeadlineMs: 6 * 3_600_000,
  onDrainTimeout: 'skip',
  preferNoScheduleTaint: true,
  labelsBefore: { maintenance: 'true' },
  labelsAfter: { 'os-image': '2026-11', patched: 'yes' },
  concurrent: true,
  notify: { url: 'https://hooks.slack.com/services/T000/B000/XXXXsecretXXXX', format: 'slack', templates: {} },
};

describe('guardLines', () => {
  it('a spec without guard rails (written before them): no line', () => {
    expect(guardLines(undefined)).toEqual([]);
  });

  it('the defaults: only that the rollout runs alone in its cluster', () => {
    expect(guardLines(NO_GUARDS)).toEqual([ONE_AT_A_TIME]);
  });

  it('every guard rail, one line each, in order', () => {
    expect(guardLines(FULL)).toEqual([
      'windows: Sat,Sun 02:00-06:00 Europe/Berlin; Mon-Fri 22:00-04:00 UTC (no node is taken outside them)',
      'budget: at most 1 node unavailable in the cluster; 0 at 0 9 * * mon-fri for 8h in Europe/Berlin',
      'gates: alerts in Prometheus https://prometheus.example:9090 (firing), matching ^Node, ignoring ^Watchdog$; pods matching app=backup; pods matching job in (etl); checked before each batch, again every 2m while one holds',
      'soak: 10m after each batch, 30m before a lower priority',
      'deadlines: node 45m, rollout 6h (passed: the rollout pauses)',
      'drain timeout: skip the node (uncordoned, left as it was)',
      'marks: PreferNoSchedule taint on the nodes about to go; labels while worked on: maintenance=true; labels when done: os-image=2026-11,patched=yes',
      'runs beside other rollouts of the cluster (concurrent)',
      'notifications: slack webhook https://hooks.slack.com/…',
    ]);
  });

  it('never shows the webhook’s secret path nor the alert gate’s credentials', () => {
    const text = guardLines(FULL).join('\n');
    expect(text).not.toMatch(/XXXXsecretXXXX|T000|services/);
    expect(text).not.toMatch(/s3cret|ops@/);
  });

  it('the other variants: a percentage of the rollout’s nodes, Alertmanager with pending alerts, force, a bare webhook', () => {
    const lines = guardLines({
      ...NO_GUARDS,
      budget: { percent: 20, of: 'selected', schedules: [] },
      alerts: { url: 'http://am:9093', api: 'alertmanager', firingOnly: false },
      soakMs: 60_000,
      rolloutDeadlineMs: 3_600_000,
      onDrainTimeout: 'force',
      notify: { url: 'http://hooks.example/', format: 'json', templates: {} },
    });
    expect(lines).toEqual([
      "budget: at most 20% unavailable among the rollout's nodes",
      'gates: alerts in Alertmanager http://am:9093; checked before each batch, again every 1m while one holds',
      'soak: 1m after each batch',
      'deadlines: rollout 1h (passed: the rollout pauses)',
      'drain timeout: delete the pods left without eviction (PodDisruptionBudgets bypassed)',
      ONE_AT_A_TIME,
      'notifications: json webhook http://hooks.example/',
    ]);
  });

  it('holdText: "held: " and the reason', () => {
    const hold = { kind: 'window' as const, reason: 'waiting for the window: opens Sat 02:00 UTC (in 3 h)', since: 'a', checkedAt: 'b' };
    expect(holdText(hold)).toBe('held: waiting for the window: opens Sat 02:00 UTC (in 3 h)');
  });
});

describe('the plan shows the guard lines', () => {
  const s = spec({ nodeNames: [{ name: 'w-1', priority: 0 }] });
  const plan = resolvePlan(CLUSTER, s);

  it('between the drain line and the order, indented', () => {
    const lines = planLines({ ...s, guards: { ...NO_GUARDS, soakMs: 600_000 } }, plan);
    expect(lines.slice(2, 5)).toEqual([
      '  soak: 10m after each batch',
      `  ${ONE_AT_A_TIME}`,
      'Order (higher priorities finish before lower ones start):',
    ]);
  });

  it('a spec written before guard rails: no guard line', () => {
    expect(planLines(s, plan)[2]).toBe('Order (higher priorities finish before lower ones start):');
  });
});
