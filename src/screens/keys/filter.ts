/**
 * The keys of a list's filter, declared once for every list that filters: the table while the
 * filter line is typed (it owns the keyboard: letters are text), and the hidden Esc that clears a
 * kept filter from the list (the filter line says so).
 */
import type { KeyAction, KeyTable } from '../../components/key-actions/index.js';
import type { WithApp } from './app-commands.js';
import { CTRL_C_QUITS } from './global.js';

export type FilterAction =
  | { type: 'filterType'; text: string }
  | { type: 'filterBackspace' }
  | { type: 'filterDone' }
  | { type: 'filterClear' };

interface Filtering extends WithApp {
  nav: { dispatch(action: FilterAction): void };
}

/** Typing the filter: Enter keeps it, Esc clears it, Backspace erases a letter (and, on an empty filter, stops). `more`: the list's own hidden keys. */
export function filterKeys<C extends Filtering>(filtered: (c: C) => boolean, more: readonly KeyAction<C>[] = []): KeyTable<C> {
  return {
    title: 'Filter',
    owns: true,
    actions: [
      { keys: ['text'], label: 'type', description: 'to filter', run: (c, input) => c.nav.dispatch({ type: 'filterType', text: input }) },
      { keys: ['enter'], description: 'keep', run: (c) => c.nav.dispatch({ type: 'filterDone' }) },
      { keys: ['esc'], description: 'clear', run: (c) => c.nav.dispatch({ type: 'filterClear' }) },
      {
        keys: ['backspace'],
        description: 'erase',
        visible: false,
        run: (c) => c.nav.dispatch(filtered(c) ? { type: 'filterBackspace' } : { type: 'filterClear' }),
      },
      ...more,
      CTRL_C_QUITS,
    ],
  };
}

/** Esc on the list while a filter is kept: clears it. */
export function clearFilterKey<C extends Filtering>(filtered: (c: C) => boolean): KeyAction<C> {
  return {
    keys: ['esc'],
    description: 'clear filter',
    visible: false,
    when: filtered,
    run: (c) => c.nav.dispatch({ type: 'filterClear' }),
  };
}
