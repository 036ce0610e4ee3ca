import { describe, expect, it } from 'vitest';
import { defaultClusterName, initialWizardState, type WizardState, wizardReducer } from '../../../src/screens/install/use-wizard-state.js';

describe('wizardReducer', () => {
  it('derives valid cluster names from context names', () => {
    expect(defaultClusterName('kind-workload-1')).toBe('kind-workload-1');
    expect(defaultClusterName('arn:aws:eks:eu-west-1:1234:cluster/Prod_EU')).toBe('prod-eu');
    expect(defaultClusterName('___')).toBe('cluster');
  });

  it('skips the topology page without HA and the names page without workloads', () => {
    let s = initialWizardState();
    s = wizardReducer(s, { type: 'hosting', context: 'a' });
    s = wizardReducer(s, { type: 'namespace', value: 'elotl' });
    s = wizardReducer(s, { type: 'workloads', contexts: [] });
    expect(s.page).toBe('ha');
    s = wizardReducer(s, { type: 'ha', ha: false });
    expect(s.page).toBe('validity');
    expect(wizardReducer(s, { type: 'back' }).page).toBe('ha');
    expect(wizardReducer(s, { type: 'validity', value: '0' }).error).toMatch(/whole number/);
  });

  it('refuses two workloads with the same cluster name', () => {
    let s = initialWizardState({ hosting: 'a' });
    s = { ...s, page: 'workloads' };
    s = wizardReducer(s, { type: 'workloads', contexts: ['b', 'c'] });
    s = wizardReducer(s, { type: 'clusterName', value: 'same' });
    s = wizardReducer(s, { type: 'clusterName', value: 'same' });
    expect(s.error).toMatch(/already the name/);
    expect(s.page).toBe('names');
  });

  it('asks for the checks when the validity is entered, on r and on n (without HA); not when coming back from the plan', () => {
    let s: WizardState = { ...initialWizardState({ hosting: 'a' }), page: 'validity' };
    s = wizardReducer(s, { type: 'validity', value: '5' });
    expect([s.page, s.checksAsked]).toEqual(['checks', 1]);
    s = wizardReducer(s, { type: 'rerunChecks' });
    s = wizardReducer(s, { type: 'withoutHA' });
    expect([s.page, s.checksAsked, s.choices.ha]).toEqual(['checks', 3, false]);
    s = wizardReducer(s, { type: 'confirmChecks' });
    expect(s.page).toBe('plan');
    s = wizardReducer(s, { type: 'back' });
    expect([s.page, s.checksAsked]).toEqual(['checks', 3]);
  });
});
