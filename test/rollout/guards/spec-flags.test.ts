import { parseNodeRollout } from '../../../src/rollout/noderollout.js';
import { describe, expect, it } from 'vitest';
import { combineGuards, guardsFromFlags, labelsOf, type GuardFlags } from '../../../src/rollout/guards/spec-flags.js';
import { NO_GUARDS } from '../../../src/rollout/guards/types.js';
import { usage } from '../../helpers/objects/rollout.js';

const refused = (f: GuardFlags) => usage(() => guardsFromFlags(f)).message;

describe('guardsFromFlags', () => {
  it('no flag: nothing set', () => {
    expect(guardsFromFlags({})).toEqual({});
  });

  it('--window, repeatable', () => {
    expect(guardsFromFlags({ window: ['Sat,Sun 02:00-06:00 Europe/Berlin', 'Mon-Fri 22:00-04:00'] })).toEqual({
      windows: [
        { days: ['Sat', 'Sun'], start: '02:00', end: '06:00', timeZone: 'Europe/Berlin' },
        { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '22:00', end: '04:00', timeZone: 'UTC' },
      ],
    });
    expect(refused({ window: ['Sat 25:00-06:00'] })).toMatch(/^bad maintenance window "Sat 25:00-06:00": start "25:00" is not a time/);
  });

  it('--budget, --budget-of and --budget-schedule', () => {
    expect(
      guardsFromFlags({ budget: '20%', budgetOf: 'selected', budgetSchedule: ['0 at 0 9 * * mon-fri for 8h in Europe/Berlin'] }),
    ).toEqual({
      budget: {
        percent: 20,
        of: 'selected',
        schedules: [{ cron: '0 9 * * mon-fri', durationMs: 8 * 3_600_000, timeZone: 'Europe/Berlin', size: { nodes: 0 } }],
      },
    });
    expect(guardsFromFlags({ budget: '2' })).toEqual({ budget: { nodes: 2, of: 'cluster', schedules: [] } });
    expect(refused({ budget: '120%' })).toBe('bad budget size "120%": a percentage is at most 100%');
    expect(refused({ budget: 'two' })).toBe('bad budget size "two": expected a node count such as 3, or a percentage such as 20%');
    expect(refused({ budget: '1', budgetOf: 'zone' })).toBe('--budget-of zone: use cluster or selected');
    expect(refused({ budgetSchedule: ['0 at 0 9 * * for 8h'] })).toMatch(
      /^bad budget schedule "0 at 0 9 \* \* for 8h": cron "0 9 \* \*" has 4 fields/,
    );
  });

  it('--prometheus-url or --alertmanager-url with --alert-ignore, --alert-match and --alert-pending', () => {
    expect(guardsFromFlags({ prometheusUrl: 'http://prom:9090', alertIgnore: '^Watchdog$' })).toEqual({
      alerts: { url: 'http://prom:9090', api: 'prometheus', ignore: '^Watchdog$', firingOnly: true },
    });
    expect(guardsFromFlags({ alertmanagerUrl: 'http://am:9093', alertMatch: '^Node', alertPending: true })).toEqual({
      alerts: { url: 'http://am:9093', api: 'alertmanager', match: '^Node', firingOnly: false },
    });
    expect(refused({ prometheusUrl: 'http://p', alertmanagerUrl: 'http://a' })).toBe(
      'give --prometheus-url or --alertmanager-url, not both',
    );
    expect(refused({ prometheusUrl: 'http://p', alertIgnore: '(' })).toBe(
      '--alert-ignore: ignore "(" is not a regular expression: Invalid regular expression: /(/: Unterminated group',
    );
    expect(refused({ alertmanagerUrl: 'not a url' })).toBe('--alertmanager-url: url "not a url" is not a URL');
  });

  it('--alert-ignore, --alert-match or --alert-pending without a URL is refused', () => {
    const why = '--alert-ignore, --alert-match and --alert-pending need --prometheus-url or --alertmanager-url';
    expect([refused({ alertIgnore: 'x' }), refused({ alertMatch: 'x' }), refused({ alertPending: true })]).toEqual([why, why, why]);
  });

  it('--blocking-pod-selector, repeatable, each checked', () => {
    expect(guardsFromFlags({ blockingPodSelector: ['app=backup', 'job in (etl)'] })).toEqual({
      blockingPods: ['app=backup', 'job in (etl)'],
    });
    expect(refused({ blockingPodSelector: ['app=backup', 'a in ('] })).toMatch(/^invalid selector "a in \("/);
  });

  it('the durations, --on-drain-timeout, --prefer-no-schedule-taint and --concurrent', () => {
    expect(
      guardsFromFlags({
        recheck: 30_000,
        soak: 600_000,
        prioritySoak: 1_800_000,
        nodeDeadline: 2_700_000,
        deadline: 21_600_000,
        onDrainTimeout: 'force',
        preferNoScheduleTaint: true,
        concurrent: true,
      }),
    ).toEqual({
      recheckMs: 30_000,
      soakMs: 600_000,
      prioritySoakMs: 1_800_000,
      nodeDeadlineMs: 2_700_000,
      rolloutDeadlineMs: 21_600_000,
      onDrainTimeout: 'force',
      preferNoScheduleTaint: true,
      concurrent: true,
    });
    expect(guardsFromFlags({ preferNoScheduleTaint: false, concurrent: false })).toEqual({});
    expect(refused({ onDrainTimeout: 'later' })).toBe('--on-drain-timeout later: use pause, skip or force');
  });

  it('--label-before and --label-after: KEY=VALUE with valid label keys and values', () => {
    expect(guardsFromFlags({ labelBefore: ['maintenance=true', 'example.com/os-image='], labelAfter: ['os-image=2026-11'] })).toEqual({
      labelsBefore: { maintenance: 'true', 'example.com/os-image': '' },
      labelsAfter: { 'os-image': '2026-11' },
    });
    const key = (k: string) => `"${k}" is not a label key (at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric)`;
    const value = (v: string) =>
      `"${v}" is not a label value (at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric)`;
    expect(refused({ labelBefore: ['maintenance'] })).toBe('--label-before maintenance: give KEY=VALUE (e.g. maintenance=true)');
    expect(refused({ labelBefore: ['bad key=v'] })).toBe(`--label-before bad key=v: ${key('bad key')}`);
    expect(refused({ labelAfter: ['-x=v'] })).toBe(`--label-after -x=v: ${key('-x')}`);
    expect(refused({ labelAfter: ['os=has space'] })).toBe(`--label-after os=has space: ${value('has space')}`);
    expect(refused({ labelAfter: [`os=${'a'.repeat(64)}`] })).toBe(`--label-after os=${'a'.repeat(64)}: ${value('a'.repeat(64))}`);
    expect(refused({ labelAfter: ['Upper.Case/x=v'] })).toBe(
      '--label-after Upper.Case/x=v: "Upper.Case" is not a DNS subdomain (the label key\'s prefix)',
    );
    expect(labelsOf(['a.b/c_d=e-f.g'], '--x')).toEqual({ 'a.b/c_d': 'e-f.g' });
  });

  it('--notify-url with --notify-format and --notify-template', () => {
    expect(
      guardsFromFlags({
        notifyUrl: 'https://hooks.example/T0/secret',
        notifyFormat: 'json',
        notifyTemplate: ['blocked={{rollout}} held: {{reason}}', 'completed=done=yes'],
      }),
    ).toEqual({
      notify: {
        url: 'https://hooks.example/T0/secret',
        format: 'json',
        templates: { blocked: '{{rollout}} held: {{reason}}', completed: 'done=yes' },
      },
    });
    expect(guardsFromFlags({ notifyUrl: 'http://h/' })).toEqual({ notify: { url: 'http://h/', format: 'slack', templates: {} } });
    expect(refused({ notifyUrl: 'https://h/x', notifyTemplate: ['finished=x'] })).toBe(
      '--notify-template finished=x: give EVENT=TEXT, EVENT one of start, drained, replaced, blocked, paused, failed, completed',
    );
    expect(refused({ notifyUrl: 'https://h/x', notifyTemplate: ['blocked'] })).toMatch(/^--notify-template blocked: give EVENT=TEXT/);
    expect(refused({ notifyUrl: 'https://h/x', notifyFormat: 'xml' })).toBe('--notify-format xml: use slack or json');
    expect(refused({ notifyUrl: 'ftp://h/x' })).toBe('--notify-url: url must be http or https, not ftp');
    expect(refused({ notifyUrl: 'https://h/x', notifyTemplate: ['blocked={{who}}'] })).toBe(
      '--notify-template: templates.blocked: unknown placeholder {{who}} (known: rollout, context, node, reason, replacement, done, total)',
    );
  });

  it('--notify-template or --notify-format without --notify-url is refused', () => {
    const why = '--notify-format and --notify-template need --notify-url';
    expect([refused({ notifyTemplate: ['blocked=x'] }), refused({ notifyFormat: 'json' })]).toEqual([why, why]);
  });
});

describe('combineGuards: the defaults, then the file, then the flags', () => {
  it('without file and flags: the defaults', () => {
    expect(combineGuards(undefined, {})).toEqual(NO_GUARDS);
  });

  it('a flag wins over the file’s field; what the flags leave alone comes from the file; a flag list replaces the file’s', () => {
    const file = {
      windows: [{ days: ['Sat' as const], start: '02:00', end: '06:00', timeZone: 'UTC' }],
      blockingPods: ['app=backup', 'app=etl'],
      soakMs: 600_000,
      onDrainTimeout: 'skip' as const,
      labelsBefore: { maintenance: 'true', owner: 'ops' },
      concurrent: true,
    };
    const flags = guardsFromFlags({
      window: ['Sun 03:00-05:00'],
      blockingPodSelector: ['app=report'],
      soak: 60_000,
      labelBefore: ['drain=now'],
    });
    expect(combineGuards(file, flags)).toEqual({
      ...NO_GUARDS,
      windows: [{ days: ['Sun'], start: '03:00', end: '05:00', timeZone: 'UTC' }],
      blockingPods: ['app=report'],
      soakMs: 60_000,
      onDrainTimeout: 'skip',
      labelsBefore: { drain: 'now' },
      concurrent: true,
    });
  });

  it('--recheck below 1s is refused, 1s is not', () => {
    expect(usage(() => combineGuards(undefined, guardsFromFlags({ recheck: 500 }))).message).toBe('--recheck must be at least 1s');
    expect(combineGuards(undefined, guardsFromFlags({ recheck: 1_000 })).recheckMs).toBe(1_000);
  });

  it('a label the file gives is refused at its line', () => {
    const file = `apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
spec:
  nodeNames: [{ name: n1 }]
  guardRails:
    labels:
      after:
        "bad key": v
`;
    expect(usage(() => parseNodeRollout(file, 'r.yaml')).message).toBe(
      `r.yaml:8: spec.guardRails.labels.after["bad key"]: "bad key" is not a label key (at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric)`,
    );
  });
});
