import { useMemo } from 'react';
import { useStore } from 'zustand';
import {
  filterFleetRows,
  fleetRowsSelector,
  podsLeftOut,
  sortFleetRows,
  unreadable,
  type FleetKind,
  type FleetNodeRow,
  type FleetRow,
  type FleetSort,
} from '../../../report/fleet-rows.js';
import type { FleetStore } from '../../../store/fleet-store.js';

export interface FleetRowsView<K extends FleetKind> {
  /** Every context's rows, before the filter. */
  all: readonly FleetRow<K>[];
  /** After the filter, sorted. */
  rows: readonly FleetRow<K>[];
  /** Contexts whose rows are not there (not reached yet, unreachable, forbidden…). */
  unread: number;
  /** Pods needing attention the contexts' summaries leave out (each keeps its worst). */
  leftOut: number;
}

/**
 * The rows of a fleet view, live: the store's summaries made rows once per summary (a memoized
 * selector, so an update that changed none of them renders nothing), then filtered and sorted
 * only when the rows, the filter or the sort changed.
 */
export function useFleetRows<K extends FleetKind>(store: FleetStore, kind: K, filter: string, sort: FleetSort): FleetRowsView<K> {
  const select = useMemo(() => fleetRowsSelector(kind), [kind]);
  const all = useStore(store, select);
  const unread = useStore(
    store,
    (s) => s.status.order.filter((n) => s.status.contexts[n] && unreadable(s.status.contexts[n], kind) !== undefined).length,
  );
  const leftOut = useStore(store, (s) =>
    kind === 'pods' ? s.status.order.reduce((sum, n) => sum + (s.status.contexts[n] ? podsLeftOut(s.status.contexts[n]) : 0), 0) : 0,
  );
  const filtered = useMemo(() => filterFleetRows(kind, all, filter), [kind, all, filter]);
  const rows = useMemo(() => sortFleetRows(kind, filtered, sort), [kind, filtered, sort]);
  return { all, rows, unread, leftOut };
}

/** "3000 nodes in 28/30 contexts · 12 NotReady · 4 cordoned": the contexts not read are those missing. */
export function fleetRowsLine<K extends FleetKind>(
  kind: K,
  view: Omit<FleetRowsView<K>, 'rows'>,
  contexts: number,
  separator: string,
): string {
  const where = `in ${contexts - view.unread}/${contexts} context${contexts === 1 ? '' : 's'}`;
  const n = view.all.length;
  const parts: string[] = [];
  if (kind === 'nodes') {
    const nodes = view.all as readonly FleetNodeRow[];
    parts.push(`${n} node${n === 1 ? '' : 's'} ${where}`);
    const notReady = nodes.filter((r) => !r.ready).length;
    const cordoned = nodes.filter((r) => r.cordoned).length;
    if (notReady) parts.push(`${notReady} NotReady`);
    if (cordoned) parts.push(`${cordoned} cordoned`);
  } else {
    parts.push(`${n} pod${n === 1 ? ' needs' : 's need'} attention ${where}`);
    if (view.leftOut) parts.push(`${view.leftOut} more not listed`);
  }
  return parts.join(` ${separator} `);
}
