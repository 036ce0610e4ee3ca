import { describe, expect, it } from 'vitest';
import { contextRow } from '../../src/screens/status/context-row.js';
import { recentWarnings } from '../../src/screens/status/detail/event-rows.js';
import { phaseLine, podsFooter } from '../../src/screens/status/detail/pod-rows.js';
import { ago } from '../../src/screens/status/detail/relative-time.js';
import { contextRoles, roleDescription, roleLabel } from '../../src/screens/status/fleet/fleet-roles.js';
import { fleetProblems, fleetSummary } from '../../src/screens/status/fleet/fleet-summary.js';
import { emptyContext } from '../../src/store/fleet-store.js';
import { AT_10_42_07, info, NOVA_FLEET, pods, problem, warning } from '../helpers/screen.js';

describe('ago', () => {
  it('says how long ago in the largest whole unit', () => {
    const now = 1_000_000_000;
    expect(ago(now - 45_000, now)).toBe('45s');
    expect(ago(now - 150_000, now)).toBe('2m');
    expect(ago(now - 3 * 3_600_000 - 1, now)).toBe('3h');
    expect(ago(now - 50 * 3_600_000, now)).toBe('2d');
    expect(ago(now + 5_000, now)).toBe('0s');
  });
});

describe('recentWarnings', () => {
  it('keeps one row per reason and object, the newest message, the counts added up, newest first', () => {
    // Given the same warning twice and two others
    const rows = recentWarnings([
      warning('BackOff', 'Pod a/x', 10, { count: 2, message: 'older' }),
      warning('Unhealthy', 'Pod a/y', 5),
      warning('BackOff', 'Pod a/x', 1, { count: 3, message: 'newer' }),
      warning('BackOff', 'Pod a/z', 20),
    ]);
    // Then
    expect(rows.map((r) => `${r.reason} ${r.object} ${r.count} ${r.message}`)).toEqual([
      'BackOff Pod a/x 5 newer',
      'Unhealthy Pod a/y 1 Unhealthy on Pod a/y',
      'BackOff Pod a/z 1 BackOff on Pod a/z',
    ]);
  });

  it('lists at most 20', () => {
    expect(recentWarnings(Array.from({ length: 30 }, (_, i) => warning('R', `Pod a/${i}`, i)))).toHaveLength(20);
  });
});

describe('pods', () => {
  it('counts by phase, leaving out empty phases', () => {
    expect(phaseLine(pods({ total: 12, byPhase: { Running: 9, Pending: 2, Failed: 0, Succeeded: 1, Unknown: 0 } }))).toBe('12 pods: 9 Running · 2 Pending · 1 Succeeded');
    expect(phaseLine(pods())).toBe('no pods');
  });

  it('says how many are shown of how many need attention, and how many match a filter', () => {
    const summary = pods({ total: 100, problemCount: 37, problems: [problem('a', 'Error'), problem('b', 'Error')] });
    const view = { start: 0, end: 2, total: 2, overflow: false };
    expect(podsFooter(summary, 2, '', view)).toBe('showing 2 of 37 needing attention');
    expect(podsFooter(summary, 1, 'a', view)).toBe('1 of 2 listed match · 37 need attention in all');
    expect(podsFooter(summary, 2, '', { ...view, overflow: true, end: 1 })).toBe('showing 2 of 37 needing attention · rows 1–1');
  });
});

describe('fleet roles', () => {
  it('names each context’s role in the fleet', () => {
    expect(contextRoles(NOVA_FLEET, 'kind-cp')).toEqual(['hosting']);
    expect(roleLabel(contextRoles(NOVA_FLEET, 'nova'))).toBe('control');
    expect(roleLabel(contextRoles(NOVA_FLEET, 'kind-workload-1'))).toBe('workload');
    expect(roleLabel(contextRoles(NOVA_FLEET, 'elsewhere'))).toBe('-');
    expect(roleLabel(contextRoles({ ...NOVA_FLEET, hostingContext: 'kind-workload-1' }, 'kind-workload-1'))).toBe('hosting+workload');
    expect(contextRoles(undefined, 'kind-cp')).toEqual([]);
    expect(roleDescription({ ...NOVA_FLEET, workloads: [{ context: 'prod', clusterName: 'eu-1' }] }, 'prod')).toBe('workload (cluster eu-1), namespace elotl');
  });
});

describe('contextRow', () => {
  it('keeps STATUS short and puts since when and why under the row; pods, warnings and denied lists', () => {
    // Given an unreachable context whose pods and events are forbidden
    const ctx = {
      ...emptyContext(info('prod')),
      reachability: 'unreachable' as const,
      unreachableSince: AT_10_42_07,
      lastError: 'i/o timeout',
      pods: { ...pods(), synced: false, forbidden: 'cannot list pods' },
      events: { synced: true, warnings: [warning('BackOff', 'Pod a/b', 1)] },
    };
    // Then
    const row = contextRow(ctx, NOVA_FLEET);
    expect(row).toMatchObject({ status: 'unreachable', reason: 'since 10:42:07: i/o timeout', role: '-', warn: '1', warnTone: 'warn' });
    expect(row.pods).toEqual([{ text: 'denied', color: 'warn' }]);
    expect(contextRow({ ...ctx, pods: pods({ total: 142, problemCount: 3 }) }, undefined).pods).toEqual([{ text: '142' }, { text: ', 3 bad', color: 'warn' }]);
  });
});

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
    expect(fleetSummary([{ id: 'a', label: 'A', state: 'ok' }, { id: 'b', label: 'B', state: 'pending' }])).toEqual({ state: 'running', text: 'checking… (1 of 2 done)' });
    expect(fleetSummary([{ id: 'a', label: 'A', state: 'ok' }])).toEqual({ state: 'ok', text: 'healthy (1 check)' });
    expect(fleetSummary([])).toEqual({ state: 'info', text: 'no checks yet' });
  });
});
