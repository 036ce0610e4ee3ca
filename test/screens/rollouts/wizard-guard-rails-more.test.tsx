/**
 * The rest of the new-rollout wizard's guard rails, those beside the first ones on its options
 * page (budget schedules and counts, alert filters, pending alerts, recheck, priority soak,
 * labels, concurrent, notification format): typed, chosen or toggled, checked in place, and in
 * the spec handed to the start; the page's help line for each, at 80×24.
 */
import { describe, expect, it, vi } from 'vitest';
import { KEYS } from '../../helpers/screens/screen.js';
import { clockAtMidday, expectFits, fakeRollouts, moveRow, openRollouts, RIGHT, toOptions } from './fixtures.js';

clockAtMidday();

const move = moveRow;

/** The guard rails' rows top to bottom, and the help line under the rows while each has the focus (a choice: for its first value). */
const GUARD_ROWS: [label: string, help: string][] = [
  ['Maintenance windows', 'DAYS HH:MM-HH:MM [ZONE], e.g. Sat,Sun 02:00-06:00 Europe/Berlin; several: a; b'],
  ['Disruption budget', 'at most N nodes (or N%) of the cluster unavailable at once, e.g. 1 or 20%'],
  ['Budget schedules', 'SIZE at CRON for DURATION [in ZONE], e.g. 0 at 0 9 * * * for 8h; several: a; b'],
  ['Budget counts', 'every node of the cluster'],
  ['Alerts from', 'the API the alerts URL answers'],
  ['Alerts URL', 'hold while alerts fire there, e.g. http://prometheus.monitoring:9090'],
  ['Alert ignore regexp', 'alerts whose name matches never hold, e.g. ^(Watchdog|InfoInhibitor)$'],
  ['Alert match regexp', 'only alerts whose name matches hold, e.g. ^Node'],
  ['Pending alerts hold too', 'pending (Prometheus) or silenced (Alertmanager) alerts hold too'],
  ['Blocking pods', 'hold while pods matching this selector exist, e.g. app=backup; several: a; b'],
  ['Recheck interval', 'how often a hold is checked again (default 1m, at least 1s), e.g. 30s'],
  ['Soak', 'wait this long after each batch passes its health gate, e.g. 10m'],
  ['Priority soak', 'wait this long before moving to a lower priority, e.g. 30m'],
  ['Node deadline', 'pause when a node is not done this long after its cordon, e.g. 1h'],
  ['Rollout deadline', 'pause when the rollout is not done this long after its start, e.g. 8h'],
  ['On drain timeout', 'pause the rollout'],
  ['PreferNoSchedule taint', 'on the nodes about to go, so evicted pods avoid them'],
  ['Labels before', 'KEY=VALUE on a node while the rollout works on it; several: a=1,b=2'],
  ['Labels after', 'KEY=VALUE on a node (or its replacement) once it is done; several: a=1,b=2'],
  ['Concurrent', 'run even while another rollout runs in the cluster (else wait for it)'],
  ['Webhook URL', 'POST a message on start, drained, replaced, blocked, paused, failed, completed'],
  ['Notification format', 'Slack-compatible {"text": …}'],
];

/** The help line of a frame of the options page: the last line above the key hints. */
const helpLine = (frame: string) =>
  frame
    .split('\n')
    .filter((l) => l.trim() !== '')
    .at(-2);

describe('the rest of the guard rails of a new rollout', () => {
  it('budget schedules and counts, alert filters, recheck, priority soak, labels, concurrent and the format go into the spec', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    await toOptions(screen);

    // A budget with two schedules, counting the rollout's nodes only
    await move(screen, 'replace', 'budget');
    await screen.press('1');
    await move(screen, 'budget', 'budgetSchedules');
    await screen.press(...'0 at 0 9 * * 1-5 for 8h in Europe/Berlin; 50% at @daily for 30m');
    await move(screen, 'budgetSchedules', 'budgetOf');
    await screen.press(RIGHT);
    await screen.waitFor(/Budget counts\s+‹ selected ›\s+only the rollout's nodes/);
    // Prometheus' alerts, filtered both ways, pending ones holding too
    await move(screen, 'budgetOf', 'alertsUrl');
    await screen.press(...'http://prom:9090');
    await move(screen, 'alertsUrl', 'alertIgnore');
    await screen.press(...'^(Watchdog|InfoInhibitor)$');
    await move(screen, 'alertIgnore', 'alertMatch');
    await screen.press(...'^Node');
    await move(screen, 'alertMatch', 'alertPending');
    await screen.press(' ');
    await screen.waitFor(/Pending alerts hold too ◉/);
    // The recheck and the priority soak
    await move(screen, 'alertPending', 'recheck');
    await screen.press(...'30s');
    await move(screen, 'recheck', 'prioritySoak');
    await screen.press(...'20m');
    // Labels while worked on and when done, concurrent
    await move(screen, 'prioritySoak', 'labelsBefore');
    await screen.press(...'maint=true, a.io/phase=on');
    await move(screen, 'labelsBefore', 'labelsAfter');
    await screen.press(...'patched=2026-11');
    await move(screen, 'labelsAfter', 'concurrent');
    await screen.press(' ');
    await screen.waitFor(/Concurrent\s+◉/);
    // A webhook that gets the events as JSON; Enter on the format continues
    await move(screen, 'concurrent', 'webhook');
    await screen.press(...'https://hooks.example.com/T0');
    await move(screen, 'webhook', 'notifyFormat');
    await screen.press(RIGHT);
    const options = await screen.waitFor(/❯ Notification format\s+‹ json ›/);
    expectFits(options);
    expect(helpLine(options)).toBe('the event as a JSON object, with its text');
    await screen.press(KEYS.enter);

    const plan = await screen.waitFor('Press enter to start');
    expectFits(plan);
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(fake.calls.runs).toHaveLength(1));
    expect(fake.calls.runs[0]!.guards).toEqual({
      windows: [],
      budget: {
        nodes: 1,
        of: 'selected',
        schedules: [
          { cron: '0 9 * * 1-5', durationMs: 8 * 3_600_000, timeZone: 'Europe/Berlin', size: { nodes: 0 } },
          { cron: '@daily', durationMs: 30 * 60_000, timeZone: 'UTC', size: { percent: 50 } },
        ],
      },
      alerts: {
        url: 'http://prom:9090',
        api: 'prometheus',
        ignore: '^(Watchdog|InfoInhibitor)$',
        match: '^Node',
        firingOnly: false,
      },
      blockingPods: [],
      recheckMs: 30_000,
      soakMs: 0,
      prioritySoakMs: 20 * 60_000,
      onDrainTimeout: 'pause',
      preferNoScheduleTaint: false,
      labelsBefore: { maint: 'true', 'a.io/phase': 'on' },
      labelsAfter: { patched: '2026-11' },
      concurrent: true,
      notify: { url: 'https://hooks.example.com/T0', format: 'json', templates: {} },
    });
  }, 20_000);

  it('a bad budget schedule shows its error under the field, the focus goes to it and the page stays; fixed, it goes on', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    await toOptions(screen);
    await move(screen, 'replace', 'budgetSchedules');
    await screen.press(...'0 at 0 9 * * 1-5 for 8h; 1 at 9am for 1h');
    // Enter on the row below it (a choice), not in the field
    await move(screen, 'budgetSchedules', 'budgetOf');
    await screen.waitFor(/❯ Budget counts/);
    await screen.press(KEYS.enter);

    const refused = await screen.waitFor('"1 at 9am for 1h": cron "9am" has 1 field, expected 5');
    expectFits(refused);
    expect(refused).toMatch(
      /❯ Budget schedules\s+0 at 0 9 \* \* 1-5 for 8h; 1 at 9am for 1h\n {4}"1 at 9am for 1h": cron "9am" has 1 field/,
    );
    expect(refused).toContain('How each node is replaced');
    expect(refused).not.toContain('The plan and the dry run');
    expect(fake.calls.dryRuns).toHaveLength(0);

    // Typed right, its error goes, and Enter goes on to the plan with the schedules
    await screen.press(...Array<string>('9am for 1h'.length).fill(KEYS.backspace));
    const changed = await screen.waitFor(/Budget schedules\s+0 at 0 9 \* \* 1-5 for 8h; 1 at\n/);
    expect(changed).not.toContain('has 1 field');
    await screen.press(...'@daily for 1h', KEYS.enter);
    const plan = await screen.waitFor('Press enter to start');
    expect(plan).toContain('budget: no limit on unavailable nodes in the cluster; 0 at 0 9 * * 1-5 for 8');
    expect(fake.calls.dryRuns[0]!.spec.guards?.budget).toEqual({
      of: 'cluster',
      schedules: [
        { cron: '0 9 * * 1-5', durationMs: 8 * 3_600_000, timeZone: 'UTC', size: { nodes: 0 } },
        { cron: '@daily', durationMs: 3_600_000, timeZone: 'UTC', size: { nodes: 1 } },
      ],
    });
  }, 15_000);

  it('a bad label shows its error under the field and the page does not advance', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    await toOptions(screen);
    await move(screen, 'replace', 'labelsAfter');
    await screen.press(...'patched=yes, oops', KEYS.enter);

    const refused = await screen.waitFor('"oops": give KEY=VALUE (e.g. maintenance=true)');
    expectFits(refused);
    expect(refused).toMatch(/❯ Labels after\s+patched=yes, oops\n {4}"oops": give KEY=VALUE \(e\.g\. maintenance=true\)\n/);
    expect(refused).toContain('How each node is replaced');
    expect(refused).not.toContain('The plan and the dry run');
    expect(fake.calls.dryRuns).toHaveLength(0);

    // A key Kubernetes refuses is refused too, with its words
    await move(screen, 'labelsAfter', 'concurrent');
    await screen.waitFor(/❯ Concurrent/);
    await screen.press(KEYS.up, KEYS.up);
    await screen.waitFor(/❯ Labels before/);
    await screen.press(...'Bad Key=x', KEYS.enter);
    const bad = await screen.waitFor('"Bad Key" is not a label key');
    expect(bad).toMatch(/❯ Labels before\s+Bad Key=x\n {4}"Bad Key" is not a label key/);
    expect(bad).toMatch(/Labels after\s+patched=yes, oops\n {4}"oops": give KEY=VALUE/);
    expect(fake.calls.dryRuns).toHaveLength(0);
  }, 15_000);

  it('each guard rail says what it takes in the help line, whole, and the page fits 80×24 wherever the focus is', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    await toOptions(screen);
    await move(screen, 'replace', 'windows');
    const frames = [await screen.waitFor(`❯ ${GUARD_ROWS[0]![0]}`)];
    for (const [label] of GUARD_ROWS.slice(1)) {
      await screen.press(KEYS.down);
      frames.push(await screen.waitFor(`❯ ${label}`));
    }

    expect(frames.map(helpLine)).toEqual(GUARD_ROWS.map(([, help]) => help));
    const widths = frames.flatMap((f) => f.split('\n').map((l) => [...l].length));
    expect(Math.max(...widths)).toBeLessThanOrEqual(80);
    expect(Math.max(...frames.map((f) => f.split('\n').length))).toBeLessThan(24);
    // The last row reached: the page scrolled to it
    expect(frames.at(-1)).toMatch(/❯ Notification format\s+‹ slack ›/);
    expect(frames.at(-1)).not.toContain('Replacement');
  }, 15_000);
});
