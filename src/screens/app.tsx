import { Box } from 'ink';
import { Activity, type Dispatch } from 'react';
import { useStore } from 'zustand';
import { Banner, bannerLines } from '../components/banner/index.js';
import { ContextBar } from '../components/context-bar/index.js';
import { HelpOverlay } from '../components/help-overlay/index.js';
import { KeyHints } from '../components/key-hints/index.js';
import { TabBar } from '../components/tab-bar/index.js';
import { colorAllowed, toAsciiIf, UiProvider } from '../components/theme/index.js';
import type { FleetStore } from '../store/fleet-store.js';
import { ApprovalsTab } from './approvals/approvals-tab.js';
import { InstallTab } from './install-tab.js';
import { InstallWizard } from './install/wizard.js';
import { helpSections } from './help-sections.js';
import { LOGS_HELP_SECTIONS } from './keymap.js';
import { LogView } from './logs/log-view.js';
import { PlaceholderScreen } from './placeholder.js';
import { RolloutsTab } from './rollouts/rollouts-tab.js';
import { StatusScreen } from './status.js';
import { StorageTab } from './storage/storage-tab.js';
import { TAB_TITLES } from './tabs.js';
import { SizeGate } from './size-gate.js';
import { useAppKeys } from './use-app-keys.js';
import { useAppState, type AppAction, type AppState } from './use-app-state.js';
import { useAppTabs, type AppActions, type AppTabs } from './use-app-tabs.js';
import { useFleetView } from './use-fleet-view.js';

export type { AppActions } from './use-app-tabs.js';

export interface UiOptions {
  readOnly: boolean;
  ascii: boolean;
  color: boolean;
}

export interface AppProps {
  /** The dashboard's one store: the screens select from it. */
  store: FleetStore;
  ui: UiOptions;
  kubeconfigFiles: string[];
  /** What the screens can ask for (the feeds holder); a group absent is not offered. */
  actions?: AppActions;
  onQuit: () => void;
}

/** Lines around the screen body: tab bar, context bar, the gap under them, key hints. */
const CHROME_LINES = 4;

/** The dashboard: tabs on top, the screen, a banner, key hints at the bottom; never taller than the terminal. */
export function App(props: AppProps) {
  const color = colorAllowed(props.ui.color);
  return (
    <UiProvider value={{ ascii: props.ui.ascii, color }}>
      <SizeGate onQuit={props.onQuit}>{(columns, rows) => <Dashboard {...props} columns={columns} rows={rows} />}</SizeGate>
    </UiProvider>
  );
}

function Dashboard({ store, ui, kubeconfigFiles, actions = {}, onQuit, columns, rows }: AppProps & { columns: number; rows: number }) {
  const [state, dispatch] = useAppState();
  const view = useFleetView(store, state.filter);
  const empty = view.total === 0;
  // The sandbox started from this screen brings its own kubeconfig.
  const files = useStore(store, (s) => s.kubeconfigFiles) ?? kubeconfigFiles;
  const tabs = useAppTabs(store, actions, state, empty);
  useAppKeys({
    state,
    dispatch,
    order: view.order,
    empty,
    onQuit,
    onStartSandbox: actions.sandbox?.start,
    onOpenInstall: tabs.install.open,
    onOpenApprovals: actions.approvals?.open,
    onPrepareNodes: tabs.install.prepare,
    prepareOpen: tabs.install.prepareOpen,
    onClosePrepare: tabs.install.closePrepare,
    onOpenDay2: tabs.install.day2,
    disabled: tabs.keysTaken,
  });

  // One column spare: some terminals wrap a line that fills the last column.
  const width = Math.max(20, columns - 1);
  const bannerHeight = view.banner ? bannerLines(toAsciiIf(ui.ascii, view.banner.text), width).length : 0;
  // One row spare: a frame as tall as the terminal scrolls it.
  const bodyHeight = Math.max(3, rows - 1 - CHROME_LINES - bannerHeight);

  return (
    <Box flexDirection="column" width={width}>
      <TabBar tabs={TAB_TITLES} active={state.tab} />
      <ContextBar total={view.total} reachable={view.reachable} kubeconfigFiles={files} readOnly={ui.readOnly} width={width} />
      {/* Without the key hints (a wizard or a dialogue shows its own keys), the body has their line too. */}
      <Box flexDirection="column" marginTop={1} height={bodyHeight + (tabs.hints ? 0 : 1)} overflow="hidden">
        {/* A screen taller than its lines is cut at the bottom, never squeezed (squeezed rows overlap). */}
        <Box flexDirection="column" flexShrink={0}>
          {tabs.logs.open && actions.logs ? (
            <>
              {state.help ? <HelpOverlay sections={LOGS_HELP_SECTIONS} width={width} height={bodyHeight} /> : null}
              {/* Hidden, not gone, under the help: where it was scrolled to is kept. */}
              <Activity mode={state.help ? 'hidden' : 'visible'}>
                <LogView
                  store={store}
                  actions={actions.logs}
                  width={width}
                  height={bodyHeight + 1}
                  active={tabs.logs.ownsKeys}
                  onHelp={() => dispatch({ type: 'toggleHelp' })}
                  onQuit={onQuit}
                />
              </Activity>
            </>
          ) : null}
          {/* Under the log view the screen stays mounted, hidden: Esc comes back to it as it was. */}
          <Activity mode={tabs.logs.open ? 'hidden' : 'visible'}>
            <TabBody
              store={store}
              actions={actions}
              ui={ui}
              state={tabs.logs.open ? { ...state, help: false } : state}
              dispatch={dispatch}
              view={view}
              tabs={tabs}
              width={width}
              height={bodyHeight}
              onQuit={onQuit}
            />
          </Activity>
        </Box>
      </Box>
      {view.banner ? <Banner kind={view.banner.kind} text={view.banner.text} width={width} /> : null}
      {tabs.hints ? <KeyHints hints={tabs.hints} width={width} /> : null}
    </Box>
  );
}

interface TabBodyProps {
  store: FleetStore;
  actions: AppActions;
  ui: UiOptions;
  state: AppState;
  dispatch: Dispatch<AppAction>;
  view: ReturnType<typeof useFleetView>;
  tabs: AppTabs;
  width: number;
  height: number;
  onQuit: () => void;
}

/** The active tab's screen (or the install wizard, the help, the approvals panel over it). */
function TabBody({ store, actions, ui, state, dispatch, view, tabs, width, height, onQuit }: TabBodyProps) {
  const { tab, install } = tabs;
  const active = !state.help;
  if (install.deps) {
    return <InstallWizard {...install.deps} readOnly={ui.readOnly} width={width} height={height + 1} onExit={install.close} />;
  }
  if (state.help) {
    return <HelpOverlay sections={helpSections(tab, tabs.rollouts.shown, tabs.storage.shown, state)} width={width} height={height} />;
  }
  if (tabs.approvals.shown && actions.approvals) {
    return (
      <ApprovalsTab
        store={store}
        actions={actions.approvals}
        readOnly={ui.readOnly}
        active={active}
        height={height + 1}
        width={width}
        onQuit={onQuit}
      />
    );
  }
  if (tab === 'status') {
    return (
      <StatusScreen
        store={store}
        state={state}
        dispatch={dispatch}
        names={view.names}
        total={view.total}
        height={height}
        width={width}
        canStartSandbox={actions.sandbox !== undefined}
        onOpenLogs={actions.logs?.openLogs}
        certs={actions.certs}
      />
    );
  }
  if (tab === 'rollouts' && actions.rollouts) {
    const { nav, dispatch } = tabs.rollouts;
    return (
      <RolloutsTab
        store={store}
        actions={actions.rollouts}
        nav={nav}
        dispatch={dispatch}
        readOnly={ui.readOnly}
        active={active}
        height={height}
        width={width}
        onOpenLogs={actions.logs?.openLogs}
      />
    );
  }
  if (tab === 'storage' && actions.storage) {
    const { nav, dispatch, ownsKeys } = tabs.storage;
    return (
      <StorageTab
        store={store}
        actions={actions.storage}
        nav={nav}
        dispatch={dispatch}
        active={active}
        height={height + (ownsKeys ? 1 : 0)}
        width={width}
      />
    );
  }
  if (tab === 'install')
    return (
      <InstallTab
        store={store}
        install={install}
        day2={actions.day2}
        readOnly={ui.readOnly}
        width={width}
        height={height}
        onQuit={onQuit}
        onHelp={() => dispatch({ type: 'toggleHelp' })}
        onCycleTab={(delta) => dispatch({ type: 'cycleTab', delta })}
      />
    );
  return <PlaceholderScreen tab={tab} width={width} height={height} readOnly={ui.readOnly} />;
}
