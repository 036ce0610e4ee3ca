import { type Dispatch, useMemo, useRef } from 'react';
import { helpOf, type KeyBar, type KeyTable } from '../components/key-actions/index.js';
import type { Actions } from '../store/actions.js';
import type { AppCommands, WithApp } from './keys/app-commands.js';
import type { ScreenTab } from './tab.js';
import type { DashboardAction, DashboardState } from './use-dashboard-state.js';

export interface DashboardCommandsOptions {
  state: DashboardState;
  dispatch: Dispatch<DashboardAction>;
  tabs: readonly ScreenTab[];
  actions: Actions;
  bar: KeyBar;
  global: KeyTable<WithApp>;
  onQuit: () => void;
}

/**
 * The dashboard's commands every view's keys reach it through: quit, the help of the view on
 * top, the next or previous screen, screen n (telling its feeds it is shown). Stable, whatever
 * renders: they read the dashboard as it is when called.
 */
export function useDashboardCommands(o: DashboardCommandsOptions): AppCommands {
  const live = useRef(o);
  live.current = o;
  const { bar, dispatch } = o;
  return useMemo<AppCommands>(() => {
    const show = (tab: number) => {
      const { tabs, actions } = live.current;
      if (tab < 0 || tab >= tabs.length) return;
      dispatch({ type: 'tab', tab, count: tabs.length });
      tabs[tab]?.shown?.(actions);
    };
    return {
      quit: () => live.current.onQuit(),
      toggleHelp: () => {
        const { state, global } = live.current;
        const top = bar.top();
        // A view that takes every key lists the shared ones it keeps in its own group.
        const everywhere = top?.owns ? [] : [helpOf(global, true)];
        dispatch({ type: 'help', sections: state.help ? undefined : [...everywhere, ...(top?.help ?? [])] });
      },
      cycleTab: (delta) => {
        const { state, tabs } = live.current;
        show((state.tab + delta + tabs.length) % tabs.length);
      },
      goTab: show,
    };
  }, [bar, dispatch]);
}
