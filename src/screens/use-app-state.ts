import { useReducer } from 'react';
import { TABS } from './tabs.js';

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
  /** The filter line has the keyboard. */
  filtering: boolean;
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
  | { type: 'filterStart' }
  | { type: 'filterType'; text: string }
  | { type: 'filterBackspace' }
  | { type: 'filterDone' }
  | { type: 'filterClear' };

export const initialAppState: AppState = { tab: 0, help: false, selected: 0, filter: '', filtering: false };

const clamp = (i: number, count: number) => Math.max(0, Math.min(i, count - 1));

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
      return { ...state, detail: action.name };
    case 'back': {
      const { detail: _closed, ...rest } = state;
      return rest;
    }
    case 'filterStart':
      return { ...state, filtering: true };
    case 'filterType':
      return { ...state, filter: state.filter + action.text, selected: 0 };
    case 'filterBackspace':
      return { ...state, filter: [...state.filter].slice(0, -1).join(''), selected: 0 };
    case 'filterDone':
      return { ...state, filtering: false };
    case 'filterClear':
      return { ...state, filter: '', filtering: false, selected: 0 };
  }
}

export function useAppState(initial: AppState = initialAppState) {
  return useReducer(appReducer, initial);
}
