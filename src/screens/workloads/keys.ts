/**
 * The Workloads tab's keys, one table per view: the list (move, Enter opens the placement
 * checklist, / filters, s sorts, l shows the logs of the selected workload's pods in its first
 * cluster, r reads again), the filter being typed, and the open checklist (scroll, l, Esc back).
 * Nothing here changes a cluster.
 */
import { cursorKeys, type KeyAction, type KeyTable, type Live, moveCursor } from '../../components/key-actions/index.js';
import type { WorkloadRow } from '../../placement/rows.js';
import type { Actions, WorkloadsActions } from '../../store/actions.js';
import { workloadKey } from '../../store/workloads.js';
import type { WithApp } from '../keys/app-commands.js';
import { clearFilterKey, filterKeys } from '../keys/filter.js';
import { HELP_HINT, QUIT_HINT, SCREENS_HINT } from '../keys/on-app-line.js';
import type { WorkloadsAction, WorkloadsNav } from './nav.js';

export interface WorkloadsKeys extends WithApp {
  nav: Live<WorkloadsNav, WorkloadsAction>;
  actions: WorkloadsActions;
  logs: Actions['logs'];
  /** The rows shown (filtered, sorted), as of the last key. */
  rows(): readonly WorkloadRow[];
  /** Rows in a page of the list; lines of the checklist in view, and its last first line. */
  page: number;
  maxScroll: number;
}

const selected = (c: WorkloadsKeys) => c.rows()[Math.min(c.nav.get().selected, c.rows().length - 1)];

/** The logs of the row's pods in the first cluster running a copy. */
function openLogs(c: WorkloadsKeys): void {
  const r = selected(c);
  const copy = r?.clusters.find((x) => x.present && x.context);
  if (!r?.selector || !copy?.context || !r.namespace) return;
  c.logs?.openLogs({
    title: `${r.kind.toLowerCase()}/${r.name} · ${copy.cluster} (${copy.context})`,
    context: copy.context,
    namespace: r.namespace,
    selector: r.selector,
    events: { kind: r.kind, name: r.name, namespace: r.namespace },
  });
}

const LOGS: KeyAction<WorkloadsKeys> = {
  keys: ['l'],
  description: 'logs of its pods (first cluster)',
  hint: 'logs',
  when: (c) => !!selected(c)?.selector && !!selected(c)?.clusters.some((x) => x.present),
  run: openLogs,
};
const REFRESH: KeyAction<WorkloadsKeys> = { keys: ['r'], description: 'read again', hint: 'refresh', run: (c) => c.actions.refresh() };

const filtered = (c: WorkloadsKeys) => c.nav.get().filter !== '';

export const WORKLOADS_KEYS: KeyTable<WorkloadsKeys> = {
  title: 'Workloads',
  actions: [
    {
      keys: ['enter'],
      description: 'placement checklist',
      hint: 'explain',
      when: (c) => selected(c) !== undefined,
      run: (c) => c.actions.explain(workloadKey(selected(c)!)),
    },
    { keys: ['/'], description: 'filter', run: (c) => c.nav.dispatch({ type: 'filterStart' }) },
    { keys: ['s'], description: 'sort: state / namespace / name / cluster', hint: 'sort', run: (c) => c.nav.dispatch({ type: 'sort' }) },
    LOGS,
    REFRESH,
    clearFilterKey<WorkloadsKeys>(filtered),
    ...cursorKeys<WorkloadsKeys>((c, m) =>
      c.nav.dispatch({ type: 'select', index: moveCursor(c.nav.get().selected, m, c.rows().length, c.page), count: c.rows().length }),
    ).map((a) => ({ ...a, visible: false })),
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};

export const WORKLOADS_FILTER_KEYS: KeyTable<WorkloadsKeys> = filterKeys<WorkloadsKeys>(filtered);

export const EXPLAIN_KEYS: KeyTable<WorkloadsKeys> = {
  title: 'Placement checklist',
  actions: [
    { keys: ['esc', 'left'], label: 'esc', description: 'back to the list', hint: 'back', run: (c) => c.actions.close() },
    LOGS,
    REFRESH,
    ...cursorKeys<WorkloadsKeys>(
      (c, m) => c.nav.dispatch({ type: 'scroll', line: moveCursor(c.nav.get().scroll, m, c.maxScroll + 1, c.page), max: c.maxScroll }),
      { words: 'scroll', ends: 'top / bottom' },
    ),
    HELP_HINT,
    QUIT_HINT,
    SCREENS_HINT,
  ],
};
