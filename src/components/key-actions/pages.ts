import type { KeyName } from './key-names.js';
import type { KeyAction, KeyTable } from './key-table.js';

/**
 * The keys of a view in pages (a wizard): `on(...pages)` applies on those pages; `widget(...)`
 * declares a key that a page's widget (a list, a text field) handles, for the hint line and the help.
 */
export function pagedKeys<C, P>(pageOf: (c: C) => P) {
  const on =
    (...pages: P[]) =>
    (c: C) =>
      pages.includes(pageOf(c));
  const widget = (keys: KeyName[], description: string, pages: P[], label?: string): KeyAction<C> => ({
    keys,
    description,
    when: on(...pages),
    ...(label ? { label } : {}),
  });
  return { on, widget };
}

/** A y/n question: it takes every key; y answers yes, n or Esc no (`more`: other keys it keeps, e.g. Ctrl-C). */
export function yesNo<C>(
  title: string,
  yes: Pick<KeyAction<C>, 'description' | 'dangerous' | 'run'>,
  no: Pick<KeyAction<C>, 'description' | 'run'>,
  more: KeyAction<C>[] = [],
): KeyTable<C> {
  return {
    title,
    owns: true,
    actions: [{ keys: ['y', 'Y'], label: 'y', ...yes }, { keys: ['n', 'N', 'esc'], label: 'n/esc', ...no }, ...more],
  };
}
