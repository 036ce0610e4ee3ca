/**
 * Key tables, as k9s declares a view's keys (`ui.KeyActions`: key → description, action,
 * visible, dangerous): each view declares its keys once, in one table, and the handling, the
 * hint line and the help overlay are all derived from it.
 */
import type { Key } from 'ink';
import type { HelpSection } from '../help-overlay/index.js';
import type { KeyHint } from '../key-hints/index.js';
import { isKey, type KeyName, keyLabel } from './key-names.js';

export interface KeyAction<C> {
  /** The keys it answers to. */
  keys: readonly KeyName[];
  /** How the hint line and the help write its keys (default: the keys, "/" between them). */
  label?: string;
  /** A shorter way for the hint line only. */
  hintLabel?: string;
  /** What it does: the help's words. */
  description: string;
  /** The hint line's words (default: the description); a function when they depend on the state. */
  hint?: string | ((c: C) => string);
  /** In the help overlay (default true; false for a key that only varies another, such as the page keys). */
  help?: boolean;
  /** On the hint line: false puts it in the help only; a function decides each time (default: shown). */
  visible?: boolean | ((c: C) => boolean);
  /** Whether it applies now (default: always). When not, the key is not handled and not hinted. */
  when?: (c: C) => boolean;
  /**
   * It changes a cluster: what it does, in the words of the write gate's refusal ("rollout abort
   * uncordons nodes"); a function when that depends on the state (undefined: it does not, now).
   * Under --read-only it leaves the hint line and pressing it gets the gate's one-line refusal instead.
   */
  dangerous?: string | ((c: C) => string | undefined);
  /** A key every screen has (help, quit, the screens): the help lists it once, in the group of the app's own keys. */
  shared?: boolean;
  /** Does it; `input` is the key's text (which digit, which character). Absent: a widget on the page handles the key (it is declared here for the hint line and the help). */
  run?: (c: C, input: string, key: Key) => void;
}

export interface KeyTable<C> {
  /** The help's name for the group. */
  title: string;
  actions: readonly KeyAction<C>[];
  /** The view takes every key while shown (a wizard, a dialogue, a y/n question): the app's own keys are off. */
  owns?: boolean;
}

/** How an action's keys are written: on the hint line (`hint`), or in the help. */
export function keysLabel<C>(a: KeyAction<C>, hint: boolean): string {
  if (hint && a.hintLabel) return a.hintLabel;
  if (a.label) return a.label;
  return [...new Set(a.keys.map(keyLabel))].join(hint ? '/' : ' ');
}

const applies = <C>(a: KeyAction<C>, c: C) => a.when?.(c) ?? true;

/** The action a key press runs now, if any (the first that applies and answers to the key). */
export function actionFor<C>(table: KeyTable<C>, c: C, input: string, key: Key): KeyAction<C> | undefined {
  return table.actions.find((a) => a.keys.some((k) => isKey(k, input, key)) && applies(a, c));
}

/** What a dangerous action changes now (undefined: nothing). */
export function dangerOf<C>(a: KeyAction<C>, c: C): string | undefined {
  return typeof a.dangerous === 'function' ? a.dangerous(c) : a.dangerous;
}

/** The hint line: what applies now and is visible, in the table's order; under read-only without what changes a cluster. */
export function hintsOf<C>(table: KeyTable<C>, c: C, readOnly: boolean): KeyHint[] {
  const taken = new Set<KeyName>();
  return table.actions
    .filter((a) => {
      if (!applies(a, c)) return false;
      // Keys an action before answers to already never reach this one.
      const reached = a.keys.some((k) => !taken.has(k));
      for (const k of a.keys) taken.add(k);
      return reached && (typeof a.visible === 'function' ? a.visible(c) : a.visible !== false) && !(readOnly && dangerOf(a, c));
    })
    .map((a) => ({ key: keysLabel(a, true), label: (typeof a.hint === 'function' ? a.hint(c) : a.hint) ?? a.description }));
}

/**
 * The help's group for a table: one line per key, saying everything it does in the table's order
 * ("enter  select / continue / start the rollout"); the shared keys only in the group of their
 * own table (`shared`).
 */
export function helpOf<C>(table: KeyTable<C>, shared = false): HelpSection {
  const byKey = new Map<string, string[]>();
  const told = new Set<string>();
  for (const a of table.actions) {
    if ((a.shared && !shared) || a.help === false) continue;
    // Said already for each of its keys (q ctrl-c quit, then ctrl-c quit): nothing new.
    if (a.keys.every((k) => told.has(`${k} ${a.description}`))) continue;
    for (const k of a.keys) told.add(`${k} ${a.description}`);
    const key = keysLabel(a, false);
    const said = byKey.get(key) ?? [];
    if (!said.includes(a.description)) said.push(a.description);
    byKey.set(key, said);
  }
  return { title: table.title, keys: [...byKey].map(([key, said]) => ({ key, label: said.join(' / ') })) };
}

/** A key line as a page writes it under itself: "enter continue · esc back". */
export function keyLine(hints: readonly KeyHint[], separator: string): string {
  return hints.map((h) => `${h.key} ${h.label}`).join(` ${separator} `);
}
