import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { Table } from '../../components/table/index.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { statusRow, type StatusRow } from '../../store/selectors.js';
import { STATUS_COLUMNS } from './status-columns.js';

export interface ContextTableProps {
  store: FleetStore;
  names: readonly string[];
  selected: number;
  height: number;
  width: number;
}

/** One live row per context; re-renders only when one of the listed contexts changed. */
export function ContextTable({ store, names, selected, height, width }: ContextTableProps) {
  const contexts = useStore(store, useShallow((s) => names.map((n) => s.contexts[n])));
  const rows: StatusRow[] = contexts.flatMap((c) => (c ? [statusRow(c)] : []));
  return (
    <Table
      columns={STATUS_COLUMNS}
      rows={rows}
      rowKey={(r) => r.name}
      selected={selected}
      height={height}
      width={width}
      note={{ column: 'status', text: (r) => r.reason }}
    />
  );
}
