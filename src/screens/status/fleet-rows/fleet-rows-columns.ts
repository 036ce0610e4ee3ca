import type { Column } from '../../../components/table/index.js';
import type { ColorRole } from '../../../components/theme/index.js';
import {
  fleetColumns,
  sortedHeader,
  type FleetKind,
  type FleetNodeRow,
  type FleetPodRow,
  type FleetRow,
  type FleetSort,
} from '../../../report/fleet-rows.js';

/** How a column of the fleet tables lays out on screen (its header and cells are the row model's). */
type Look<Row> = Omit<Column<Row>, 'key' | 'header' | 'value'>;

const NODE_LOOKS: Record<string, Look<FleetNodeRow>> = {
  context: { min: 8, max: 24, shrink: 2, cut: 'middle' },
  name: { min: 10, max: 40, shrink: 3, cut: 'middle' },
  role: { min: 4, max: 16, shrink: 1, drop: 2 },
  zone: { min: 4, max: 16, shrink: 1, drop: 3 },
  status: { min: 8, color: (r): ColorRole => (r.ready ? 'ok' : 'fail') },
  cordoned: { min: 3, max: 9, shrink: 1, color: (r) => (r.cordoned ? 'warn' : undefined) },
  kubelet: { min: 7, max: 14, shrink: 1, drop: 1 },
  age: { min: 3, max: 5, align: 'right' },
};

const POD_LOOKS: Record<string, Look<FleetPodRow>> = {
  context: { min: 8, max: 24, shrink: 2, cut: 'middle' },
  namespace: { min: 6, max: 20, shrink: 2 },
  pod: { min: 12, max: 48, shrink: 3, cut: 'middle' },
  reason: { min: 10, shrink: 4, color: (r): ColorRole => (r.phase === 'Failed' || r.phase === 'Unknown' ? 'fail' : 'warn') },
  restarts: { min: 3, max: 9, align: 'right', color: (r) => (r.restarts > 0 ? 'warn' : undefined) },
  age: { min: 3, max: 5, align: 'right' },
};

/** The table's columns of a fleet view: the row model's headers (the sorted one with its arrow) and cells. */
export function fleetTableColumns<K extends FleetKind>(kind: K, sort: FleetSort, now: number, ascii: boolean): Column<FleetRow<K>>[] {
  const looks = (kind === 'nodes' ? NODE_LOOKS : POD_LOOKS) as Record<string, Look<FleetRow<K>>>;
  return fleetColumns(kind).map((c, i) => ({
    min: 3,
    ...looks[c.key],
    key: c.key,
    header: sortedHeader(c.header, i === sort.column, sort.desc, ascii),
    value: (r: FleetRow<K>) => c.text(r, now),
  }));
}

/** A row's identity in its table. */
export function fleetRowKey(kind: FleetKind, row: FleetRow<FleetKind>): string {
  return kind === 'nodes' ? `${row.context}/${row.name}` : `${row.context}/${(row as FleetPodRow).namespace}/${row.name}`;
}
