import { useInput, type Key } from 'ink';
import { useRef, type Dispatch } from 'react';
import type { StorageActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { catalogueKey, targetKey, type StorageTarget } from '../../store/storage.js';
import { defaultPools } from '../../storage/estimate.js';
import { splitKeys } from '../../components/key-actions/index.js';
import { initialForm } from './estimate-form.js';
import { storageReducer, type StorageAction, type StorageNav } from './use-storage-state.js';

export interface StorageKeysOptions {
  store: FleetStore;
  actions: StorageActions;
  nav: StorageNav;
  dispatch: Dispatch<StorageAction>;
  targets: readonly StorageTarget[];
  target: StorageTarget | undefined;
  /** Inventory lines in view, and the last first line. */
  rows: number;
  max: number;
  active: boolean;
}

/** The Storage tab's keys on the inventory page: ←/→ target, j/k scroll, r read again, Enter or e the estimate dialogue. */
export function useStorageKeys({ store, actions, nav, dispatch: send, targets, target, rows, max, active }: StorageKeysOptions): void {
  // The navigation as of the last key, so the second key of a chunk sees what the first did.
  const live = useRef(nav);
  live.current = nav;
  const dispatch = (action: StorageAction) => {
    live.current = storageReducer(live.current, action);
    send(action);
  };

  const open = () => {
    if (!target) return dispatch({ type: 'notice', text: 'no context to estimate for' });
    const key = targetKey(target);
    const slice = store.getState().storage;
    const e = slice.inventories[key];
    if (!e?.storage)
      return dispatch({
        type: 'notice',
        text: e?.error ? `cannot estimate: the inventory could not be read (r reads it again)` : 'the inventory is still being read',
      });
    if (live.current.forms[key]) return dispatch({ type: 'open', key });
    const c = slice.catalogues[catalogueKey(undefined)];
    if (!c) return dispatch({ type: 'notice', text: 'the catalogue is still being read' });
    if ('error' in c) return dispatch({ type: 'notice', text: c.error });
    dispatch({ type: 'open', key, form: initialForm(c.catalogue, defaultPools(e.storage).pools) });
  };

  useInput(
    (chunk, chunkKey) => {
      for (const [input, k] of splitKeys(chunk, chunkKey)) handle(input, k);
    },
    { isActive: active && !nav.open },
  );

  function handle(input: string, k: Key): void {
    const count = targets.length;
    if (k.rightArrow || input === 'l') dispatch({ type: 'target', delta: 1, count });
    else if (k.leftArrow || input === 'h') dispatch({ type: 'target', delta: -1, count });
    else if (input === 'j' || k.downArrow) dispatch({ type: 'scroll', delta: 1, max });
    else if (input === 'k' || k.upArrow) dispatch({ type: 'scroll', delta: -1, max });
    else if (k.pageDown || input === ' ') dispatch({ type: 'scroll', delta: rows, max });
    else if (k.pageUp) dispatch({ type: 'scroll', delta: -rows, max });
    else if (input === 'g' || k.home) dispatch({ type: 'scrollTo', line: 0, max });
    else if (input === 'G' || k.end) dispatch({ type: 'scrollTo', line: max, max });
    else if (input === 'r' && target) {
      dispatch({ type: 'read' });
      actions.read(target);
    } else if (k.return || input === 'e') open();
  }
}
