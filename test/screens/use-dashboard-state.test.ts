import { describe, expect, it } from 'vitest';
import { dashboardReducer, initialDashboard } from '../../src/screens/use-dashboard-state.js';

describe('the dashboard’s navigation', () => {
  it('cycles tabs both ways and closes the help', () => {
    let s = dashboardReducer({ ...initialDashboard, help: [] }, { type: 'cycle', delta: -1, count: 4 });
    expect(s).toMatchObject({ tab: 3 });
    expect(s.help).toBeUndefined();
    s = dashboardReducer(s, { type: 'cycle', delta: 1, count: 4 });
    expect(s.tab).toBe(0);
    expect(dashboardReducer(s, { type: 'tab', tab: 7, count: 4 })).toBe(s);
  });

  it('keeps every tab visited, in the order first visited', () => {
    let s = dashboardReducer(initialDashboard, { type: 'tab', tab: 2, count: 4 });
    s = dashboardReducer(s, { type: 'tab', tab: 0, count: 4 });
    s = dashboardReducer(s, { type: 'tab', tab: 2, count: 4 });
    expect(s.visited).toEqual([0, 2]);
  });
});
