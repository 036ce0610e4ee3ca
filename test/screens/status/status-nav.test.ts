import { describe, expect, it } from 'vitest';
import { initialStatusNav, statusReducer } from '../../../src/screens/status/status-nav.js';
import { filterNames } from '../../../src/screens/status/status-tab.js';

describe('the Status tab’s navigation', () => {
  it('keeps the selection within the rows', () => {
    let s = statusReducer(initialStatusNav, { type: 'move', delta: -1, count: 3 });
    expect(s.selected).toBe(0);
    s = statusReducer(s, { type: 'move', delta: 10, count: 3 });
    expect(s.selected).toBe(2);
    s = statusReducer(s, { type: 'move', delta: -1, count: 1 });
    expect(s.selected).toBe(0);
  });

  it('resets the selection when the filter changes', () => {
    let s = statusReducer({ ...initialStatusNav, selected: 2 }, { type: 'filterStart' });
    s = statusReducer(s, { type: 'filterType', text: 'ab' });
    expect(s).toMatchObject({ filter: 'ab', filtering: true, selected: 0 });
    s = statusReducer(s, { type: 'filterBackspace' });
    expect(s.filter).toBe('a');
    s = statusReducer(s, { type: 'filterClear' });
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
  const open = statusReducer(initialStatusNav, { type: 'open', name: 'kind-cp' });

  it('opens on the section seen last, with no row filter or expanded row', () => {
    // Given the pods of one context, filtered, a row expanded
    let s = statusReducer(open, { type: 'section', section: 'pods' });
    s = statusReducer(s, { type: 'filterStart' });
    s = statusReducer(s, { type: 'filterType', text: 'etcd' });
    s = statusReducer(s, { type: 'filterDone' });
    s = statusReducer(s, { type: 'toggleExpanded' });
    expect(s).toMatchObject({ section: 'pods', sectionFilter: 'etcd', expanded: true, filter: '' });

    // When it is closed and another opened
    s = statusReducer(statusReducer(s, { type: 'back' }), { type: 'open', name: 'nova' });

    // Then the section is kept, the rest reset
    expect(s).toMatchObject({ detail: 'nova', section: 'pods', sectionFilter: '', expanded: false, filtering: false });
  });

  it('the filter keys edit the section filter while a context is open, and leave the name filter alone', () => {
    let s = statusReducer({ ...open, filter: 'kind' }, { type: 'filterType', text: 'ab' });
    s = statusReducer(s, { type: 'filterBackspace' });
    expect(s).toMatchObject({ filter: 'kind', sectionFilter: 'a' });
    s = statusReducer(s, { type: 'filterClear' });
    expect(s).toMatchObject({ filter: 'kind', sectionFilter: '', filtering: false });
  });

  it('another section drops the row filter and the expanded row; the same section changes nothing', () => {
    const s = { ...open, section: 'events' as const, sectionFilter: 'x', expanded: true };
    expect(statusReducer(s, { type: 'section', section: 'events' })).toBe(s);
    expect(statusReducer(s, { type: 'section', section: 'nodes' })).toMatchObject({ section: 'nodes', sectionFilter: '', expanded: false });
  });

  it('switches between the contexts table and the fleet checklist', () => {
    const s = statusReducer(initialStatusNav, { type: 'view', view: 'fleet' });
    expect(s.view).toBe('fleet');
    expect(statusReducer(s, { type: 'view', view: 'contexts' }).view).toBe('contexts');
  });
});
