import { Box } from 'ink';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { Banner, bannerLines } from '../components/banner/index.js';
import { ContextBar } from '../components/context-bar/index.js';
import { GateProvider, type GateView, KeyBarProvider, useKeyActions, useKeyBar } from '../components/key-actions/index.js';
import { KeyHints } from '../components/key-hints/index.js';
import { TabBar } from '../components/tab-bar/index.js';
import { colorAllowed, toAsciiIf, UiProvider } from '../components/theme/index.js';
import type { Actions } from '../store/actions.js';
import type { FleetStore } from '../store/fleet-store.js';
import { DashboardBody } from './dashboard-body.js';
import { AppCommandsProvider } from './keys/app-commands.js';
import { globalKeys } from './keys/global.js';
import { SizeGate } from './size-gate.js';
import type { ScreenOverlay, ScreenTab } from './tab.js';
import { useDashboardCommands } from './use-dashboard-commands.js';
import { useDashboardState } from './use-dashboard-state.js';

export interface UiOptions {
  ascii: boolean;
  color: boolean;
}

export interface AppProps {
  /** The dashboard's one store: the screens select from it. */
  store: FleetStore;
  /** The tabs, in order (src/dashboard/registry.ts): key n shows tab n. */
  tabs: readonly ScreenTab[];
  /** Views over any tab (the log view). */
  overlays?: readonly ScreenOverlay[];
  ui: UiOptions;
  /** The session's write gate: read-only or not, and its refusals (keys marked dangerous get them). */
  gate: GateView;
  kubeconfigFiles: string[];
  /** What the screens can ask for (the feeds holder); a group absent is not offered. */
  actions?: Actions;
  onQuit: () => void;
}

/** Lines around the screen body: tab bar, context bar, the gap under them, key hints. */
const CHROME_LINES = 4;

/** The dashboard: tabs on top, the screen, a banner, key hints at the bottom; never taller than the terminal. */
export function App(props: AppProps) {
  const color = colorAllowed(props.ui.color);
  return (
    <UiProvider value={{ ascii: props.ui.ascii, color }}>
      <GateProvider gate={props.gate}>
        <SizeGate onQuit={props.onQuit}>{(columns, rows) => <Dashboard {...props} columns={columns} rows={rows} />}</SizeGate>
      </GateProvider>
    </UiProvider>
  );
}

const NO_ACTIONS: Actions = {};

function Dashboard(props: AppProps & { columns: number; rows: number }) {
  const { store, tabs, overlays = [], ui, gate, kubeconfigFiles, actions = NO_ACTIONS, onQuit, columns, rows } = props;
  const [state, dispatch] = useDashboardState();
  const { bar, top } = useKeyBar();
  const overlay = useStore(store, (s) => overlays.find((o) => o.open(s)));
  const global = useMemo(() => globalKeys(tabs.length), [tabs.length]);

  const commands = useDashboardCommands({ state, dispatch, tabs, actions, bar, global, onQuit });
  // The app's own keys, under the view in front (unless it takes them all).
  const own = useKeyActions(global, () => ({ app: commands }), { active: !state.help, under: bar });

  const view = useStore(
    store,
    useShallow((s) => ({
      total: s.status.order.length,
      reachable: s.status.order.filter((n) => s.status.contexts[n]?.reachability === 'reachable').length,
    })),
  );
  const banner = useStore(store, (s) => s.banner);
  const files = useStore(store, (s) => s.kubeconfigFiles) ?? kubeconfigFiles;
  const notice = top?.notice;
  const bottom = notice ? { kind: 'error' as const, text: notice } : banner;

  // One column spare: some terminals wrap a line that fills the last column.
  const width = Math.max(20, columns - 1);
  const bannerHeight = bottom ? bannerLines(toAsciiIf(ui.ascii, bottom.text), width).length : 0;
  // One row spare: a frame as tall as the terminal scrolls it.
  const height = Math.max(3, rows - 1 - CHROME_LINES - bannerHeight);

  return (
    <AppCommandsProvider value={commands}>
      <KeyBarProvider bar={bar}>
        <Box flexDirection="column" width={width}>
          <TabBar tabs={tabs.map((t) => t.title)} active={state.tab} width={width} />
          <ContextBar total={view.total} reachable={view.reachable} kubeconfigFiles={files} readOnly={gate.readOnly} width={width} />
          <Box flexDirection="column" marginTop={1} height={height} overflow="hidden">
            {/* A screen taller than its lines is cut at the bottom, never squeezed (squeezed rows overlap). */}
            <Box flexDirection="column" flexShrink={0}>
              <DashboardBody
                store={store}
                actions={actions}
                tabs={tabs}
                overlay={overlay}
                state={state}
                dispatch={dispatch}
                width={width}
                height={height}
              />
            </Box>
          </Box>
          {bottom ? <Banner kind={bottom.kind} text={bottom.text} width={width} /> : null}
          <KeyHints hints={top?.hints ?? own.hints} width={width} />
        </Box>
      </KeyBarProvider>
    </AppCommandsProvider>
  );
}
