import { describe, expect, it } from 'vitest';
import { phaseLine, podsFooter } from '../../../../src/screens/status/detail/pod-rows.js';
import { pods, problem } from '../../../helpers/screens/fleets.js';

describe('pods', () => {
  it('counts by phase, leaving out empty phases', () => {
    expect(phaseLine(pods({ total: 12, byPhase: { Running: 9, Pending: 2, Failed: 0, Succeeded: 1, Unknown: 0 } }))).toBe(
      '12 pods: 9 Running · 2 Pending · 1 Succeeded',
    );
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
