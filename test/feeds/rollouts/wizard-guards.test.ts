import { describe, expect, it } from 'vitest';
import { guardsOfForm } from '../../../src/feeds/rollouts/wizard-guards.js';
import { initialNewRolloutState, newRolloutReducer } from '../../../src/feeds/rollouts/wizard-model.js';
import { specFrom } from '../../../src/feeds/rollouts/wizard-spec.js';
import { combineGuards, guardsFromFlags } from '../../../src/rollout/guards/spec-flags.js';
import { NO_GUARDS } from '../../../src/rollout/guards/types.js';
import {
  EMPTY_GUARD_FORM,
  FIRST_GUARD_ROW,
  type GuardField,
  type GuardForm,
  type NewRolloutState,
  OPTION_ROWS,
} from '../../../src/store/rollout-wizard.js';

const form = (over: Partial<GuardForm>): GuardForm => ({ ...EMPTY_GUARD_FORM, ...over });
/** The options page's row of a guard rail. */
const rowOf = (field: GuardField) => OPTION_ROWS.findIndex((r) => r.id === field);
/** The focus moved from the row it is on to a guard rail's. */
const focusOn = (s: NewRolloutState, field: GuardField) => newRolloutReducer(s, { type: 'focus', delta: rowOf(field) - s.focus });

/** A wizard on the options page of context c, w-a picked by name. */
function onOptions(): NewRolloutState {
  let s = newRolloutReducer(initialNewRolloutState(), { type: 'context', context: 'c', navarchos: false });
  s = newRolloutReducer(s, { type: 'nodes', nodes: [{ name: 'w-a', labels: {}, unschedulable: false, ready: true }] });
  s = newRolloutReducer(s, { type: 'selector', text: '' });
  s = newRolloutReducer(s, { type: 'pickNodes', names: ['w-a'] });
  return newRolloutReducer(s, { type: 'priorities' });
}

describe('the wizard’s guard rails', () => {
  it('an empty form gives no guard rails, as rollout create without their flags', () => {
    expect(guardsOfForm(EMPTY_GUARD_FORM)).toEqual({ guards: NO_GUARDS });
    const s = newRolloutReducer(onOptions(), { type: 'options' });
    expect(s.page).toBe('plan');
    expect(specFrom(s, 'r1').guards).toEqual(NO_GUARDS);
  });

  it('several windows and pod selectors are separated by ;, durations are 10m, 1h30m', () => {
    const r = guardsOfForm(
      form({ windows: 'Sat,Sun 02:00-06:00 Europe/Berlin; Mon-Fri 22:00-04:00', blockingPods: 'app=backup; job in (a,b)', soak: '1h30m' }),
    );
    expect(r).toMatchObject({
      guards: {
        windows: [
          { days: ['Sat', 'Sun'], start: '02:00', end: '06:00', timeZone: 'Europe/Berlin' },
          { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '22:00', end: '04:00', timeZone: 'UTC' },
        ],
        blockingPods: ['app=backup', 'job in (a,b)'],
        soakMs: 90 * 60_000,
      },
    });
  });

  it('says what is wrong with each field, in its words, without the flag or the form', () => {
    const r = guardsOfForm(
      form({
        windows: 'Someday 02:00-06:00',
        budget: '120%',
        alertsUrl: 'prometheus:9090',
        blockingPods: 'app in (',
        soak: 'ten minutes',
        nodeDeadline: '0s',
        webhook: 'ftp://example.com/hook',
      }),
    );
    expect(r).toEqual({
      errors: {
        windows: 'unknown day "Someday" (Mon … Sun, Monday … Sunday, or *)',
        budget: 'a percentage is at most 100%',
        alertsUrl: 'url must be http or https, not prometheus',
        blockingPods: expect.stringMatching(/selector/) as unknown as string,
        soak: '"ten minutes" is not a duration (e.g. 90s, 15m, 1h30m)',
        nodeDeadline: 'give a duration longer than 0, or leave it empty',
        webhook: 'url must be http or https, not ftp',
      },
    });
  });

  it('leaving the options page with a bad field stays there, its error kept and the focus on the first bad one', () => {
    let s = onOptions();
    s = newRolloutReducer(s, { type: 'guardText', field: 'soak', text: 'soon' });
    s = newRolloutReducer(s, { type: 'options', field: 'budget', text: 'one' });
    expect(s.page).toBe('options');
    expect(s.focus).toBe(FIRST_GUARD_ROW + 1);
    expect(Object.keys(s.guardErrors).sort()).toEqual(['budget', 'soak']);
    expect(s.guards).toBeUndefined();
    // Typing in a field takes its error away; fixed, the page is left with the guard rails
    s = newRolloutReducer(s, { type: 'guardText', field: 'soak', text: '5m' });
    expect(Object.keys(s.guardErrors)).toEqual(['budget']);
    s = newRolloutReducer(s, { type: 'options', field: 'budget', text: '2' });
    expect(s.page).toBe('plan');
    expect(s.guards).toMatchObject({ budget: { nodes: 2, of: 'cluster' }, soakMs: 300_000 });
  });

  it('←/→ choose the alerts API and what a drain timeout does; space toggles the taint', () => {
    let s = focusOn(onOptions(), 'alertsApi');
    s = newRolloutReducer(s, { type: 'optionChange', delta: 1 });
    expect(s.guardForm.alertsApi).toBe('alertmanager');
    s = focusOn(s, 'onDrainTimeout');
    s = newRolloutReducer(s, { type: 'optionChange', delta: -1 });
    expect(s.guardForm.onDrainTimeout).toBe('force');
    s = focusOn(s, 'taint');
    s = newRolloutReducer(s, { type: 'optionToggle' });
    expect(s.guardForm.taint).toBe(true);
    s = newRolloutReducer(s, { type: 'guardText', field: 'alertsUrl', text: 'http://am:9093' });
    s = newRolloutReducer(s, { type: 'options' });
    expect(specFrom(s, 'r1').guards).toMatchObject({
      alerts: { api: 'alertmanager', url: 'http://am:9093' },
      onDrainTimeout: 'force',
      preferNoScheduleTaint: true,
    });
  });

  it('budget schedules and counts, alert filters, recheck, priority soak, labels, concurrent and the format are in the guard rails as rollout create gives them', () => {
    const typed = form({
      budget: '2',
      budgetSchedules: '0 at 0 9 * * mon-fri for 8h in Europe/Berlin; 50% at @daily for 30m',
      budgetOf: 'selected',
      alertsUrl: 'http://prometheus.monitoring:9090',
      alertIgnore: '^(Watchdog|InfoInhibitor)$',
      alertMatch: '^Node',
      alertPending: true,
      recheck: '30s',
      prioritySoak: '20m',
      labelsBefore: 'maintenance=true, fleetdeck.io/phase=draining',
      labelsAfter: 'patched=2026-11',
      concurrent: true,
      webhook: 'https://hooks.example.com/x',
      notifyFormat: 'json',
    });
    const guards = {
      ...NO_GUARDS,
      budget: {
        nodes: 2,
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
      recheckMs: 30_000,
      prioritySoakMs: 20 * 60_000,
      labelsBefore: { maintenance: 'true', 'fleetdeck.io/phase': 'draining' },
      labelsAfter: { patched: '2026-11' },
      concurrent: true,
      notify: { url: 'https://hooks.example.com/x', format: 'json', templates: {} },
    };
    expect(guardsOfForm(typed)).toEqual({ guards });
    // The same as the command line's flags give
    const flags = combineGuards(
      undefined,
      guardsFromFlags({
        budget: '2',
        budgetOf: 'selected',
        budgetSchedule: ['0 at 0 9 * * mon-fri for 8h in Europe/Berlin', '50% at @daily for 30m'],
        prometheusUrl: 'http://prometheus.monitoring:9090',
        alertIgnore: '^(Watchdog|InfoInhibitor)$',
        alertMatch: '^Node',
        alertPending: true,
        recheck: 30_000,
        prioritySoak: 20 * 60_000,
        labelBefore: ['maintenance=true', 'fleetdeck.io/phase=draining'],
        labelAfter: ['patched=2026-11'],
        concurrent: true,
        notifyUrl: 'https://hooks.example.com/x',
        notifyFormat: 'json',
      }),
    );
    expect(flags).toEqual(guards);
  });

  it('says what is wrong with the new fields: the part of a list at fault named, a filter without its URL, a recheck under 1s', () => {
    expect(
      guardsOfForm(
        form({
          budgetSchedules: '0 at 0 9 * * 1-5 for 8h; 1 at 0 25 * * * for 1h',
          alertsUrl: 'http://prometheus:9090',
          alertIgnore: '(',
          alertMatch: '[',
          recheck: '500ms',
          prioritySoak: 'later',
          labelsBefore: 'maintenance=true, oops',
          labelsAfter: 'Bad Key=x',
        }),
      ),
    ).toEqual({
      errors: {
        budgetSchedules: '"1 at 0 25 * * * for 1h": invalid cron "0 25 * * *": Invalid value for hour: 25',
        alertIgnore: '"(" is not a regular expression: Invalid regular expression: /(/: Unterminated group',
        alertMatch: '"[" is not a regular expression: Invalid regular expression: /[/: Unterminated character class',
        recheck: 'must be at least 1s',
        prioritySoak: '"later" is not a duration (e.g. 90s, 15m, 1h30m)',
        labelsBefore: '"oops": give KEY=VALUE (e.g. maintenance=true)',
        labelsAfter: `"Bad Key" is not a label key (at most 63 letters, digits, '-', '_' or '.', starting and ending alphanumeric)`,
      },
    });
    // A schedule alone not of the form says the form; a filter, a pending hold, counting the selected nodes and JSON need another field
    expect(
      guardsOfForm(
        form({ budgetSchedules: 'tomorrow at 9', budgetOf: 'selected', alertMatch: 'x', alertPending: true, notifyFormat: 'json' }),
      ),
    ).toEqual({
      errors: {
        budgetSchedules: 'not of the form SIZE at CRON for DURATION [in ZONE]',
        alertMatch: 'needs an Alerts URL (above), or leave it empty',
        alertPending: 'needs an Alerts URL (above), or turn it off',
        notifyFormat: 'needs a Webhook URL (above), or keep slack',
      },
    });
    expect(guardsOfForm(form({ budgetOf: 'selected' }))).toEqual({
      errors: { budgetOf: 'needs a disruption budget or a schedule (above), or count the cluster' },
    });
  });

  it('a toggle or choice that needs another field keeps the page, the focus on it; changed, its error goes', () => {
    let s = focusOn(onOptions(), 'alertPending');
    s = newRolloutReducer(s, { type: 'optionToggle' });
    s = focusOn(s, 'notifyFormat');
    s = newRolloutReducer(s, { type: 'optionChange', delta: 1 });
    expect(s.guardForm).toMatchObject({ alertPending: true, notifyFormat: 'json' });
    s = newRolloutReducer(s, { type: 'options' });
    expect(s.page).toBe('options');
    expect(s.focus).toBe(rowOf('alertPending'));
    expect(s.guardErrors).toEqual({
      alertPending: 'needs an Alerts URL (above), or turn it off',
      notifyFormat: 'needs a Webhook URL (above), or keep slack',
    });
    // Space turns the pending hold off and takes its error away; with a webhook, the page is left
    s = newRolloutReducer(s, { type: 'optionToggle' });
    expect(s.guardForm.alertPending).toBe(false);
    expect(Object.keys(s.guardErrors)).toEqual(['notifyFormat']);
    s = newRolloutReducer(s, { type: 'options', field: 'webhook', text: 'https://hooks.example.com/x' });
    expect(s.page).toBe('plan');
    expect(specFrom(s, 'r1').guards).toEqual({
      ...NO_GUARDS,
      notify: { url: 'https://hooks.example.com/x', format: 'json', templates: {} },
    });
  });

  it('←/→ go through what the budget counts and the notification format both ways; space toggles concurrent', () => {
    let s = focusOn(onOptions(), 'budgetOf');
    s = newRolloutReducer(s, { type: 'optionChange', delta: -1 });
    expect(s.guardForm.budgetOf).toBe('selected');
    s = newRolloutReducer(s, { type: 'optionChange', delta: 1 });
    expect(s.guardForm.budgetOf).toBe('cluster');
    s = focusOn(s, 'notifyFormat');
    s = newRolloutReducer(s, { type: 'optionChange', delta: 1 });
    expect(s.guardForm.notifyFormat).toBe('json');
    s = newRolloutReducer(s, { type: 'optionChange', delta: -1 });
    expect(s.guardForm.notifyFormat).toBe('slack');
    s = focusOn(s, 'concurrent');
    s = newRolloutReducer(s, { type: 'optionToggle' });
    expect(s.guardForm.concurrent).toBe(true);
    // On a text field neither changes anything
    const typing = focusOn(s, 'labelsAfter');
    expect(newRolloutReducer(typing, { type: 'optionToggle' }).guardForm).toBe(typing.guardForm);
  });
});
