import { useReducer } from 'react';
import { TABS } from './tabs.js';

/** What the Status screen shows when no context is open: the contexts table or the fleet checklist. */
export type StatusView = 'contexts' | 'fleet';

/** The parts of an open context, in the order ←/→ walk through them. */
export const DETAIL_SECTIONS = ['info', 'nodes', 'pods', 'events'] as const;
export type DetailSection = (typeof DETAIL_SECTIONS)[number];

/** Sections listing rows that can be filtered and expanded (Info is a page of fields). */
export function isRowSection(section: DetailSection): boolean {
  return section !== 'info';
}

/** What the operator is looking at. Data comes from the store; this is only navigation. */
export interface AppState {
  /** Index into TABS. */
  tab: number;
  help: boolean;
  /** Selected row of the status table (index into the filtered list). */
  selected: number;
  /** Context whose detail is open. */
  detail?: string;
  /** Name filter; empty for none. */
  filter: string;
  /** The filter line has the keyboard (the section filter while a detail is open). */
  filtering: boolean;
  view: StatusView;
  /** Section of the open context; kept when another context is opened, so one can compare. */
  section: DetailSection;
  /** Substring filter of the rows of the open section; empty for none. */
  sectionFilter: string;
  /** The selected row of the section is shown in full under the table. */
  expanded: boolean;
}

export type AppAction =
  | { type: 'tab'; tab: number }
  | { type: 'cycleTab'; delta: 1 | -1 }
  | { type: 'toggleHelp' }
  | { type: 'closeHelp' }
  /** Move the selection; `count` is the number of rows, so it stays in range. */
  | { type: 'move'; delta: number; count: number }
  | { type: 'moveTo'; index: number; count: number }
  | { type: 'open'; name: string }
  | { type: 'back' }
  | { type: 'view'; view: StatusView }
  | { type: 'section'; section: DetailSection }
  | { type: 'toggleExpanded' }
  | { type: 'filterStart' }
  | { type: 'filterType'; text: string }
  | { type: 'filterBackspace' }
  | { type: 'filterDone' }
  | { type: 'filterClear' };

export const initialAppState: AppState = {
  tab: 0,
  help: false,
  selected: 0,
  filter: '',
  filtering: false,
  view: 'contexts',
  section: 'info',
  sectionFilter: '',
  expanded: false,
};

const clamp = (i: number, count: number) => Math.max(0, Math.min(i, count - 1));

/** The filter the keys edit: the section's while a context is open, else the context names'. */
function editFilter(state: AppState, edit: (f: string) => string): AppState {
  if (state.detail !== undefined) return { ...state, sectionFilter: edit(state.sectionFilter), expanded: false };
  return { ...state, filter: edit(state.filter), selected: 0 };
}

export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'tab':
      return action.tab >= 0 && action.tab < TABS.length ? { ...state, tab: action.tab, help: false } : state;
    case 'cycleTab':
      return { ...state, tab: (state.tab + action.delta + TABS.length) % TABS.length, help: false };
    case 'toggleHelp':
      return { ...state, help: !state.help };
    case 'closeHelp':
      return { ...state, help: false };
    case 'move':
      return { ...state, selected: clamp(clamp(state.selected, action.count) + action.delta, action.count) };
    case 'moveTo':
      return { ...state, selected: clamp(action.index, action.count) };
    case 'open':
      return { ...state, detail: action.name, sectionFilter: '', expanded: false, filtering: false };
    case 'back': {
      const { detail: _closed, ...rest } = state;
      return { ...rest, sectionFilter: '', expanded: false, filtering: false };
    }
    case 'view':
      return { ...state, view: action.view };
    case 'section':
      return action.section === state.section
        ? state
        : { ...state, section: action.section, sectionFilter: '', expanded: false, filtering: false };
    case 'toggleExpanded':
      return { ...state, expanded: !state.expanded };
    case 'filterStart':
      return { ...state, filtering: true };
    case 'filterType':
      return editFilter(state, (f) => f + action.text);
    case 'filterBackspace':
      return editFilter(state, (f) => [...f].slice(0, -1).join(''));
    case 'filterDone':
      return { ...state, filtering: false };
    case 'filterClear':
      return { ...editFilter(state, () => ''), filtering: false };
  }
}

export function useAppState(initial: AppState = initialAppState) {
  return useReducer(appReducer, initial);
}
