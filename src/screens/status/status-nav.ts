import { DEFAULT_SORT, type FleetKind, type FleetSort } from '../../report/fleet-rows.js';

/**
 * What the Status screen shows when no context is open: the contexts table, the fleet
 * checklist, the nodes / the pods needing attention of every context in one table, or every
 * certificate of the fleet.
 */
export type StatusView = 'contexts' | 'fleet' | FleetKind | 'certs';

/** The view shows the rows of every context (nodes or pods). */
export function isRowsView(view: StatusView): view is FleetKind {
  return view === 'nodes' || view === 'pods';
}

/** The parts of an open context, in the order ←/→ walk through them. */
export const DETAIL_SECTIONS = ['info', 'nodes', 'pods', 'events'] as const;
export type DetailSection = (typeof DETAIL_SECTIONS)[number];

/** Sections listing rows that can be filtered and expanded (Info is a page of fields). */
export function isRowSection(section: DetailSection): boolean {
  return section !== 'info';
}

/** Where the operator is on the Status tab. Data comes from the store; this is only navigation. */
export interface StatusNav {
  /** Selected row of the status table (index into the filtered list). */
  selected: number;
  /** Context whose detail is open. */
  detail?: string;
  /** Name filter; empty for none. */
  filter: string;
  /** The filter line has the keyboard (the section filter while a detail is open). */
  filtering: boolean;
  view: StatusView;
  /** Section of the open context; kept when another context is opened, so one can compare. */
  section: DetailSection;
  /** Substring filter of the rows of the open section; empty for none. */
  sectionFilter: string;
  /** The selected row of the section (or of the certificates) is shown in full under the table. */
  expanded: boolean;
  /** The / filter of the fleet's nodes and pods views (one for both). */
  rowFilter: string;
  /** Selected row of the fleet's nodes or pods view (index into the filtered, sorted rows). */
  rowSelected: number;
  /** How each of those views is sorted. */
  sorts: Record<FleetKind, FleetSort>;
}

export type StatusAction =
  /** Move the selection; `count` is the number of rows, so it stays in range. */
  | { type: 'move'; delta: number; count: number }
  | { type: 'moveTo'; index: number; count: number }
  | { type: 'open'; name: string }
  /** Open a context at a section, its rows filtered (a row of the fleet's nodes or pods view). */
  | { type: 'openAt'; name: string; section: DetailSection; filter: string }
  /** Move in the fleet's nodes or pods view, of `count` rows. */
  | { type: 'rowMove'; delta: number; count: number }
  | { type: 'rowMoveTo'; index: number; count: number }
  /** Sort that view by the next of its `columns` columns, or the other way round. */
  | { type: 'sort'; kind: FleetKind; change: 'next' | 'reverse'; columns: number }
  | { type: 'back' }
  | { type: 'view'; view: StatusView }
  | { type: 'section'; section: DetailSection }
  | { type: 'toggleExpanded' }
  | { type: 'filterStart' }
  | { type: 'filterType'; text: string }
  | { type: 'filterBackspace' }
  | { type: 'filterDone' }
  | { type: 'filterClear' };

export const initialStatusNav: StatusNav = {
  selected: 0,
  filter: '',
  filtering: false,
  view: 'contexts',
  section: 'info',
  sectionFilter: '',
  expanded: false,
  rowFilter: '',
  rowSelected: 0,
  sorts: { nodes: DEFAULT_SORT, pods: DEFAULT_SORT },
};

const clamp = (i: number, count: number) => Math.max(0, Math.min(i, count - 1));

/** The filter the keys edit: the section's while a context is open, the rows' in the fleet's nodes or pods, else the context names'. */
function editFilter(state: StatusNav, edit: (f: string) => string): StatusNav {
  if (state.detail !== undefined) return { ...state, sectionFilter: edit(state.sectionFilter), expanded: false };
  if (isRowsView(state.view)) return { ...state, rowFilter: edit(state.rowFilter), rowSelected: 0 };
  return { ...state, filter: edit(state.filter), selected: 0 };
}

export function statusReducer(state: StatusNav, action: StatusAction): StatusNav {
  switch (action.type) {
    case 'move':
      return { ...state, selected: clamp(clamp(state.selected, action.count) + action.delta, action.count) };
    case 'moveTo':
      return { ...state, selected: clamp(action.index, action.count) };
    case 'open':
      return { ...state, detail: action.name, sectionFilter: '', expanded: false, filtering: false };
    case 'openAt':
      return { ...state, detail: action.name, section: action.section, sectionFilter: action.filter, expanded: false, filtering: false };
    case 'rowMove':
      return { ...state, rowSelected: clamp(clamp(state.rowSelected, action.count) + action.delta, action.count) };
    case 'rowMoveTo':
      return { ...state, rowSelected: clamp(action.index, action.count) };
    case 'sort': {
      const { column, desc } = state.sorts[action.kind];
      const next = action.change === 'reverse' ? { column, desc: !desc } : { column: (column + 1) % action.columns, desc: false };
      return { ...state, sorts: { ...state.sorts, [action.kind]: next }, rowSelected: 0 };
    }
    case 'back': {
      const { detail: _closed, ...rest } = state;
      return { ...rest, sectionFilter: '', expanded: false, filtering: false };
    }
    case 'view':
      return action.view === state.view ? state : { ...state, view: action.view, rowSelected: 0, expanded: false };
    case 'section':
      return action.section === state.section
        ? state
        : { ...state, section: action.section, sectionFilter: '', expanded: false, filtering: false };
    case 'toggleExpanded':
      return { ...state, expanded: !state.expanded };
    case 'filterStart':
      return { ...state, filtering: true };
    case 'filterType':
      return editFilter(state, (f) => f + action.text);
    case 'filterBackspace':
      return editFilter(state, (f) => [...f].slice(0, -1).join(''));
    case 'filterDone':
      return { ...state, filtering: false };
    case 'filterClear':
      return { ...editFilter(state, () => ''), filtering: false };
  }
}
