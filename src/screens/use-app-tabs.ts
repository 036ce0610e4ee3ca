import { useState } from 'react';
import { useStore } from 'zustand';
import type { Actions } from '../store/actions.js';
import type { FleetStore } from '../store/fleet-store.js';
import type { InstallerDeps } from './install/wizard.js';
import { keyHints, type HintMode } from './keymap.js';
import { ownsKeyboard, useRolloutsState } from './rollouts/use-rollouts-state.js';
import { storageOwnsKeyboard, useStorageState } from './storage/use-storage-state.js';
import { TABS, type TabId } from './tabs.js';
import { isRowSection, isRowsView, type AppState } from './use-app-state.js';

export type AppActions = Actions<InstallerDeps>;

/** The Install tab's own state: the wizard's dependencies once loaded, and the "Prepare nodes" page shown. */
function useInstallTab(store: FleetStore, actions: AppActions) {
  const [deps, setDeps] = useState<InstallerDeps | undefined>(undefined);
  const [prepareOpen, setPrepareOpen] = useState(false);
  const [day2Open, setDay2Open] = useState(false);
  const wizard = useStore(store, (s) => s.install.wizard);
  const install = actions.install;
  const prepare = actions.prepare;
  const day2 = actions.day2;
  return {
    deps: wizard === 'open' ? deps : undefined,
    prepareOpen,
    open: install
      ? () => {
          if (store.getState().install.wizard !== 'closed') return;
          install.open().then(setDeps, () => {});
        }
      : undefined,
    close: (code: number) => {
      setDeps(undefined);
      install?.closed(code);
    },
    prepare: prepare
      ? () => {
          prepare.run();
          setPrepareOpen(true);
        }
      : undefined,
    closePrepare: () => setPrepareOpen(false),
    day2Open: day2Open && day2 !== undefined,
    day2: day2
      ? () => {
          day2.open();
          setDay2Open(true);
        }
      : undefined,
    closeDay2: () => {
      day2?.close();
      setDay2Open(false);
    },
  };
}

/**
 * Each tab's navigation (kept while the operator looks at another tab), which view owns the
 * keyboard, and the key hints under the screen.
 */
export function useAppTabs(store: FleetStore, actions: AppActions, state: AppState, empty: boolean) {
  const tab: TabId = TABS[state.tab]?.id ?? 'status';
  const [rolloutNav, rolloutDispatch] = useRolloutsState();
  const [storageNav, storageDispatch] = useStorageState();
  const install = useInstallTab(store, actions);
  const approvalsContext = useStore(store, (s) => s.approvals.context);
  const approvalsOn = useStore(store, (s) => s.approvals.status === 'on');
  const storageOn = useStore(store, (s) => s.storage.status === 'on');
  // The log view, opened from any screen, lies over it (which stays as it was under it).
  const logsOpen = useStore(store, (s) => s.logs.target !== undefined) && actions.logs !== undefined;
  const logsOwnKeys = logsOpen && !state.help;

  const wizardOpen = install.deps !== undefined;
  // The Day 2 page shows its own keys (and owns the keyboard) on the Install tab.
  const day2Shown = tab === 'install' && install.day2Open && !state.help;
  const rolloutsShown = tab === 'rollouts' && actions.rollouts !== undefined;
  const storageShown = tab === 'storage' && actions.storage !== undefined;
  const approvalsShown = tab === 'status' && approvalsContext !== undefined && !state.help;
  // The estimate dialogue and the approvals panel show their own keys (the body has the hints' line too).
  const storageOwnsKeys = storageShown && storageOn && storageOwnsKeyboard(storageNav);
  const approvalsOwnKeys = approvalsShown && approvalsOn;
  const rolloutsOwnKeys = rolloutsShown && ownsKeyboard(rolloutNav);
  const noHints =
    logsOwnKeys || wizardOpen || day2Shown || (rolloutsShown && rolloutNav.view === 'wizard') || storageOwnsKeys || approvalsOwnKeys;

  const mode = (): HintMode => {
    if (tab === 'install' && install.prepareOpen && !state.help) return 'prepareNodes';
    if (state.help) return 'help';
    if (storageShown && storageOn) return 'storage';
    if (tab === 'install' && (actions.install || actions.prepare || actions.day2)) return 'install';
    if (rolloutsShown) {
      if (rolloutNav.confirm) return 'rolloutConfirm';
      if (rolloutNav.view === 'progress') return rolloutNav.open?.kind === 'navarchos' ? 'rolloutNavarchos' : 'rolloutProgress';
      return 'rollouts';
    }
    if (tab !== 'status') return 'placeholder';
    if (empty) return actions.sandbox ? 'emptySandbox' : 'empty';
    if (state.filtering) return 'filtering';
    if (state.detail !== undefined)
      return !isRowSection(state.section) ? 'detail' : state.expanded ? 'expanded' : state.section === 'pods' ? 'detailPods' : 'detailRows';
    if (state.view === 'certs') return state.expanded ? 'certsExpanded' : 'certs';
    return state.view === 'fleet' ? 'fleet' : isRowsView(state.view) ? 'fleetRows' : 'list';
  };

  return {
    tab,
    install,
    rollouts: { nav: rolloutNav, dispatch: rolloutDispatch, shown: rolloutsShown },
    storage: { nav: storageNav, dispatch: storageDispatch, shown: storageShown, ownsKeys: storageOwnsKeys },
    approvals: { shown: approvalsShown, ownsKeys: approvalsOwnKeys },
    logs: { open: logsOpen, ownsKeys: logsOwnKeys },
    /** Another view owns the keyboard: the app's keys are off. */
    keysTaken: logsOwnKeys || wizardOpen || day2Shown || rolloutsOwnKeys || storageOwnsKeys || approvalsShown,
    hints: noHints ? undefined : keyHints(mode()),
  };
}

export type AppTabs = ReturnType<typeof useAppTabs>;
