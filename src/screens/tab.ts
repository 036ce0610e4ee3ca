/**
 * A tab as the dashboard draws it: one entry each in the registry (src/dashboard/registry.ts),
 * from which the tab bar, the number keys, the screen shown, the key hints, the help and the
 * keyboard ownership are all derived.
 */
import type { ComponentType } from 'react';
import type { KeyTable } from '../components/key-actions/index.js';
import type { Actions } from '../store/actions.js';
import type { FleetState, FleetStore } from '../store/fleet-store.js';

export interface TabScreenProps {
  store: FleetStore;
  /** What the screens can ask the feeds for; a group absent is not offered. */
  actions: Actions;
  width: number;
  /** Lines of the body (the tab bar, the context bar, the banner and the key hints are the app's). */
  height: number;
  /** In front and listening: not hidden under the help, the log view, or another tab. */
  active: boolean;
}

export interface ScreenTab {
  id: string;
  title: string;
  Screen: ComponentType<TabScreenProps>;
  /** Every key table of the tab's views: what its help lists, what the tests drive. */
  keys: readonly KeyTable<never>[];
  /** Shown for the first time, or again: tell its feeds (start watching, read what it shows). */
  shown?: (actions: Actions) => void;
}

/** A view over whichever tab is shown (the log view), while `open` says so. */
export interface ScreenOverlay {
  id: string;
  open: (s: FleetState) => boolean;
  View: ComponentType<TabScreenProps>;
  keys: readonly KeyTable<never>[];
}
