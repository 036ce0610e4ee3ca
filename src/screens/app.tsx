import { Box, useWindowSize } from 'ink';
import { useStore } from 'zustand';
import { Banner, bannerLines } from '../components/banner/index.js';
import { ContextBar } from '../components/context-bar/index.js';
import { HelpOverlay } from '../components/help-overlay/index.js';
import { KeyHints } from '../components/key-hints/index.js';
import { TabBar } from '../components/tab-bar/index.js';
import { colorAllowed, toAsciiIf, UiProvider } from '../components/theme/index.js';
import type { FleetStore } from '../store/fleet-store.js';
import { HELP_SECTIONS, keyHints, type HintMode } from './keymap.js';
import { PlaceholderScreen } from './placeholder.js';
import { StatusScreen } from './status.js';
import { TAB_TITLES, TABS } from './tabs.js';
import { useAppKeys } from './use-app-keys.js';
import { isRowSection, useAppState, type AppState } from './use-app-state.js';
import { useFleetView } from './use-fleet-view.js';

export interface UiOptions {
  readOnly: boolean;
  ascii: boolean;
  color: boolean;
}

export interface AppProps {
  store: FleetStore;
  ui: UiOptions;
  kubeconfigFiles: string[];
  /** Present when fleetdeck can start the built-in sandbox fleet; called when the user asks (key `s` on the empty screen). */
  onStartSandbox?: () => void;
  onQuit: () => void;
}

/** Lines around the screen body: tab bar, context bar, the gap under them, key hints. */
const CHROME_LINES = 4;

function hintMode(state: AppState, empty: boolean, canStart: boolean): HintMode {
  if (state.help) return 'help';
  if (TABS[state.tab]?.id !== 'status') return 'placeholder';
  if (empty) return canStart ? 'emptySandbox' : 'empty';
  if (state.filtering) return 'filtering';
  if (state.detail !== undefined) return !isRowSection(state.section) ? 'detail' : state.expanded ? 'expanded' : 'detailRows';
  return state.view === 'fleet' ? 'fleet' : 'list';
}

/** The dashboard: tabs on top, the screen, a banner, key hints at the bottom; never taller than the terminal. */
export function App(props: AppProps) {
  const color = colorAllowed(props.ui.color);
  return (
    <UiProvider value={{ ascii: props.ui.ascii, color }}>
      <Dashboard {...props} />
    </UiProvider>
  );
}

function Dashboard({ store, ui, kubeconfigFiles, onStartSandbox, onQuit }: AppProps) {
  const { columns, rows } = useWindowSize();
  const [state, dispatch] = useAppState();
  const view = useFleetView(store, state.filter);
  const empty = view.total === 0;
  // The sandbox started from this screen brings its own kubeconfig.
  const files = useStore(store, (s) => s.kubeconfigFiles) ?? kubeconfigFiles;
  useAppKeys({ state, dispatch, order: view.order, empty, onQuit, onStartSandbox });

  // One column spare: some terminals wrap a line that fills the last column.
  const width = Math.max(20, columns - 1);
  const bannerHeight = view.banner ? bannerLines(toAsciiIf(ui.ascii, view.banner.text), width).length : 0;
  // One row spare: a frame as tall as the terminal scrolls it.
  const bodyHeight = Math.max(3, rows - 1 - CHROME_LINES - bannerHeight);
  const tab = TABS[state.tab]?.id ?? 'status';

  return (
    <Box flexDirection="column" width={width}>
      <TabBar tabs={TAB_TITLES} active={state.tab} />
      <ContextBar total={view.total} reachable={view.reachable} kubeconfigFiles={files} readOnly={ui.readOnly} width={width} />
      <Box flexDirection="column" marginTop={1} height={bodyHeight} overflow="hidden">
        {state.help ? (
          <HelpOverlay sections={HELP_SECTIONS} />
        ) : tab === 'status' ? (
          <StatusScreen
            store={store}
            state={state}
            names={view.names}
            total={view.total}
            height={bodyHeight}
            width={width}
            canStartSandbox={onStartSandbox !== undefined}
          />
        ) : (
          <PlaceholderScreen tab={tab} width={width} readOnly={ui.readOnly} />
        )}
      </Box>
      {view.banner ? <Banner banner={view.banner} width={width} /> : null}
      <KeyHints hints={keyHints(hintMode(state, empty, onStartSandbox !== undefined))} width={width} />
    </Box>
  );
}
