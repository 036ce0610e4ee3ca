import type { Key } from 'ink';

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * Keys typed quickly can arrive in one chunk (over SSH especially): "jj", "j\r"
 * or "/prod". Take such a chunk one key at a time.
 */
export function splitKeys(input: string, key: Key): [string, Key][] {
  const chars = [...input];
  if (chars.length <= 1 || key.ctrl || key.meta) return [[input, key]];
  return chars.map((ch): [string, Key] => {
    if (ch === '\r' || ch === '\n') return ['', { ...NO_KEY, return: true }];
    if (ch === '\t') return ['', { ...NO_KEY, tab: true }];
    if (ch === '\u007f' || ch === '\b') return ['', { ...NO_KEY, backspace: true }];
    return [ch, { ...NO_KEY, shift: /[A-Z]/.test(ch) }];
  });
}
