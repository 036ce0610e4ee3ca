import { useInput, type Key } from 'ink';
import { useRef, type Dispatch } from 'react';
import {
  appReducer,
  DETAIL_SECTIONS,
  isRowSection,
  isRowsView,
  type AppAction,
  type AppState,
  type DetailSection,
} from './use-app-state.js';
import { splitKeys } from './split-keys.js';
import { TABS } from './tabs.js';
import { filterNames } from './use-fleet-view.js';

export interface AppKeysOptions {
  state: AppState;
  dispatch: Dispatch<AppAction>;
  /** All context names, in display order (the filter is applied here, key by key). */
  order: readonly string[];
  /** The store has no context at all. */
  empty: boolean;
  onQuit: () => void;
  onStartSandbox?: (() => void) | undefined;
  /** On the Install tab, Enter opens the install wizard. */
  onOpenInstall?: (() => void) | undefined;
  /** On the Install tab, `p` runs the preflight checks of this host (the "Prepare nodes" page; again there: re-run). */
  onPrepareNodes?: (() => void) | undefined;
  /** The "Prepare nodes" page is shown: Esc goes back to the Install page, Enter does nothing. */
  prepareOpen?: boolean;
  onClosePrepare?: (() => void) | undefined;
  /** On the Install tab, `d` opens the Day 2 page (which then owns the keyboard). */
  onOpenDay2?: (() => void) | undefined;
  /** On the contexts table, A opens the selected context's Approvals panel. */
  onOpenApprovals?: ((context: string) => void) | undefined;
  /** Another view owns the keyboard (the install wizard): the app's keys are off. */
  disabled?: boolean;
}

/** The Install tab's page keys: p Prepare nodes, d Day 2, Esc back from Prepare nodes, Enter the wizard. */
function installKeys(
  input: string,
  key: Key,
  o: Pick<AppKeysOptions, 'onPrepareNodes' | 'onOpenDay2' | 'prepareOpen' | 'onClosePrepare' | 'onOpenInstall'>,
): void {
  if (input === 'p') o.onPrepareNodes?.();
  else if (input === 'd') o.onOpenDay2?.();
  else if (o.prepareOpen) {
    if (key.escape) o.onClosePrepare?.();
  } else if (key.return) o.onOpenInstall?.();
}

/** Printable text typed into the filter. */
function printable(input: string): string {
  return [...input].filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f').join('');
}

/**
 * The keys of the whole app, like k9s: q / Ctrl-C quit, ? help, Tab / Shift-Tab
 * and 1–4 switch screens; on Status: j/k and arrows move, Enter opens, Esc goes
 * back, / filters, f shows the fleet checklist; inside a context: i/n/p/e or ←/→
 * pick a section, Enter shows a row in full. Moving inside a section or the fleet
 * checklist is that view's own hook.
 */
export function useAppKeys({
  state: rendered,
  dispatch: send,
  order,
  empty,
  onQuit,
  onStartSandbox,
  onOpenInstall,
  onPrepareNodes,
  prepareOpen = false,
  onClosePrepare,
  onOpenDay2,
  onOpenApprovals,
  disabled = false,
}: AppKeysOptions): void {
  // The state as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef(rendered);
  live.current = rendered;
  const dispatch = (action: AppAction) => {
    live.current = appReducer(live.current, action);
    send(action);
  };

  useInput(
    (chunk, chunkKey) => {
      for (const [input, key] of splitKeys(chunk, chunkKey)) handle(live.current, input, key);
    },
    { isActive: !disabled },
  );

  function handle(state: AppState, input: string, key: Key): void {
    const names = filterNames(order, state.filter);
    if (key.ctrl && input === 'c') {
      onQuit();
      return;
    }

    if (state.filtering) {
      if (key.escape) dispatch({ type: 'filterClear' });
      else if (key.return) dispatch({ type: 'filterDone' });
      else if (key.backspace || key.delete) dispatch(activeFilter(state) ? { type: 'filterBackspace' } : { type: 'filterClear' });
      else if (key.downArrow && contextsShown(state)) dispatch({ type: 'move', delta: 1, count: names.length });
      else if (key.upArrow && contextsShown(state)) dispatch({ type: 'move', delta: -1, count: names.length });
      else if (!key.ctrl && !key.meta && !key.tab && printable(input)) dispatch({ type: 'filterType', text: printable(input) });
      return;
    }

    if (state.help) {
      if (input === '?' || key.escape) dispatch({ type: 'closeHelp' });
      else if (input === 'q') onQuit();
      else if (key.tab) dispatch({ type: 'cycleTab', delta: key.shift ? -1 : 1 });
      else if (/^[1-9]$/.test(input)) dispatch({ type: 'tab', tab: Number(input) - 1 });
      return;
    }

    if (input === 'q') onQuit();
    else if (input === '?') dispatch({ type: 'toggleHelp' });
    else if (key.tab) dispatch({ type: 'cycleTab', delta: key.shift ? -1 : 1 });
    else if (/^[1-9]$/.test(input)) dispatch({ type: 'tab', tab: Number(input) - 1 });
    else if (TABS[state.tab]?.id === 'status') statusKeys(state, input, key);
    else if (TABS[state.tab]?.id === 'install')
      installKeys(input, key, { onPrepareNodes, onOpenDay2, prepareOpen, onClosePrepare, onOpenInstall });
  }

  function statusKeys(state: AppState, input: string, key: Key): void {
    const names = filterNames(order, state.filter);
    if (empty) {
      if (input === 's') onStartSandbox?.();
      return;
    }
    if (state.detail !== undefined) {
      detailKeys(state, input, key);
      return;
    }
    if (state.view !== 'contexts') {
      fleetViewKeys(state, input, key, dispatch);
      return;
    }
    const count = names.length;
    if (input === 'j' || key.downArrow) dispatch({ type: 'move', delta: 1, count });
    else if (input === 'k' || key.upArrow) dispatch({ type: 'move', delta: -1, count });
    else if (key.pageDown) dispatch({ type: 'move', delta: 10, count });
    else if (key.pageUp) dispatch({ type: 'move', delta: -10, count });
    else if (input === 'g' || key.home) dispatch({ type: 'moveTo', index: 0, count });
    else if (input === 'G' || key.end) dispatch({ type: 'moveTo', index: count - 1, count });
    else if (key.return || key.rightArrow) {
      const name = names[Math.min(state.selected, count - 1)];
      if (name !== undefined) dispatch({ type: 'open', name });
    } else if (input === 'A') {
      const name = names[Math.min(state.selected, count - 1)];
      if (name !== undefined) onOpenApprovals?.(name);
    } else if (input === 'f') dispatch({ type: 'view', view: 'fleet' });
    else if (input === 'N') dispatch({ type: 'view', view: 'nodes' });
    else if (input === 'P') dispatch({ type: 'view', view: 'pods' });
    else if (input === 'C') dispatch({ type: 'view', view: 'certs' });
    else if (input === '/') dispatch({ type: 'filterStart' });
    else if (key.escape && state.filter) dispatch({ type: 'filterClear' });
  }

  /** Inside an open context: sections by letter or ←/→, Enter expands a row, / filters rows, Esc steps back. */
  function detailKeys(state: AppState, input: string, key: Key): void {
    const at = DETAIL_SECTIONS.indexOf(state.section);
    const rows = isRowSection(state.section);
    const bySection = SECTION_KEYS[input];
    if (key.escape) {
      if (state.expanded) dispatch({ type: 'toggleExpanded' });
      else if (state.sectionFilter) dispatch({ type: 'filterClear' });
      else dispatch({ type: 'back' });
    } else if (bySection) dispatch({ type: 'section', section: bySection });
    else if (key.rightArrow) {
      const next = DETAIL_SECTIONS[at + 1];
      if (next) dispatch({ type: 'section', section: next });
    } else if (key.leftArrow || input === 'h') {
      const previous = DETAIL_SECTIONS[at - 1];
      dispatch(previous ? { type: 'section', section: previous } : { type: 'back' });
    } else if (key.return && rows) dispatch({ type: 'toggleExpanded' });
    else if (input === '/' && rows) dispatch({ type: 'filterStart' });
  }
}

/**
 * The fleet checklist (c, f or Esc back), the certificates (Enter shows one in full, Esc closes
 * it, then goes back), and the fleet's nodes or pods: N/P swap them, C shows the certificates, /
 * filters, c or Esc go back to the contexts (Esc clears a filter first), f to the fleet
 * checklist. Moving, sorting and Enter in the rows are the view's own (it knows its rows).
 */
function fleetViewKeys(state: AppState, input: string, key: Key, dispatch: (action: AppAction) => void): void {
  if (input === 'C') {
    dispatch({ type: 'view', view: 'certs' });
    return;
  }
  if (state.view === 'fleet' || state.view === 'certs') {
    if (state.view === 'certs' && (key.return || (key.escape && state.expanded))) dispatch({ type: 'toggleExpanded' });
    else if (input === 'c' || (input === 'f' && state.view === 'fleet') || key.escape) dispatch({ type: 'view', view: 'contexts' });
    else if (input === 'f') dispatch({ type: 'view', view: 'fleet' });
    else if (input === 'N') dispatch({ type: 'view', view: 'nodes' });
    else if (input === 'P') dispatch({ type: 'view', view: 'pods' });
    return;
  }
  if (input === 'c' || (key.escape && !state.rowFilter)) dispatch({ type: 'view', view: 'contexts' });
  else if (key.escape) dispatch({ type: 'filterClear' });
  else if (input === 'f') dispatch({ type: 'view', view: 'fleet' });
  else if (input === 'N') dispatch({ type: 'view', view: 'nodes' });
  else if (input === 'P') dispatch({ type: 'view', view: 'pods' });
  else if (input === '/') dispatch({ type: 'filterStart' });
}

/** The filter being typed: the rows' of the open section, the fleet rows', else the context names'. */
function activeFilter(state: AppState): string {
  if (state.detail !== undefined) return state.sectionFilter;
  return isRowsView(state.view) ? state.rowFilter : state.filter;
}

/** The contexts table is on screen (arrows move it while its filter is typed). */
function contextsShown(state: AppState): boolean {
  return state.detail === undefined && state.view === 'contexts';
}

/** The letter that opens each section of a context. */
const SECTION_KEYS: Partial<Record<string, DetailSection>> = { i: 'info', n: 'nodes', p: 'pods', e: 'events' };
