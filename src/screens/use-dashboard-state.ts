import { useReducer } from 'react';
import type { HelpSection } from '../components/help-overlay/index.js';

/** Where the dashboard is: the tab in front, the tabs visited (kept as they were), the help open with its groups. */
export interface DashboardState {
  tab: number;
  visited: readonly number[];
  help?: readonly HelpSection[];
}

export type DashboardAction =
  | { type: 'tab'; tab: number; count: number }
  | { type: 'cycle'; delta: 1 | -1; count: number }
  | { type: 'help'; sections: readonly HelpSection[] | undefined };

export const initialDashboard: DashboardState = { tab: 0, visited: [0] };

function onTab(s: DashboardState, tab: number): DashboardState {
  const { help: _closed, ...rest } = s;
  return { ...rest, tab, visited: s.visited.includes(tab) ? s.visited : [...s.visited, tab] };
}

export function dashboardReducer(s: DashboardState, a: DashboardAction): DashboardState {
  switch (a.type) {
    case 'tab':
      return a.tab >= 0 && a.tab < a.count ? onTab(s, a.tab) : s;
    case 'cycle':
      return onTab(s, (s.tab + a.delta + a.count) % a.count);
    case 'help': {
      if (a.sections) return { ...s, help: a.sections };
      const { help: _closed, ...rest } = s;
      return rest;
    }
  }
}

export function useDashboardState() {
  return useReducer(dashboardReducer, initialDashboard);
}
