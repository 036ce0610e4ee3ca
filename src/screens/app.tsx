import { Box, Text, useInput, useWindowSize } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { Banner, bannerLines } from '../components/banner/index.js';
import { ContextBar } from '../components/context-bar/index.js';
import { HelpOverlay } from '../components/help-overlay/index.js';
import { KeyHints } from '../components/key-hints/index.js';
import { TabBar } from '../components/tab-bar/index.js';
import { colorAllowed, toAsciiIf, UiProvider } from '../components/theme/index.js';
import type { FleetStore } from '../store/fleet-store.js';
import { HELP_SECTIONS, keyHints, ROLLOUTS_HELP_SECTIONS, STORAGE_HELP_SECTIONS, type HintMode } from './keymap.js';
import { ApprovalsPanel } from './approvals/approvals-panel.js';
import type { ApprovalsDeps } from './approvals/deps.js';
import { InstallWizard, type InstallerDeps } from './install/wizard.js';
import { PrepareNodesPage, type PrepareState } from './install/prepare-nodes.js';
import type { CheckItem } from '../checklist/checklist.js';
import { PlaceholderScreen } from './placeholder.js';
import type { RolloutsDeps } from './rollouts/deps.js';
import { useRolloutFeed } from './rollouts/feed.js';
import { RolloutsScreen } from './rollouts/rollouts-screen.js';
import { ownsKeyboard, useRolloutsState, type RolloutsNav } from './rollouts/use-rollouts-state.js';
import { StatusScreen } from './status.js';
import type { StorageDeps } from './storage/deps.js';
import { StorageScreen } from './storage/storage-screen.js';
import { storageOwnsKeyboard, useStorageState } from './storage/use-storage-state.js';
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
  /** Present when the Install tab can run the wizard: loads what it needs (the bundle, the kubeconfig). */
  installer?: () => Promise<InstallerDeps>;
  /** The wizard installed a fleet: watch it. */
  onInstalled?: () => void;
  /** Present when the Install tab can run the preflight checks of this host (key `p`: the "Prepare nodes" page). */
  preflight?: () => Promise<CheckItem[]>;
  /** Present when the Rollouts tab can watch and run rollouts: loads what it needs when the tab is first shown. */
  rollouts?: () => Promise<RolloutsDeps>;
  /** Present when the Storage tab can read the clusters' storage and estimate: loads what it needs when the tab is first shown. */
  storage?: () => Promise<StorageDeps>;
  /** Present when the Approvals panel (key A on the contexts) can watch and decide CSRs: loads what it needs when first opened. */
  approvals?: () => Promise<ApprovalsDeps>;
  onQuit: () => void;
}

/** Lines around the screen body: tab bar, context bar, the gap under them, key hints. */
const CHROME_LINES = 4;

function hintMode(state: AppState, empty: boolean, canStart: boolean, canInstall: boolean, rollouts: RolloutsNav | undefined, storage: boolean): HintMode {
  if (state.help) return 'help';
  if (TABS[state.tab]?.id === 'storage' && storage) return 'storage';
  if (TABS[state.tab]?.id === 'install' && canInstall) return 'install';
  if (TABS[state.tab]?.id === 'rollouts' && rollouts) {
    if (rollouts.confirm) return 'rolloutConfirm';
    if (rollouts.view === 'progress') return rollouts.open?.kind === 'navarchos' ? 'rolloutNavarchos' : 'rolloutProgress';
    return 'rollouts';
  }
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

function Dashboard({ store, ui, kubeconfigFiles, onStartSandbox, installer, onInstalled, preflight, rollouts, storage, approvals, onQuit }: AppProps) {
  const { columns, rows } = useWindowSize();
  const [state, dispatch] = useAppState();
  const view = useFleetView(store, state.filter);
  const empty = view.total === 0;
  // The sandbox started from this screen brings its own kubeconfig.
  const files = useStore(store, (s) => s.kubeconfigFiles) ?? kubeconfigFiles;
  // The install wizard, while open, owns the keyboard and the screen body.
  const [wizard, setWizard] = useState<InstallerDeps | 'loading' | { error: string } | undefined>(undefined);
  // The "Prepare nodes" page of the Install tab: the preflight checks of this host; `run` drops a stale answer.
  const [prepare, setPrepare] = useState<PrepareState | undefined>(undefined);
  const prepareRuns = useRef({ run: 0, running: false });
  const runPrepare = preflight
    ? () => {
        // Still running (the page may have been left with Esc): show it again and let it finish.
        if (prepareRuns.current.running) return setPrepare({ status: 'running', run: prepareRuns.current.run });
        const run = ++prepareRuns.current.run;
        prepareRuns.current.running = true;
        setPrepare({ status: 'running', run });
        const settle = (next: PrepareState) => {
          prepareRuns.current.running = false;
          setPrepare((cur) => (cur?.run === run ? next : cur));
        };
        preflight().then(
          (items) => settle({ status: 'done', run, items }),
          (err: unknown) => settle({ status: 'error', run, error: err instanceof Error ? err.message : String(err) }),
        );
      }
    : undefined;
  const openInstall = installer
    ? () => {
        if (wizard !== undefined) return;
        setWizard('loading');
        installer().then(setWizard, (err: unknown) => setWizard({ error: err instanceof Error ? err.message : String(err) }));
      }
    : undefined;
  const wizardOpen = wizard !== undefined && wizard !== 'loading' && !('error' in wizard);
  const tab = TABS[state.tab]?.id ?? 'status';
  // The Rollouts tab loads its dependencies when first shown; its watches then run as long as the dashboard.
  const [rolloutTools, setRolloutTools] = useState<{ deps: RolloutsDeps } | 'loading' | { error: string } | undefined>(undefined);
  useEffect(() => {
    if (tab !== 'rollouts' || !rollouts || rolloutTools !== undefined) return;
    setRolloutTools('loading');
    rollouts().then(
      (deps) => setRolloutTools({ deps }),
      (err: unknown) => setRolloutTools({ error: err instanceof Error ? err.message : String(err) }),
    );
  }, [tab]);
  const rolloutDeps = typeof rolloutTools === 'object' && 'deps' in rolloutTools ? rolloutTools.deps : undefined;
  const feed = useRolloutFeed(rolloutDeps, view.order);
  const [rolloutNav, rolloutDispatch] = useRolloutsState();
  const rolloutsShown = tab === 'rollouts' && rollouts !== undefined;
  // The new-rollout wizard and the y/n of an abort own the keyboard, as the install wizard does.
  const rolloutsOwnKeys = rolloutsShown && ownsKeyboard(rolloutNav);
  // The Storage tab loads its dependencies when first shown; what it read and the estimate's choices stay while fleetdeck runs.
  const [storageTools, setStorageTools] = useState<{ deps: StorageDeps } | 'loading' | { error: string } | undefined>(undefined);
  useEffect(() => {
    if (tab !== 'storage' || !storage || storageTools !== undefined) return;
    setStorageTools('loading');
    storage().then(
      (deps) => setStorageTools({ deps }),
      (err: unknown) => setStorageTools({ error: err instanceof Error ? err.message : String(err) }),
    );
  }, [tab]);
  const storageDeps = typeof storageTools === 'object' && 'deps' in storageTools ? storageTools.deps : undefined;
  const [storageNav, storageDispatch] = useStorageState();
  const storageShown = tab === 'storage' && storage !== undefined;
  // The estimate dialogue owns the keyboard (sizes are typed there), as the wizards do.
  const storageOwnsKeys = storageShown && storageDeps !== undefined && storageOwnsKeyboard(storageNav);
  // The Approvals panel (A on the contexts) loads its dependencies when first opened and owns the keyboard while open.
  const [approvalsFor, setApprovalsFor] = useState<string | undefined>(undefined);
  const [approvalTools, setApprovalTools] = useState<{ deps: ApprovalsDeps } | 'loading' | { error: string } | undefined>(undefined);
  const openApprovals = approvals
    ? (context: string) => {
        setApprovalsFor(context);
        if (approvalTools !== undefined && !(typeof approvalTools === 'object' && 'error' in approvalTools)) return;
        setApprovalTools('loading');
        approvals().then(
          (deps) => setApprovalTools({ deps }),
          (err: unknown) => setApprovalTools({ error: err instanceof Error ? err.message : String(err) }),
        );
      }
    : undefined;
  const approvalDeps = typeof approvalTools === 'object' && 'deps' in approvalTools ? approvalTools.deps : undefined;
  const approvalsShown = tab === 'status' && approvalsFor !== undefined && !state.help;
  const approvalsOwnKeys = approvalsShown && approvalDeps !== undefined;
  // While the panel's tools load (or failed to), Esc still goes back.
  useInput(
    (input, key) => {
      if (key.escape) setApprovalsFor(undefined);
      else if (input === 'q' || (key.ctrl && input === 'c')) onQuit();
    },
    { isActive: approvalsShown && approvalDeps === undefined },
  );
  useAppKeys({ state, dispatch, order: view.order, empty, onQuit, onStartSandbox, onOpenInstall: openInstall, onOpenApprovals: openApprovals, onPrepareNodes: runPrepare, prepareOpen: prepare !== undefined, onClosePrepare: () => setPrepare(undefined), disabled: wizardOpen || rolloutsOwnKeys || storageOwnsKeys || approvalsShown });

  // One column spare: some terminals wrap a line that fills the last column.
  const width = Math.max(20, columns - 1);
  const bannerHeight = view.banner ? bannerLines(toAsciiIf(ui.ascii, view.banner.text), width).length : 0;
  // One row spare: a frame as tall as the terminal scrolls it.
  const bodyHeight = Math.max(3, rows - 1 - CHROME_LINES - bannerHeight);

  return (
    <Box flexDirection="column" width={width}>
      <TabBar tabs={TAB_TITLES} active={state.tab} />
      <ContextBar total={view.total} reachable={view.reachable} kubeconfigFiles={files} readOnly={ui.readOnly} width={width} />
      {/* Without the key hints (a dialogue shows its own keys), the body has their line too. */}
      <Box flexDirection="column" marginTop={1} height={bodyHeight + (storageOwnsKeys || approvalsOwnKeys ? 1 : 0)} overflow="hidden">
        {wizardOpen ? (
          <InstallWizard
            {...wizard}
            readOnly={ui.readOnly}
            width={width}
            height={bodyHeight + 1}
            onExit={(code) => {
              setWizard(undefined);
              if (code === 0) onInstalled?.();
            }}
          />
        ) : state.help ? (
          <HelpOverlay sections={rolloutsShown ? ROLLOUTS_HELP_SECTIONS : storageShown ? STORAGE_HELP_SECTIONS : HELP_SECTIONS} />
        ) : approvalsShown ? (
          approvalDeps ? (
            <ApprovalsPanel
              deps={approvalDeps}
              context={approvalsFor}
              readOnly={ui.readOnly}
              active={!state.help}
              height={bodyHeight + 1}
              width={width}
              onClose={() => setApprovalsFor(undefined)}
              onQuit={onQuit}
            />
          ) : typeof approvalTools === 'object' && 'error' in approvalTools ? (
            <Text>{approvalTools.error} (esc: back)</Text>
          ) : (
            <Text>loading the approvals…</Text>
          )
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
        ) : tab === 'rollouts' && rollouts ? (
          feed && rolloutDeps ? (
            <RolloutsScreen
              feed={feed}
              deps={rolloutDeps}
              nav={rolloutNav}
              dispatch={rolloutDispatch}
              readOnly={ui.readOnly}
              active={!state.help}
              height={bodyHeight}
              width={width}
            />
          ) : typeof rolloutTools === 'object' && 'error' in rolloutTools ? (
            <Text>{rolloutTools.error}</Text>
          ) : (
            <Text>loading the rollouts…</Text>
          )
        ) : tab === 'storage' && storage ? (
          storageDeps ? (
            <StorageScreen deps={storageDeps} nav={storageNav} dispatch={storageDispatch} active={!state.help} height={bodyHeight + (storageOwnsKeys ? 1 : 0)} width={width} />
          ) : typeof storageTools === 'object' && 'error' in storageTools ? (
            <Text>{storageTools.error}</Text>
          ) : (
            <Text>loading the storage tools…</Text>
          )
        ) : (
          <>
            {tab === 'install' && prepare ? (
              <PrepareNodesPage state={prepare} width={width} height={bodyHeight} />
            ) : (
              <PlaceholderScreen tab={tab} width={width} readOnly={ui.readOnly} installer={installer !== undefined} preflight={preflight !== undefined} />
            )}
            {tab === 'install' && wizard === 'loading' ? <Text>loading the install bundle…</Text> : null}
            {tab === 'install' && typeof wizard === 'object' && 'error' in wizard ? <Text>{wizard.error}</Text> : null}
          </>
        )}
      </Box>
      {view.banner ? <Banner kind={view.banner.kind} text={view.banner.text} width={width} /> : null}
      {wizardOpen || (rolloutsShown && rolloutNav.view === 'wizard') || storageOwnsKeys || approvalsOwnKeys ? null : (
        <KeyHints
          hints={keyHints(tab === 'install' && prepare && !state.help ? 'prepareNodes' : hintMode(state, empty, onStartSandbox !== undefined, installer !== undefined || preflight !== undefined, rolloutsShown ? rolloutNav : undefined, storageShown && storageDeps !== undefined))}
          width={width}
        />
      )}
    </Box>
  );
}
