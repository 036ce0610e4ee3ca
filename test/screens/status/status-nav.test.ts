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

describe('appReducer inside a context', () => {
  const open = appReducer(initialAppState, { type: 'open', name: 'kind-cp' });

  it('opens on the section seen last, with no row filter or expanded row', () => {
    // Given the pods of one context, filtered, a row expanded
    let s = appReducer(open, { type: 'section', section: 'pods' });
    s = appReducer(s, { type: 'filterStart' });
    s = appReducer(s, { type: 'filterType', text: 'etcd' });
    s = appReducer(s, { type: 'filterDone' });
    s = appReducer(s, { type: 'toggleExpanded' });
    expect(s).toMatchObject({ section: 'pods', sectionFilter: 'etcd', expanded: true, filter: '' });

    // When it is closed and another opened
    s = appReducer(appReducer(s, { type: 'back' }), { type: 'open', name: 'nova' });

    // Then the section is kept, the rest reset
    expect(s).toMatchObject({ detail: 'nova', section: 'pods', sectionFilter: '', expanded: false, filtering: false });
  });

  it('the filter keys edit the section filter while a context is open, and leave the name filter alone', () => {
    let s = appReducer({ ...open, filter: 'kind' }, { type: 'filterType', text: 'ab' });
    s = appReducer(s, { type: 'filterBackspace' });
    expect(s).toMatchObject({ filter: 'kind', sectionFilter: 'a' });
    s = appReducer(s, { type: 'filterClear' });
    expect(s).toMatchObject({ filter: 'kind', sectionFilter: '', filtering: false });
  });

  it('another section drops the row filter and the expanded row; the same section changes nothing', () => {
    const s = { ...open, section: 'events' as const, sectionFilter: 'x', expanded: true };
    expect(appReducer(s, { type: 'section', section: 'events' })).toBe(s);
    expect(appReducer(s, { type: 'section', section: 'nodes' })).toMatchObject({ section: 'nodes', sectionFilter: '', expanded: false });
  });

  it('switches between the contexts table and the fleet checklist', () => {
    const s = appReducer(initialAppState, { type: 'view', view: 'fleet' });
    expect(s.view).toBe('fleet');
    expect(appReducer(s, { type: 'view', view: 'contexts' }).view).toBe('contexts');
  });
});
