import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { FleetStore } from '../../store/fleet-store.js';
import { contextRow, type ContextRow } from './context-row.js';

/** Rows of the listed contexts; worked out again only when one of them (or the fleet) changed. */
export function useContextRows(store: FleetStore, names: readonly string[]): ContextRow[] {
  const contexts = useStore(
    store,
    useShallow((s) => names.map((n) => s.status.contexts[n])),
  );
  const fleet = useStore(store, (s) => s.fleet);
  return useMemo(() => contexts.flatMap((c) => (c ? [contextRow(c, fleet)] : [])), [contexts, fleet]);
}

/** Lines the table takes with every row shown: the header, each row, and the note under a row that has one. */
export function tableLines(rows: readonly ContextRow[]): number {
  return 1 + rows.reduce((n, r) => n + (r.reason ? 2 : 1), 0);
}
