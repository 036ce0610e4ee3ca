/**
 * The log view's keys (it takes the whole keyboard): the switches (follow, previous, container,
 * wrap, timestamps), the Events pane, save, the search and its matches, the scroll (up pauses
 * following, G follows again), ? help, Esc back, q quit; and while a search is typed, the
 * keys of the search line. The view only reads: nothing here is refused under --read-only.
 */
import { cursorKeys, helpOf, type KeyAction, type KeyTable, type Live, printable } from '../../components/key-actions/index.js';
import type { HelpSection } from '../../components/help-overlay/index.js';
import type { LogActions, LogToggle } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import type { LogLine } from '../../store/logs.js';
import type { WithApp } from '../keys/app-commands.js';
import { CTRL_C_QUITS, HELP, QUIT } from '../keys/global.js';
import { anchorAt, type LogViewAction, type LogViewNav } from './log-view-nav.js';
import { indexAtOrBefore } from './log-window.js';

export interface LogViewKeys extends WithApp {
  nav: Live<LogViewNav, LogViewAction>;
  store: FleetStore;
  actions: LogActions;
  lines: readonly LogLine[];
  /** The seqs of the lines matching the search, oldest first. */
  matches: readonly number[];
  /** Rows of the log area (a page). */
  page: number;
  /** The Events pane is shown by default (a wide window). */
  eventsByDefault: boolean;
}

const scrollTo = (c: LogViewKeys, i: number) => c.nav.dispatch({ type: 'anchor', seq: anchorAt(c.lines, c.page, i) });
const follow = (c: LogViewKeys) => c.nav.dispatch({ type: 'anchor', seq: undefined });
const bottom = (c: LogViewKeys) => {
  const anchor = c.nav.get().anchor;
  return anchor === undefined ? c.lines.length - 1 : indexAtOrBefore(c.lines, anchor);
};

/** n: the next older match; N: the next newer; shown half a page above the bottom. */
function jump(c: LogViewKeys, delta: 1 | -1): void {
  const n = c.matches.length;
  if (n === 0) return;
  const match = c.store.getState().logs.match;
  const at = match === undefined ? n : c.matches.indexOf(match);
  const next = c.matches[(at + delta + n) % n]!;
  c.actions.match(next);
  scrollTo(c, indexAtOrBefore(c.lines, next) + Math.floor(c.page / 2));
}

/** A switch; follow and previous re-open the streams, so the view goes back to the newest line. */
function switchKey(key: string, what: LogToggle, description: string, hint: string): KeyAction<LogViewKeys> {
  return {
    keys: [key],
    description,
    hint,
    run: (c) => {
      if (what === 'follow' || what === 'previous') follow(c);
      c.actions.toggle(what);
    },
  };
}

const BACK: KeyAction<LogViewKeys> = { keys: ['esc'], description: 'back', run: (c) => c.actions.close() };
const FOLLOW = switchKey('f', 'follow', 'follow on/off', 'follow');
const PREVIOUS = switchKey('p', 'previous', 'previous container', 'previous');
const CONTAINER: KeyAction<LogViewKeys> = {
  keys: ['c'],
  description: 'next container',
  hint: 'container',
  run: (c) => {
    follow(c);
    c.actions.nextContainer();
  },
};
const SEARCH: KeyAction<LogViewKeys> = { keys: ['/'], description: 'search', run: (c) => c.nav.dispatch({ type: 'typing', text: '' }) };
const WRAP = switchKey('w', 'wrap', 'wrap lines', 'wrap');
const TIME = switchKey('t', 'timestamps', 'timestamps', 'time');
const SAVE: KeyAction<LogViewKeys> = { keys: ['s'], description: 'save to a file', hint: 'save', run: (c) => c.actions.save() };
const EVENTS: KeyAction<LogViewKeys> = {
  keys: ['e'],
  description: 'events pane',
  hint: 'events',
  run: (c) => c.nav.dispatch({ type: 'events', shown: !(c.nav.get().events ?? c.eventsByDefault) }),
};
const MATCHES: KeyAction<LogViewKeys> = {
  keys: ['n', 'N'],
  label: 'n N',
  description: 'older / newer match',
  visible: false,
  run: (c, input) => jump(c, input === 'n' ? -1 : 1),
};
const SCROLL = cursorKeys<LogViewKeys>(
  (c, m) => {
    if ('to' in m) return m.to === 'first' ? scrollTo(c, 0) : follow(c);
    scrollTo(c, bottom(c) + ('by' in m ? m.by : m.page * c.page));
  },
  { words: 'scroll', ends: 'top / follow', space: false },
).map((a): KeyAction<LogViewKeys> => ({ ...a, visible: false }));

export const LOG_KEYS: KeyTable<LogViewKeys> = {
  title: 'Logs',
  owns: true,
  actions: [BACK, HELP, FOLLOW, PREVIOUS, CONTAINER, SEARCH, WRAP, TIME, SAVE, EVENTS, MATCHES, ...SCROLL, { ...QUIT, visible: false }],
};

/** The help over the log view: its switches, and how to move through its lines. */
export const LOG_HELP: readonly HelpSection[] = [
  helpOf({ title: 'Logs', actions: [FOLLOW, PREVIOUS, CONTAINER, WRAP, TIME, EVENTS, SAVE, BACK] }),
  helpOf({ title: 'Log lines', actions: [...SCROLL, SEARCH, MATCHES] }),
  // It takes every key: of the app's own it keeps these.
  helpOf({ title: 'Everywhere', actions: [HELP, QUIT] }, true),
];

const typed = (c: LogViewKeys) => c.nav.get().typing ?? '';

/** A search being typed after `/` (q is a letter then). */
export const LOG_SEARCH_KEYS: KeyTable<LogViewKeys> = {
  title: 'Search',
  owns: true,
  actions: [
    {
      keys: ['text'],
      label: 'type',
      description: 'to search',
      run: (c, input) => c.nav.dispatch({ type: 'typing', text: typed(c) + printable(input) }),
    },
    {
      keys: ['enter'],
      description: 'search',
      run: (c) => {
        const term = typed(c);
        c.nav.dispatch({ type: 'typing', text: undefined });
        c.actions.search(term);
      },
    },
    { keys: ['esc'], description: 'cancel', run: (c) => c.nav.dispatch({ type: 'typing', text: undefined }) },
    {
      keys: ['backspace'],
      description: 'erase',
      visible: false,
      run: (c) => c.nav.dispatch({ type: 'typing', text: [...typed(c)].slice(0, -1).join('') }),
    },
    { ...CTRL_C_QUITS, visible: false },
  ],
};
