import { describe, expect, it } from 'vitest';
import { fleetProblems, fleetSummary, fleetTitle } from '../../../../src/screens/status/fleet/fleet-summary.js';

describe('fleetSummary', () => {
  it('counts failures and warnings at any depth, says healthy when all pass, checking while some run', () => {
    const fail = [
      { id: 't', label: 'Title', state: 'info' as const },
      { id: 'a', label: 'A', state: 'ok' as const, children: [{ id: 'a1', label: 'A1', state: 'fail' as const, hint: 'fix it' }] },
      { id: 'b', label: 'B', state: 'warn' as const },
      { id: 'c', label: 'C', state: 'warn' as const },
    ];
    expect(fleetSummary(fail)).toEqual({ state: 'fail', text: '1 failed · 2 warnings' });
    expect(fleetProblems(fail).map((i) => `${i.label}:${i.hint ?? ''}`)).toEqual(['A1:fix it', 'B:', 'C:']);
    expect(
      fleetSummary([
        { id: 'a', label: 'A', state: 'ok' },
        { id: 'b', label: 'B', state: 'pending' },
      ]),
    ).toEqual({ state: 'running', text: 'checking… (1 of 2 done)' });
    expect(fleetSummary([{ id: 'a', label: 'A', state: 'ok' }])).toEqual({ state: 'ok', text: 'healthy (1 check)' });
    expect(fleetSummary([])).toEqual({ state: 'info', text: 'no checks yet' });
  });
});

describe('fleetTitle', () => {
  it('names the fleet when the fleet file records several by name', () => {
    const fleet = { hostingContext: 'kind-cp', controlPlaneContext: 'nova', namespace: 'elotl', workloads: [] };
    expect(fleetTitle(fleet)).toBe('Fleet elotl on kind-cp');
    expect(fleetTitle({ ...fleet, name: 'staging' })).toBe('Fleet staging: elotl on kind-cp');
  });
});
