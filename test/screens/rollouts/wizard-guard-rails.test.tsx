/** The new-rollout wizard's guard rails, on its options page: typed, checked in place, and in the spec handed to the start. */
import { describe, expect, it, vi } from 'vitest';
import { KEYS, type Screen } from '../../helpers/screens/screen.js';
import { clockAtMidday, expectFits, fakeRollouts, moveRow, openRollouts, RIGHT, toOptions } from './fixtures.js';

clockAtMidday();

const WINDOW = 'Sat,Sun 02:00-06:00 Europe/Berlin';

/** Move the focus down `n` rows. */
const down = (screen: Screen, n: number) => screen.press(...Array<string>(n).fill(KEYS.down));
const move = moveRow;

describe('the guard rails of a new rollout', () => {
  it('a window and a budget typed on the options page are in the plan and in the spec the rollout starts with', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    const options = await toOptions(screen);
    expectFits(options);
    expect(options).toContain('Guard rails (optional; ↑/↓ to reach them)');
    expect(options).toMatch(/Maintenance windows\s+-/);

    // When a window is typed in its field (the field takes letters, spaces and digits: j, k and space are text here)
    await down(screen, 4);
    const field = await screen.waitFor('DAYS HH:MM-HH:MM [ZONE]');
    expect(field).toContain('type a guard rail');
    await screen.press(...WINDOW);
    await screen.waitFor(WINDOW);

    // And a budget in the next, and Enter continues
    await down(screen, 1);
    await screen.waitFor('at most N nodes (or N%)');
    await screen.press(...'20%', KEYS.enter);

    // Then the plan lists them
    const plan = await screen.waitFor('Press enter to start');
    expectFits(plan);
    expect(plan).toContain(`windows: ${WINDOW} (no node is taken outside them)`);
    expect(plan).toContain('budget: at most 20% unavailable in the cluster');
    expect(fake.calls.dryRuns[0]!.spec.guards).toMatchObject({ windows: [{ days: ['Sat', 'Sun'] }], budget: { percent: 20 } });

    // And Enter starts the rollout with them in its spec
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(fake.calls.runs).toHaveLength(1));
    expect(fake.calls.runs[0]!.guards).toEqual({
      windows: [{ days: ['Sat', 'Sun'], start: '02:00', end: '06:00', timeZone: 'Europe/Berlin' }],
      budget: { percent: 20, of: 'cluster', schedules: [] },
      blockingPods: [],
      recheckMs: 60_000,
      soakMs: 0,
      prioritySoakMs: 0,
      onDrainTimeout: 'pause',
      preferNoScheduleTaint: false,
      labelsBefore: {},
      labelsAfter: {},
      concurrent: false,
    });
  }, 15_000);

  it('a bad window shows its error under the field and Enter does not leave the page; fixed, it goes on', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    await toOptions(screen);
    await down(screen, 4);
    await screen.waitFor('DAYS HH:MM-HH:MM [ZONE]');
    await screen.press(...'Sat 25:00-06:00', KEYS.enter);

    // Then the error is under the field, the page stays, and no dry run started
    const refused = await screen.waitFor('start "25:00" is not a time HH:MM');
    expectFits(refused);
    expect(refused).toContain('How each node is replaced');
    expect(refused).toMatch(/❯ Maintenance windows\s+Sat 25:00-06:00\n {4}start "25:00" is not a time HH:MM from 00:00 to 23:59\n/);
    expect(refused).not.toContain('The plan and the dry run');
    expect(fake.calls.dryRuns).toHaveLength(0);

    // When the field is changed, its error goes; typed again right, Enter goes on to the plan
    await screen.press(KEYS.backspace);
    const changed = await screen.waitFor(/Maintenance windows\s+Sat 25:00-06:0\n/);
    expect(changed).not.toContain('is not a time');
    await screen.press(...Array<string>(14).fill(KEYS.backspace), ...'Sat 02:00-06:00');
    await screen.waitFor(/Maintenance windows\s+Sat 02:00-06:00\n/);
    await screen.press(KEYS.enter);
    const plan = await screen.waitFor('Press enter to start');
    expect(plan).toContain('windows: Sat 02:00-06:00 UTC');
  }, 15_000);

  it('durations, the alert gate, the drain timeout (force in red words), the taint and the webhook go into the spec', async () => {
    const fake = fakeRollouts();
    const screen = await openRollouts(fake);
    await toOptions(screen);

    // Alertmanager instead of Prometheus, and its URL
    await move(screen, 'replace', 'alertsApi');
    await screen.waitFor(/Alerts from\s+‹ Prometheus ›/);
    await screen.press(RIGHT);
    await screen.waitFor(/Alerts from\s+‹ Alertmanager ›/);
    await move(screen, 'alertsApi', 'alertsUrl');
    await screen.press(...'http://am.monitoring:9093');
    // A blocking pod selector, a soak and the deadlines
    await move(screen, 'alertsUrl', 'blockingPods');
    await screen.press(...'app=backup');
    await move(screen, 'blockingPods', 'soak');
    await screen.press(...'10m');
    await move(screen, 'soak', 'nodeDeadline');
    await screen.press(...'1h');
    await move(screen, 'nodeDeadline', 'rolloutDeadline');
    await screen.press(...'8h');
    // A drain timeout that deletes pods: its words say what it bypasses
    await move(screen, 'rolloutDeadline', 'onDrainTimeout');
    await screen.press(RIGHT, RIGHT);
    await screen.waitFor('delete its pods without eviction: PodDisruptionBudgets bypassed');
    // The taint, then the webhook, and Enter in it
    await move(screen, 'onDrainTimeout', 'taint');
    await screen.press(' ');
    await screen.waitFor(/PreferNoSchedule taint\s+◉/);
    await move(screen, 'taint', 'webhook');
    await screen.press(...'https://hooks.example.com/T000/B000/secret', KEYS.enter);

    const plan = await screen.waitFor('Press enter to start');
    expectFits(plan);
    expect(plan).toContain('gates: alerts in Alertmanager http://am.monitoring:9093 (firing); pods match');
    expect(plan).toContain('soak: 10m after each batch');
    expect(plan).toContain('deadlines: node 1h, rollout 8h (passed: the rollout pauses)');
    expect(plan).toContain('drain timeout: delete the pods left without eviction');
    expect(plan).toContain('marks: PreferNoSchedule taint on the nodes about to go');
    // The webhook's secret path is not shown
    expect(plan).toContain('notifications: slack webhook https://hooks.example.com/…');
    expect(plan).not.toContain('secret');
    await screen.press(KEYS.enter);
    await vi.waitFor(() => expect(fake.calls.runs).toHaveLength(1));
    expect(fake.calls.runs[0]!.guards).toMatchObject({
      alerts: { url: 'http://am.monitoring:9093', api: 'alertmanager', firingOnly: true },
      blockingPods: ['app=backup'],
      soakMs: 10 * 60_000,
      nodeDeadlineMs: 3_600_000,
      rolloutDeadlineMs: 8 * 3_600_000,
      onDrainTimeout: 'force',
      preferNoScheduleTaint: true,
      notify: { url: 'https://hooks.example.com/T000/B000/secret', format: 'slack' },
    });
  }, 15_000);
});
