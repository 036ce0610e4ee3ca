import { describe, expect, it } from 'vitest';
import { parseNodeRollout } from '../../../src/rollout/noderollout.js';
import { usage } from '../../helpers/objects/rollout.js';

const HEAD = `apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
metadata:
  name: os-2026-11
spec:
  nodeNames:
  - name: node-1
  guardRails:
`;
/** A NodeRollout of one node whose guardRails are `rails` (indented under guardRails, from line 9). */
const file = (rails: string) => HEAD + rails.replace(/^\n/, '');
const bad = (rails: string) => usage(() => parseNodeRollout(file(rails), 'r.yaml')).message;

const FULL = `    maintenanceWindows:
    - days: [Sat, Sun]
      start: "02:00"
      end: "06:00"
      timeZone: Europe/Berlin
    - "Mon-Fri 22:00-04:00"
    disruptionBudget:
      nodes: "20%"
      of: selected
      schedules:
      - schedule: "0 9 * * mon-fri"
        duration: 8h
        timeZone: Europe/Berlin
        nodes: 0
      - schedule: "@daily"
        duration: 30m
        nodes: "50%"
    gates:
      alerts:
        prometheusUrl: http://prometheus.monitoring:9090
        ignore: "^(Watchdog|InfoInhibitor)$"
        match: "^Node"
        firingOnly: false
      blockingPodSelectors: ["app=backup", "job in (etl,report)"]
      recheckInterval: 2m
    soak: { afterNode: 10m, afterPriority: 30m }
    deadlines: { node: 45m, rollout: 6h }
    drainTimeout: skip
    preferNoScheduleTaint: true
    labels: { before: { maintenance: "true" }, after: { os-image: "2026-11" } }
    concurrent: true
    notifications:
      webhookUrl: https://hooks.slack.com/services/T0/B0/secret
      format: json
      templates: { blocked: "{{rollout}} held: {{reason}}", completed: "{{rollout}} done" }
`;

describe('spec.guardRails of a NodeRollout file', () => {
  it('reads every field into the guard rails', () => {
    const spec = parseNodeRollout(file(FULL), 'r.yaml');
    expect(spec.nodeNames).toEqual([{ name: 'node-1', priority: 0 }]);
    expect(spec.guards).toEqual({
      windows: [
        { days: ['Sat', 'Sun'], start: '02:00', end: '06:00', timeZone: 'Europe/Berlin' },
        { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '22:00', end: '04:00', timeZone: 'UTC' },
      ],
      budget: {
        percent: 20,
        of: 'selected',
        schedules: [
          { cron: '0 9 * * mon-fri', durationMs: 8 * 3_600_000, timeZone: 'Europe/Berlin', size: { nodes: 0 } },
          { cron: '@daily', durationMs: 30 * 60_000, timeZone: 'UTC', size: { percent: 50 } },
        ],
      },
      alerts: {
        url: 'http://prometheus.monitoring:9090',
        api: 'prometheus',
        ignore: '^(Watchdog|InfoInhibitor)$',
        match: '^Node',
        firingOnly: false,
      },
      blockingPods: ['app=backup', 'job in (etl,report)'],
      recheckMs: 120_000,
      soakMs: 600_000,
      prioritySoakMs: 1_800_000,
      nodeDeadlineMs: 2_700_000,
      rolloutDeadlineMs: 6 * 3_600_000,
      onDrainTimeout: 'skip',
      preferNoScheduleTaint: true,
      labelsBefore: { maintenance: 'true' },
      labelsAfter: { 'os-image': '2026-11' },
      concurrent: true,
      notify: {
        url: 'https://hooks.slack.com/services/T0/B0/secret',
        format: 'json',
        templates: { blocked: '{{rollout}} held: {{reason}}', completed: '{{rollout}} done' },
      },
    });
  });

  it('gives only what the file sets; a file without guardRails gives none', () => {
    const partial = parseNodeRollout(
      file(`
    maintenanceWindows: ["Sat 02:00-06:00 Europe/Berlin"]
    disruptionBudget: { nodes: 1 }
    gates: { alerts: { alertmanagerUrl: "http://am:9093" } }
    soak: 90
`),
    );
    expect(partial.guards).toEqual({
      windows: [{ days: ['Sat'], start: '02:00', end: '06:00', timeZone: 'Europe/Berlin' }],
      budget: { nodes: 1, of: 'cluster', schedules: [] },
      alerts: { url: 'http://am:9093', api: 'alertmanager', firingOnly: true },
      soakMs: 90_000,
    });
    expect(parseNodeRollout(HEAD.replace('  guardRails:\n', ''))).not.toHaveProperty('guards');
  });

  it('a window as a mapping: days as a list or a string, every day without days, the zone UTC by default', () => {
    const spec = parseNodeRollout(
      file(`
    maintenanceWindows:
    - { days: "Mon-Wed", start: "22:00", end: "24:00" }
    - { start: "01:00", end: "05:00", timeZone: Asia/Tokyo }
`),
    );
    expect(spec.guards?.windows).toEqual([
      { days: ['Mon', 'Tue', 'Wed'], start: '22:00', end: '24:00', timeZone: 'UTC' },
      { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], start: '01:00', end: '05:00', timeZone: 'Asia/Tokyo' },
    ]);
  });
});

describe('errors in spec.guardRails: one line, FILE:LINE of the field', () => {
  it('an unknown field of guardRails, and of a window mapping', () => {
    expect(bad('    concurrent: false\n    maxParallel: 3\n')).toBe(
      'r.yaml:10: spec.guardRails.maxParallel is not a field (maintenanceWindows, disruptionBudget, gates, soak, deadlines, drainTimeout, preferNoScheduleTaint, labels, concurrent, notifications)',
    );
    // Said once, at the unknown key (not wrapped in the window's own error).
    expect(bad('    maintenanceWindows:\n    - days: [Sat]\n      start: "02:00"\n      end: "06:00"\n      zone: UTC\n')).toBe(
      'r.yaml:13: spec.guardRails.maintenanceWindows.0.zone is not a field (days, start, end, timeZone)',
    );
  });

  it('a bad window, as a string and as a mapping: at the window', () => {
    expect(bad('    maintenanceWindows:\n    - "Sat 02:00-06:00"\n    - "Sat 25:00-06:00"\n')).toBe(
      'r.yaml:11: spec.guardRails.maintenanceWindows.1: bad maintenance window "Sat 25:00-06:00": start "25:00" is not a time HH:MM from 00:00 to 23:59; expected DAYS HH:MM-HH:MM [ZONE], e.g. "Sat,Sun 02:00-06:00 Europe/Berlin", "Mon-Fri 22:00-04:00 UTC", "* 01:00-05:00"',
    );
    expect(bad('    maintenanceWindows:\n    - days: [Sat]\n      start: "02:00"\n      end: "02:00"\n')).toMatch(
      /^r\.yaml:10: spec\.guardRails\.maintenanceWindows\.0: bad maintenance window "Sat 02:00-02:00 UTC": start and end are the same time/,
    );
    expect(bad('    maintenanceWindows:\n    - days: [Caturday]\n      start: "02:00"\n      end: "06:00"\n')).toMatch(
      /^r\.yaml:10: spec\.guardRails\.maintenanceWindows\.0: bad maintenance window "Caturday 02:00-06:00 UTC": unknown day "Caturday"/,
    );
  });

  it('a bad duration, and a negative one', () => {
    expect(bad('    soak:\n      afterNode: 10m\n      afterPriority: ten minutes\n')).toBe(
      'r.yaml:11: spec.guardRails.soak.afterPriority must be a duration (e.g. 90s, 15m, 1h30m), not "ten minutes"',
    );
    expect(bad('    gates:\n      recheckInterval: soon\n')).toBe(
      'r.yaml:10: spec.guardRails.gates.recheckInterval must be a duration (e.g. 90s, 15m, 1h30m), not "soon"',
    );
    expect(bad('    deadlines: { node: -5 }\n')).toBe(
      'r.yaml:9: spec.guardRails.deadlines.node must be a duration (e.g. 90s, 15m, 1h30m), not -5',
    );
  });

  it('both prometheusUrl and alertmanagerUrl, or neither', () => {
    expect(bad('    gates:\n      alerts:\n        prometheusUrl: http://p:9090\n        alertmanagerUrl: http://a:9093\n')).toBe(
      'r.yaml:10: spec.guardRails.gates.alerts needs one of prometheusUrl or alertmanagerUrl, not both',
    );
    expect(bad('    gates:\n      alerts:\n        firingOnly: true\n')).toBe(
      'r.yaml:10: spec.guardRails.gates.alerts needs one of prometheusUrl or alertmanagerUrl',
    );
  });

  it('a bad regexp and a bad URL: at their own lines', () => {
    expect(bad('    gates:\n      alerts:\n        prometheusUrl: http://p:9090\n        ignore: "(Watchdog"\n')).toBe(
      'r.yaml:12: spec.guardRails.gates.alerts: ignore "(Watchdog" is not a regular expression: Invalid regular expression: /(Watchdog/: Unterminated group',
    );
    expect(bad('    gates:\n      alerts:\n        match: "["\n        alertmanagerUrl: http://a:9093\n')).toMatch(
      /^r\.yaml:11: spec\.guardRails\.gates\.alerts: match "\[" is not a regular expression/,
    );
    expect(bad('    gates:\n      alerts:\n        firingOnly: false\n        prometheusUrl: ftp://p\n')).toBe(
      'r.yaml:12: spec.guardRails.gates.alerts: url must be http or https, not ftp',
    );
    expect(bad('    gates:\n      blockingPodSelectors: ["app=a", "a in ("]\n')).toBe(
      'r.yaml:10: spec.guardRails.gates.blockingPodSelectors[1]: invalid selector "a in (": expected ")" to close the values of "a" (at column 7)',
    );
  });

  it('a bad cron: at its schedule; a bad size at the budget', () => {
    const schedules = (...crons: string[]) =>
      `    disruptionBudget:\n      nodes: 1\n      schedules:\n${crons.map((c) => `      - schedule: "${c}"\n        duration: 8h\n        nodes: 0\n`).join('')}`;
    expect(bad(schedules('0 9 * *'))).toBe(
      'r.yaml:12: spec.guardRails.disruptionBudget.schedules.0: cron "0 9 * *" has 4 fields, expected 5 (minute hour day-of-month month day-of-week) or a macro such as @daily',
    );
    expect(bad(schedules('0 9 * * mon-fri', '61 9 * * *'))).toBe(
      'r.yaml:15: spec.guardRails.disruptionBudget.schedules.1: invalid cron "61 9 * * *": Invalid value for minute: 61',
    );
    expect(bad('    disruptionBudget:\n      of: selected\n      nodes: 120%\n')).toBe(
      'r.yaml:11: spec.guardRails.disruptionBudget: bad budget size "120%": a percentage is at most 100%',
    );
    expect(bad('    disruptionBudget:\n      of: everything\n')).toBe(
      'r.yaml:10: spec.guardRails.disruptionBudget.of must be cluster or selected',
    );
  });

  it('an unknown notification template event, and an unknown placeholder', () => {
    const notify = (templates: string) => `    notifications:\n      webhookUrl: https://h.example/x\n      templates:\n${templates}`;
    expect(bad(notify('        blocked: "x"\n        finished: "y"\n'))).toBe(
      'r.yaml:13: spec.guardRails.notifications.templates.finished is not a field (start, drained, replaced, blocked, paused, failed, completed)',
    );
    expect(bad(notify('        start: "x"\n        blocked: "{{foo}}"\n'))).toBe(
      'r.yaml:13: spec.guardRails.notifications: templates.blocked: unknown placeholder {{foo}} (known: rollout, context, node, reason, replacement, done, total)',
    );
  });

  it('drainTimeout "later", a label value that is not a string, a flag that is not true or false', () => {
    expect(bad('    concurrent: false\n    drainTimeout: later\n')).toBe(
      'r.yaml:10: spec.guardRails.drainTimeout must be pause, skip or force',
    );
    expect(bad('    labels:\n      after:\n        os-image: "2026-11"\n        maintenance: true\n')).toBe(
      'r.yaml:12: spec.guardRails.labels.after["maintenance"] must be a string (quote it: "true")',
    );
    expect(bad('    preferNoScheduleTaint: "yes"\n')).toBe('r.yaml:9: spec.guardRails.preferNoScheduleTaint must be true or false');
    expect(bad('    soak: { afterNode: 1m, before: 2m }\n')).toBe(
      'r.yaml:9: spec.guardRails.soak.before is not a field (afterNode, afterPriority)',
    );
  });
});
