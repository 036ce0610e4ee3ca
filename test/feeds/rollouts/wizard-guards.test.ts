import { describe, expect, it } from 'vitest';
import { guardsOfForm } from '../../../src/feeds/rollouts/wizard-guards.js';
import { initialNewRolloutState, newRolloutReducer } from '../../../src/feeds/rollouts/wizard-model.js';
import { specFrom } from '../../../src/feeds/rollouts/wizard-spec.js';
import { NO_GUARDS } from '../../../src/rollout/guards/types.js';
import { EMPTY_GUARD_FORM, FIRST_GUARD_ROW, type GuardForm, type NewRolloutState } from '../../../src/store/rollout-wizard.js';

const form = (over: Partial<GuardForm>): GuardForm => ({ ...EMPTY_GUARD_FORM, ...over });

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
        alertsUrl: 'alerts: url must be http or https, not prometheus',
        blockingPods: expect.stringMatching(/selector/) as unknown as string,
        soak: '"ten minutes" is not a duration (e.g. 90s, 15m, 1h30m)',
        nodeDeadline: 'give a duration longer than 0, or leave it empty',
        webhook: 'notify: url must be http or https, not ftp',
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
    let s = onOptions();
    s = newRolloutReducer(s, { type: 'focus', delta: 6 });
    s = newRolloutReducer(s, { type: 'optionChange', delta: 1 });
    expect(s.guardForm.alertsApi).toBe('alertmanager');
    s = newRolloutReducer(s, { type: 'focus', delta: 6 });
    s = newRolloutReducer(s, { type: 'optionChange', delta: -1 });
    expect(s.guardForm.onDrainTimeout).toBe('force');
    s = newRolloutReducer(s, { type: 'focus', delta: 1 });
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
});
