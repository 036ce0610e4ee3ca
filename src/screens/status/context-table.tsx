import { Table } from '../../components/table/index.js';
import type { ContextRow } from './context-row.js';
import { statusColumns } from './status-columns.js';

export interface ContextTableProps {
  rows: readonly ContextRow[];
  /** Show the ROLE column (a fleet is defined). */
  withRole: boolean;
  selected: number;
  height: number;
  width: number;
}

/** One row per context; why a context is unreachable (or its credentials cannot be loaded) on the line under it. */
export function ContextTable({ rows, withRole, selected, height, width }: ContextTableProps) {
  return (
    <Table
      columns={statusColumns(withRole)}
      rows={rows}
      rowKey={(r) => r.name}
      selected={selected}
      height={height}
      width={width}
      note={{ column: 'status', text: (r) => r.reason }}
    />
  );
}
