/**
 * The Status tab's keys, one table per view: the contexts, the filter being typed, the fleet
 * checklist, the fleet's nodes or pods, the certificates, and an open context (its Info page and
 * its sections of rows). The keys that switch views are declared once and placed in each table.
 */
import { type CursorMove, cursorKeys, type KeyAction, type KeyTable, type Live } from '../../components/key-actions/index.js';
import type { FleetKind } from '../../report/fleet-rows.js';
import type { Actions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import type { WithApp } from '../keys/app-commands.js';
import { clearFilterKey, filterKeys } from '../keys/filter.js';
import { HELP_HINT, QUIT_HINT, SCREENS_HINT } from '../keys/on-app-line.js';
import { DETAIL_SECTIONS, type DetailSection, isRowsView, type StatusAction, type StatusNav } from './status-nav.js';

export interface StatusKeys extends WithApp {
  nav: Live<StatusNav, StatusAction>;
  store: FleetStore;
  actions: Actions;
  /** Context names after the filter, in display order (as of the last key). */
  names(): string[];
  /** The view's cursor or scroll. */
  move(m: CursorMove): void;
  /** The selected row's pods: their log (undefined: the row stands for none). */
  logs?: (() => void) | undefined;
  /** Enter on the selected row of the fleet's nodes or pods: its context, at the row (undefined: no row). */
  openRow?: (() => void) | undefined;
  /** Columns of the fleet rows being sorted. */
  columns?: number;
}

const view = (c: StatusKeys, v: StatusNav['view']) => c.nav.dispatch({ type: 'view', view: v });
const selectedName = (c: StatusKeys) => {
  const names = c.names();
  return names[Math.min(c.nav.get().selected, names.length - 1)];
};
const filtered = (c: StatusKeys) => {
  const n = c.nav.get();
  return (n.detail !== undefined ? n.sectionFilter : isRowsView(n.view) ? n.rowFilter : n.filter) !== '';
};

const OTHER_VIEWS: KeyAction<StatusKeys> = {
  keys: ['N', 'P', 'C'],
  label: 'N/P/C',
  description: 'nodes/pods/certs',
  run: (c, input) => view(c, input === 'N' ? 'nodes' : input === 'P' ? 'pods' : 'certs'),
};
const FLEET: KeyAction<StatusKeys> = { keys: ['f'], description: 'fleet checklist', hint: 'fleet', run: (c) => view(c, 'fleet') };
const CONTEXTS: KeyAction<StatusKeys> = { keys: ['c'], description: 'contexts', run: (c) => view(c, 'contexts') };
const FILTER: KeyAction<StatusKeys> = {
  keys: ['/'],
  description: 'filter',
  run: (c) => c.nav.dispatch({ type: 'filterStart' }),
};
const MOVE = cursorKeys<StatusKeys>((c, m) => c.move(m));
const HIDDEN_MOVE = MOVE.map((a) => ({ ...a, visible: false }));
const hidden = (a: KeyAction<StatusKeys>): KeyAction<StatusKeys> => ({ ...a, visible: false });

export const CONTEXTS_KEYS: KeyTable<StatusKeys> = {
  title: 'Status',
  actions: [
    HELP_HINT,
    QUIT_HINT,
    // j/k are in the help: the fleet-wide views and the filter fit 80 columns.
    {
      keys: ['enter', 'right'],
      label: 'enter',
      description: 'context details',
      hint: 'open',
      run: (c) => {
        const name = selectedName(c);
        if (name !== undefined) c.nav.dispatch({ type: 'open', name });
      },
    },
    OTHER_VIEWS,
    FLEET,
    { ...FILTER, description: 'filter by name' },
    SCREENS_HINT,
    {
      keys: ['A'],
      description: 'approvals',
      run: (c) => {
        const name = selectedName(c);
        if (name !== undefined) c.actions.approvals?.open(name);
      },
    },
    clearFilterKey<StatusKeys>(filtered),
    ...HIDDEN_MOVE,
  ],
};

/** No context at all: the sandbox can be started from here. */
export const EMPTY_KEYS: KeyTable<StatusKeys> = {
  title: 'No context',
  actions: [
    { keys: ['s'], description: 'start sandbox', when: (c) => c.actions.sandbox !== undefined, run: (c) => c.actions.sandbox?.start() },
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};

/** The contexts table is on screen (arrows move it while its filter is typed). */
const contextsShown = (c: StatusKeys) => c.nav.get().detail === undefined && c.nav.get().view === 'contexts';

export const FILTER_KEYS: KeyTable<StatusKeys> = filterKeys<StatusKeys>(filtered, [
  {
    keys: ['down', 'up'],
    label: '↓ ↑',
    description: 'move',
    visible: false,
    when: contextsShown,
    run: (c, _input, key) => c.nav.dispatch({ type: 'move', delta: key.downArrow ? 1 : -1, count: c.names().length }),
  },
]);

const BACK_TO_CONTEXTS: KeyAction<StatusKeys> = {
  keys: ['c', 'esc'],
  label: 'c',
  description: 'contexts',
  run: (c) => view(c, 'contexts'),
};

export const FLEET_KEYS: KeyTable<StatusKeys> = {
  title: 'Fleet checklist',
  actions: [
    { ...BACK_TO_CONTEXTS, keys: ['c', 'f', 'esc'] },
    ...MOVE,
    { keys: ['l'], description: 'logs of the row’s pods', hint: 'logs', when: (c) => c.logs !== undefined, run: (c) => c.logs?.() },
    hidden(OTHER_VIEWS),
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};

const sort = (c: StatusKeys, change: 'next' | 'reverse') =>
  c.nav.dispatch({ type: 'sort', kind: c.nav.get().view as FleetKind, change, columns: c.columns ?? 1 });

export const FLEET_ROWS_KEYS: KeyTable<StatusKeys> = {
  title: 'Fleet nodes / pods',
  actions: [
    { keys: ['esc'], description: 'clear the filter', visible: false, when: filtered, run: (c) => c.nav.dispatch({ type: 'filterClear' }) },
    BACK_TO_CONTEXTS,
    {
      keys: ['N', 'P'],
      label: 'N/P',
      description: 'nodes / pods',
      hint: 'nodes/pods',
      run: (c, input) => view(c, input === 'N' ? 'nodes' : 'pods'),
    },
    { keys: ['enter'], description: 'open at the row', hint: 'open', when: (c) => c.openRow !== undefined, run: (c) => c.openRow?.() },
    { ...FILTER, description: 'filter every row' },
    { keys: ['s'], hintLabel: 's/S', description: 'sort: next column', hint: 'sort', run: (c) => sort(c, 'next') },
    { keys: ['S'], description: 'sort: reverse', visible: false, run: (c) => sort(c, 'reverse') },
    ...MOVE,
    hidden(FLEET),
    hidden({ ...OTHER_VIEWS, keys: ['C'], label: 'C', description: 'certificates' }),
    HELP_HINT,
    QUIT_HINT,
  ],
};

const expanded = (c: StatusKeys) => c.nav.get().expanded;

export const CERTS_KEYS: KeyTable<StatusKeys> = {
  title: 'Certificates',
  actions: [
    CONTEXTS,
    ...MOVE,
    {
      keys: ['enter'],
      description: 'details (SANs…)',
      hint: 'details',
      when: (c) => !expanded(c),
      run: (c) => c.nav.dispatch({ type: 'toggleExpanded' }),
    },
    {
      keys: ['enter', 'esc'],
      label: 'enter/esc',
      description: 'close details',
      when: expanded,
      run: (c) => c.nav.dispatch({ type: 'toggleExpanded' }),
    },
    { keys: ['esc'], description: 'back to the contexts', visible: false, run: (c) => view(c, 'contexts') },
    { keys: ['r'], description: 'read again', run: (c) => c.actions.certs?.refresh() },
    hidden(FLEET),
    hidden({ ...OTHER_VIEWS, keys: ['N', 'P'], label: 'N/P', description: 'nodes / pods' }),
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};

/** The letter that opens each section of a context. */
const SECTION_OF: Partial<Record<string, DetailSection>> = { i: 'info', n: 'nodes', p: 'pods', e: 'events' };
const at = (c: StatusKeys) => DETAIL_SECTIONS.indexOf(c.nav.get().section);

/** An open context's keys, on every section: esc steps back, i/n/p/e or ←/→ pick a section. */
const SECTION_KEYS: KeyAction<StatusKeys>[] = [
  {
    keys: ['esc'],
    description: 'back',
    // Expanded, the row's own enter/esc says it.
    visible: (c) => !expanded(c),
    run: (c) => {
      const n = c.nav.get();
      c.nav.dispatch(n.expanded ? { type: 'toggleExpanded' } : n.sectionFilter ? { type: 'filterClear' } : { type: 'back' });
    },
  },
  {
    keys: ['i', 'n', 'p', 'e'],
    label: 'i/n/p/e',
    description: 'sections',
    run: (c, input) => {
      const section = SECTION_OF[input];
      if (section) c.nav.dispatch({ type: 'section', section });
    },
  },
  {
    keys: ['right', 'left', 'h'],
    label: '← →',
    description: 'section',
    visible: false,
    run: (c, _input, key) => {
      const next = DETAIL_SECTIONS[at(c) + (key.rightArrow ? 1 : -1)];
      // ← on the first section steps back out of the context.
      if (next) c.nav.dispatch({ type: 'section', section: next });
      else if (!key.rightArrow) c.nav.dispatch({ type: 'back' });
    },
  },
];

export const INFO_KEYS: KeyTable<StatusKeys> = {
  title: 'Context info',
  actions: [...SECTION_KEYS, ...cursorKeys<StatusKeys>((c, m) => c.move(m), { words: 'scroll' }), HELP_HINT, QUIT_HINT, SCREENS_HINT],
};

/** A section that cannot be shown (being listed, or forbidden): only the sections and back. */
export const SECTIONS_ONLY_KEYS: KeyTable<StatusKeys> = {
  title: 'Context: not listed',
  actions: [...SECTION_KEYS, HELP_HINT, QUIT_HINT, SCREENS_HINT],
};

export const ROWS_KEYS: KeyTable<StatusKeys> = {
  title: 'Context',
  actions: [
    {
      keys: ['enter', 'esc'],
      label: 'enter/esc',
      description: 'close row',
      help: false,
      when: expanded,
      run: (c) => c.nav.dispatch({ type: 'toggleExpanded' }),
    },
    SECTION_KEYS[0]!,
    {
      keys: ['enter'],
      description: 'show row',
      hint: 'show',
      visible: (c) => !expanded(c),
      run: (c) => c.nav.dispatch({ type: 'toggleExpanded' }),
    },
    ...cursorKeys<StatusKeys>((c, m) => c.move(m), { words: 'move' }).map((a) => ({
      ...a,
      hint: (c: StatusKeys) => (expanded(c) ? 'next row' : 'move'),
      // The ends are in the Status group's help.
      ...(a.label === 'g G' ? { help: false } : {}),
    })),
    ...SECTION_KEYS.slice(1),
    { keys: ['l'], description: 'pod logs', hint: 'logs', when: (c) => c.logs !== undefined, run: (c) => c.logs?.() },
    { ...FILTER, description: 'filter rows', visible: (c) => !expanded(c) },
    HELP_HINT,
    QUIT_HINT,
  ],
};
