/** Where the operator is on the Workloads tab: the selected row, the filter (being typed or kept) and the sort. */
import type { WorkloadSort } from '../../store/workloads.js';

export const SORTS: readonly WorkloadSort[] = ['state', 'namespace', 'name', 'clusters'];

export interface WorkloadsNav {
  selected: number;
  filter: string;
  typing: boolean;
  sort: WorkloadSort;
  /** Lines scrolled in the open checklist. */
  scroll: number;
}

export type WorkloadsAction =
  | { type: 'select'; index: number; count: number }
  | { type: 'filterStart' }
  | { type: 'filterType'; text: string }
  | { type: 'filterBackspace' }
  | { type: 'filterDone' }
  | { type: 'filterClear' }
  | { type: 'sort' }
  | { type: 'scroll'; line: number; max: number };

export const initialWorkloadsNav: WorkloadsNav = { selected: 0, filter: '', typing: false, sort: 'state', scroll: 0 };

const clamp = (i: number, max: number) => Math.max(0, Math.min(i, max));

export function workloadsReducer(nav: WorkloadsNav, a: WorkloadsAction): WorkloadsNav {
  switch (a.type) {
    case 'select':
      return { ...nav, selected: clamp(a.index, a.count - 1), scroll: 0 };
    case 'filterStart':
      return { ...nav, typing: true };
    case 'filterType':
      return { ...nav, filter: nav.filter + a.text, selected: 0 };
    case 'filterBackspace':
      return { ...nav, filter: nav.filter.slice(0, -1), selected: 0 };
    case 'filterDone':
      return { ...nav, typing: false };
    case 'filterClear':
      return { ...nav, filter: '', typing: false, selected: 0 };
    case 'sort':
      return { ...nav, sort: SORTS[(SORTS.indexOf(nav.sort) + 1) % SORTS.length]!, selected: 0 };
    case 'scroll':
      return { ...nav, scroll: clamp(a.line, a.max) };
  }
}
