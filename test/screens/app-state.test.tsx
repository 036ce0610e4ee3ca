import { describe, expect, it } from 'vitest';
import { appReducer, initialAppState } from '../../src/screens/use-app-state.js';
import { filterNames } from '../../src/screens/use-fleet-view.js';

describe('appReducer', () => {
  it('keeps the selection within the rows', () => {
    let s = appReducer(initialAppState, { type: 'move', delta: -1, count: 3 });
    expect(s.selected).toBe(0);
    s = appReducer(s, { type: 'move', delta: 10, count: 3 });
    expect(s.selected).toBe(2);
    s = appReducer(s, { type: 'move', delta: -1, count: 1 });
    expect(s.selected).toBe(0);
  });

  it('cycles tabs both ways and closes the help', () => {
    let s = appReducer({ ...initialAppState, help: true }, { type: 'cycleTab', delta: -1 });
    expect(s).toMatchObject({ tab: 3, help: false });
    s = appReducer(s, { type: 'cycleTab', delta: 1 });
    expect(s.tab).toBe(0);
    expect(appReducer(s, { type: 'tab', tab: 7 })).toBe(s);
  });

  it('resets the selection when the filter changes', () => {
    let s = appReducer({ ...initialAppState, selected: 2 }, { type: 'filterStart' });
    s = appReducer(s, { type: 'filterType', text: 'ab' });
    expect(s).toMatchObject({ filter: 'ab', filtering: true, selected: 0 });
    s = appReducer(s, { type: 'filterBackspace' });
    expect(s.filter).toBe('a');
    s = appReducer(s, { type: 'filterClear' });
    expect(s).toMatchObject({ filter: '', filtering: false });
  });
});

describe('filterNames', () => {
  it('matches a substring, ignoring case', () => {
    expect(filterNames(['kind-CP', 'kind-workload-1', 'prod-eu'], 'Kind')).toEqual(['kind-CP', 'kind-workload-1']);
    expect(filterNames(['a', 'b'], '  ')).toEqual(['a', 'b']);
  });
});
