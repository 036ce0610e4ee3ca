import { Activity, type Dispatch } from 'react';
import type { Actions } from '../store/actions.js';
import type { FleetStore } from '../store/fleet-store.js';
import { HelpView } from './help-view.js';
import type { ScreenOverlay, ScreenTab } from './tab.js';
import type { DashboardAction, DashboardState } from './use-dashboard-state.js';

export interface DashboardBodyProps {
  store: FleetStore;
  actions: Actions;
  tabs: readonly ScreenTab[];
  /** The overlay open now (the log view), if any. */
  overlay: ScreenOverlay | undefined;
  state: DashboardState;
  dispatch: Dispatch<DashboardAction>;
  width: number;
  height: number;
}

/**
 * What is between the bars: the help over everything, else the overlay open over the tab, else
 * the tab. Every tab visited stays mounted, hidden (an Activity: its state kept, its keys and
 * timers paused): coming back finds it as it was left; so does closing the help or the overlay.
 */
export function DashboardBody({ store, actions, tabs, overlay, state, dispatch, width, height }: DashboardBodyProps) {
  const front = !state.help && !overlay;
  return (
    <>
      {state.help ? (
        <HelpView
          sections={state.help}
          screens={tabs.length}
          width={width}
          height={height}
          onClose={() => dispatch({ type: 'help', sections: undefined })}
        />
      ) : null}
      {overlay ? (
        <Activity mode={state.help ? 'hidden' : 'visible'}>
          <overlay.View store={store} actions={actions} width={width} height={height} active={!state.help} />
        </Activity>
      ) : null}
      {state.visited.map((i) => {
        const tab = tabs[i];
        if (!tab) return null;
        const shown = i === state.tab && front;
        return (
          <Activity key={tab.id} mode={shown ? 'visible' : 'hidden'}>
            <tab.Screen store={store} actions={actions} width={width} height={height} active={shown} />
          </Activity>
        );
      })}
    </>
  );
}
