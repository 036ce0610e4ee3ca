import { type Key, useInput } from 'ink';
import { useRef, useState } from 'react';
import type { LogActions } from '../../store/actions.js';
import type { LogLine } from '../../store/logs.js';
import { splitKeys } from '../../components/key-actions/index.js';
import { indexAtOrBefore } from './log-window.js';

/** What the view keeps of its own: where it is scrolled to, the search being typed, the Events pane. */
export interface LogViewNav {
  /** The bottom line's seq; undefined: following the newest line. */
  anchor?: number;
  /** The search being typed after `/`; undefined when not typing. */
  typing?: string;
  /** The Events pane shown (undefined: as the width suggests). */
  events?: boolean;
}

export interface LogViewKeysOptions {
  actions: LogActions;
  lines: readonly LogLine[];
  /** The seqs of the lines matching the search, oldest first, and the current one. */
  matches: readonly number[];
  match?: number;
  /** Rows of the log area (a page). */
  page: number;
  /** The Events pane is shown by default (a wide window). */
  eventsByDefault: boolean;
  active: boolean;
  onHelp: () => void;
  onQuit: () => void;
}

function printable(input: string): string {
  return [...input].filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f').join('');
}

/**
 * The log view's keys: f follow, p previous, c container, w wrap, t timestamps, s save, e Events,
 * / search then n (older match) and N (newer), j/k ↑/↓ PgUp/PgDn g/G scroll (up pauses following,
 * G follows again), ? help, Esc closes the view (or the search being typed), q quits.
 */
export function useLogViewKeys(o: LogViewKeysOptions): LogViewNav {
  const [nav, setNav] = useState<LogViewNav>({});
  // As of the last key, so the second key of a chunk sees what the first did.
  const live = useRef({ nav, o });
  live.current = { nav, o };
  const set = (next: LogViewNav) => {
    live.current = { ...live.current, nav: next };
    setNav(next);
  };

  /** Scroll so that line index `i` is the bottom one; the newest line means following again. */
  const bottomAt = (nav: LogViewNav, o: LogViewKeysOptions, i: number) => {
    const { lines } = o;
    const last = lines.length - 1;
    // Never fewer lines than a page above the bottom one.
    const at = Math.max(Math.min(o.page - 1, last), Math.min(i, last));
    set({ ...nav, anchor: at >= last ? undefined : lines[at]?.seq });
  };

  const typingKey = (nav: LogViewNav & { typing: string }, input: string, key: Key, actions: LogActions) => {
    if (key.escape) set({ ...nav, typing: undefined });
    else if (key.return) {
      set({ ...nav, typing: undefined });
      actions.search(nav.typing);
    } else if (key.backspace || key.delete) set({ ...nav, typing: [...nav.typing].slice(0, -1).join('') });
    else if (!key.ctrl && !key.meta && printable(input)) set({ ...nav, typing: nav.typing + printable(input) });
  };

  /** n: the next older match; N: the next newer; shown half a page above the bottom. */
  const jump = (nav: LogViewNav, o: LogViewKeysOptions, delta: number) => {
    if (o.matches.length === 0) return;
    const at = o.match === undefined ? o.matches.length : o.matches.indexOf(o.match);
    const next = o.matches[(at + delta + o.matches.length) % o.matches.length]!;
    o.actions.match(next);
    bottomAt(nav, o, indexAtOrBefore(o.lines, next) + Math.floor(o.page / 2));
  };

  const handle = (input: string, key: Key) => {
    const { nav, o } = live.current;
    const { actions, lines } = o;
    if (key.ctrl && input === 'c') return o.onQuit();
    if (nav.typing !== undefined) return typingKey({ ...nav, typing: nav.typing }, input, key, actions);
    const bottom = nav.anchor === undefined ? lines.length - 1 : indexAtOrBefore(lines, nav.anchor);
    if (key.escape) actions.close();
    else if (input === 'q') o.onQuit();
    else if (input === '?') o.onHelp();
    else if (input === 'f' || input === 'p' || input === 'w' || input === 't') {
      const what = ({ f: 'follow', p: 'previous', w: 'wrap', t: 'timestamps' } as const)[input];
      // Streams re-open on follow and previous: the view goes back to the newest line.
      if (what === 'follow' || what === 'previous') set({ ...nav, anchor: undefined });
      actions.toggle(what);
    } else if (input === 'c') {
      set({ ...nav, anchor: undefined });
      actions.nextContainer();
    } else if (input === 's') actions.save();
    else if (input === 'e') set({ ...nav, events: !(nav.events ?? o.eventsByDefault) });
    else if (input === '/') set({ ...nav, typing: '' });
    else if (input === 'n') jump(nav, o, -1);
    else if (input === 'N') jump(nav, o, 1);
    else if (input === 'k' || key.upArrow) bottomAt(nav, o, bottom - 1);
    else if (input === 'j' || key.downArrow) bottomAt(nav, o, bottom + 1);
    else if (key.pageUp) bottomAt(nav, o, bottom - o.page);
    else if (key.pageDown) bottomAt(nav, o, bottom + o.page);
    else if (input === 'g' || key.home) bottomAt(nav, o, 0);
    else if (input === 'G' || key.end) set({ ...nav, anchor: undefined });
  };

  useInput(
    (chunk, chunkKey) => {
      for (const [input, key] of splitKeys(chunk, chunkKey)) handle(input, key);
    },
    { isActive: o.active },
  );
  return nav;
}
