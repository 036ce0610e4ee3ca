import type { KeyAction } from './key-table.js';

/** A cursor's move: by rows, by a page, or to an end. */
export type CursorMove = { by: number } | { page: 1 | -1 } | { to: 'first' | 'last' };

/** Where a cursor at `at` over `count` rows goes; a page is `page` rows. Always in range (0 when there is no row). */
export function moveCursor(at: number, move: CursorMove, count: number, page: number): number {
  const last = Math.max(0, count - 1);
  const from = Math.max(0, Math.min(at, last));
  const to = 'by' in move ? from + move.by : 'page' in move ? from + move.page * Math.max(1, page) : move.to === 'first' ? 0 : last;
  return Math.max(0, Math.min(last, to));
}

export interface CursorKeysOptions<C> {
  /** The words of j/k (default "move"). */
  words?: string;
  /** The words of g/G (default "first / last"). */
  ends?: string;
  /** Whether the keys apply now (default: always). */
  when?: (c: C) => boolean;
  /** Space pages down too (default true). */
  space?: boolean;
}

/** The moving keys every list shares: j/k and ↑/↓ by a row, PgUp/PgDn (and space) by a page, g/G and Home/End to the ends. */
export function cursorKeys<C>(move: (c: C, m: CursorMove) => void, o: CursorKeysOptions<C> = {}): KeyAction<C>[] {
  const when = o.when ? { when: o.when } : {};
  return [
    {
      keys: ['j', 'down', 'k', 'up'],
      label: 'j k',
      hintLabel: 'j/k',
      description: o.words ?? 'move',
      ...when,
      run: (c, input, key) => move(c, { by: input === 'j' || key.downArrow ? 1 : -1 }),
    },
    {
      keys: o.space === false ? ['pgdn', 'pgup'] : ['pgdn', 'space', 'pgup'],
      label: 'pgup pgdn',
      description: 'a page',
      visible: false,
      help: false,
      ...when,
      run: (c, _input, key) => move(c, { page: key.pageUp ? -1 : 1 }),
    },
    {
      keys: ['g', 'home', 'G', 'end'],
      label: 'g G',
      description: o.ends ?? 'first / last',
      visible: false,
      ...when,
      run: (c, input, key) => move(c, { to: input === 'g' || key.home ? 'first' : 'last' }),
    },
  ];
}
