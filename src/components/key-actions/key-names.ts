import type { Key } from 'ink';

/**
 * A key as a key table names it: a printable character ('j', '?', 'G', '/'), or one of the
 * named keys below. `digit` is any of 0–9 and `text` any printable character (typing into a
 * filter or a field); the action reads which from its `input`.
 */
export type KeyName =
  | 'enter'
  | 'esc'
  | 'tab'
  | 'shift-tab'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'pgup'
  | 'pgdn'
  | 'home'
  | 'end'
  | 'space'
  | 'backspace'
  | 'ctrl-c'
  | 'digit'
  | 'text'
  | (string & {});

const NAMED: Record<string, (input: string, key: Key) => boolean> = {
  enter: (_, k) => k.return,
  esc: (_, k) => k.escape,
  tab: (_, k) => k.tab && !k.shift,
  'shift-tab': (_, k) => k.tab && k.shift,
  up: (_, k) => k.upArrow,
  down: (_, k) => k.downArrow,
  left: (_, k) => k.leftArrow,
  right: (_, k) => k.rightArrow,
  pgup: (_, k) => k.pageUp,
  pgdn: (_, k) => k.pageDown,
  home: (_, k) => k.home,
  end: (_, k) => k.end,
  space: (input) => input === ' ',
  backspace: (_, k) => k.backspace || k.delete,
  'ctrl-c': (input, k) => k.ctrl && input === 'c',
  digit: (input, k) => !k.ctrl && !k.meta && /^[0-9]$/.test(input),
  text: (input, k) => !k.ctrl && !k.meta && !k.tab && !k.return && !k.escape && printable(input) !== '',
};

/** Printable text of a key's input (control characters and DEL left out). */
export function printable(input: string): string {
  return [...input].filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f').join('');
}

/** Is this key press the key `name`? */
export function isKey(name: KeyName, input: string, key: Key): boolean {
  const named = NAMED[name];
  if (named) return named(input, key);
  return !key.ctrl && !key.meta && input === name;
}

const SHOWN: Record<string, string> = { up: '↑', down: '↓', left: '←', right: '→', digit: '0-9', text: 'type' };

/** How a key is written on the hint line and in the help ("enter", "↑", "j"). */
export function keyLabel(name: KeyName): string {
  return SHOWN[name] ?? name;
}
