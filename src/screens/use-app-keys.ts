import { useInput, type Key } from 'ink';
import { useRef, type Dispatch } from 'react';
import { appReducer, type AppAction, type AppState } from './use-app-state.js';
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
}

/** Printable text typed into the filter. */
function printable(input: string): string {
  return [...input].filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f').join('');
}

/**
 * The keys of the whole app, like k9s: q / Ctrl-C quit, ? help, Tab / Shift-Tab
 * and 1–4 switch screens; on Status: j/k and arrows move, Enter opens, Esc goes
 * back, / filters. Scrolling inside the detail view is that view's own hook.
 */
export function useAppKeys({ state: rendered, dispatch: send, order, empty, onQuit, onStartSandbox }: AppKeysOptions): void {
  // The state as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef(rendered);
  live.current = rendered;
  const dispatch = (action: AppAction) => {
    live.current = appReducer(live.current, action);
    send(action);
  };

  useInput((chunk, chunkKey) => {
    for (const [input, key] of splitKeys(chunk, chunkKey)) handle(live.current, input, key);
  });

  function handle(state: AppState, input: string, key: Key): void {
    const names = filterNames(order, state.filter);
    if (key.ctrl && input === 'c') {
      onQuit();
      return;
    }

    if (state.filtering) {
      if (key.escape) dispatch({ type: 'filterClear' });
      else if (key.return) dispatch({ type: 'filterDone' });
      else if (key.backspace || key.delete) dispatch(state.filter ? { type: 'filterBackspace' } : { type: 'filterClear' });
      else if (key.downArrow) dispatch({ type: 'move', delta: 1, count: names.length });
      else if (key.upArrow) dispatch({ type: 'move', delta: -1, count: names.length });
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
  }

  function statusKeys(state: AppState, input: string, key: Key): void {
    const names = filterNames(order, state.filter);
    if (empty) {
      if (input === 's') onStartSandbox?.();
      return;
    }
    if (state.detail !== undefined) {
      if (key.escape || key.leftArrow) dispatch({ type: 'back' });
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
    } else if (input === '/') dispatch({ type: 'filterStart' });
    else if (key.escape && state.filter) dispatch({ type: 'filterClear' });
  }
}
