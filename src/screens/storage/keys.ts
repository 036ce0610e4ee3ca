/**
 * The Storage tab's inventory keys: ←/→ the target (the contexts, then this host), the
 * inventory scrolled, r reads it again, Enter or e opens the estimate dialogue (whose keys are
 * estimate-keys.ts). Nothing here changes a cluster.
 */
import { cursorKeys, type KeyTable, type Live, moveCursor } from '../../components/key-actions/index.js';
import type { StorageActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { estimateRefusal, type StorageTarget, targetKey } from '../../store/storage.js';
import type { WithApp } from '../keys/app-commands.js';
import { HELP_HINT, QUIT_HINT, SCREENS_HINT } from '../keys/on-app-line.js';
import type { StorageAction, StorageNav } from './storage-nav.js';

export interface StorageKeys extends WithApp {
  nav: Live<StorageNav, StorageAction>;
  store: FleetStore;
  actions: StorageActions;
  targets: readonly StorageTarget[];
  /** Inventory lines in view (a page), and the last first line. */
  rows: number;
  max: number;
}

const targetOf = (c: StorageKeys) => c.targets[Math.min(c.nav.get().target, Math.max(0, c.targets.length - 1))];
const notice = (c: StorageKeys, text: string | undefined) => c.nav.dispatch({ type: 'notice', text });

function openEstimate(c: StorageKeys): void {
  const target = targetOf(c);
  if (!target) return notice(c, 'no context to estimate for');
  const why = estimateRefusal(c.store.getState().storage, targetKey(target));
  notice(c, why);
  if (!why) c.actions.estimate.open(target);
}

export const STORAGE_KEYS: KeyTable<StorageKeys> = {
  title: 'Storage',
  actions: [
    { keys: ['enter', 'e'], label: 'enter e', hintLabel: 'enter', description: 'estimate', run: openEstimate },
    {
      keys: ['left', 'h', 'right', 'l'],
      label: '← →',
      hintLabel: '←/→',
      description: 'context',
      run: (c, input, key) => c.nav.dispatch({ type: 'target', delta: key.rightArrow || input === 'l' ? 1 : -1, count: c.targets.length }),
    },
    ...cursorKeys<StorageKeys>(
      (c, m) => c.nav.dispatch({ type: 'scrollTo', line: moveCursor(c.nav.get().scroll, m, c.max + 1, c.rows), max: c.max }),
      { words: 'scroll', ends: 'top / bottom' },
    ),
    {
      keys: ['r'],
      description: 'read again',
      hint: 'refresh',
      run: (c) => {
        const target = targetOf(c);
        if (!target) return;
        c.nav.dispatch({ type: 'read' });
        c.actions.read(target);
      },
    },
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};
