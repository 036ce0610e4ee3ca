import { Box, Text } from 'ink';
import { useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import { keepMatchedColumns, Table } from '../../../components/table/index.js';
import { truncate, useTheme } from '../../../components/theme/index.js';
import { fleetColumns, type FleetKind, type FleetPodRow, type FleetRow } from '../../../report/fleet-rows.js';
import type { FleetStore } from '../../../store/fleet-store.js';
import { type Live, moveCursor } from '../../../components/key-actions/index.js';
import { FLEET_ROWS_KEYS } from '../keys.js';
import type { StatusAction, StatusNav } from '../status-nav.js';
import { useStatusKeys } from '../use-status-keys.js';
import { useNow } from '../detail/use-now.js';
import { FilterLine } from '../filter-line.js';
import { fleetRowKey, fleetTableColumns } from './fleet-rows-columns.js';
import { fleetRowsLine, useFleetRows } from './use-fleet-rows.js';

export interface FleetRowsViewProps {
  store: FleetStore;
  kind: FleetKind;
  state: StatusNav;
  nav: Live<StatusNav, StatusAction>;
  /** Its keys listen. */
  active: boolean;
  height: number;
  width: number;
}

const TITLES: Record<FleetKind, string> = { nodes: 'Fleet nodes', pods: 'Fleet pods' };

/** The first of `budget` rows shown so that `selected` is in sight, moving as little as it can from `previous`. */
export function windowStart(count: number, selected: number, budget: number, previous: number): number {
  let start = Math.min(previous, selected);
  if (selected >= start + budget) start = selected - budget + 1;
  return Math.max(0, Math.min(start, count - budget));
}

/**
 * The nodes, or the pods needing attention, of every context in one table, live: one / filter
 * over every row, s/S sort by a column (its header shows the arrow), j/k move, Enter opens the
 * row's context at its section with the row filtered. Only the rows in sight are laid out.
 */
export function FleetRowsView({ store, kind, state, nav, active, height, width }: FleetRowsViewProps) {
  const theme = useTheme();
  const now = useNow();
  const sort = state.sorts[kind];
  const view = useFleetRows(store, kind, state.rowFilter, sort);
  const contexts = useStore(store, (s) => s.status.order.length);
  const { all, unread, leftOut } = view;
  const line = useMemo(
    () => fleetRowsLine(kind, { all, unread, leftOut }, contexts, theme.separator),
    [kind, all, unread, leftOut, contexts, theme.separator],
  );
  const { rows } = view;
  const count = rows.length;
  const selected = Math.max(0, Math.min(state.rowSelected, count - 1));
  const showFilter = state.filtering || state.rowFilter !== '';
  // Title line, filter line, then the table: its header and footer around the rows.
  const tableHeight = Math.max(3, height - 1 - (showFilter ? 1 : 0));
  const budget = Math.max(1, tableHeight - 2);
  const startRef = useRef(0);
  const start = windowStart(count, selected, budget, startRef.current);
  startRef.current = start;

  useStatusKeys(
    FLEET_ROWS_KEYS,
    () => ({
      move: (m) => nav.dispatch({ type: 'rowMoveTo', index: moveCursor(nav.get().rowSelected, m, count, budget), count }),
      openRow:
        count > 0
          ? () => {
              const row = rows[Math.max(0, Math.min(nav.get().rowSelected, count - 1))];
              if (row) nav.dispatch({ type: 'openAt', name: row.context, section: kind, filter: detailFilter(kind, row) });
            }
          : undefined,
      columns: fleetColumns(kind).length,
    }),
    active,
  );

  // A row the filter matched by a column narrow tables leave out (a node's zone) keeps it in sight.
  const columns = useMemo(
    () => keepMatchedColumns(fleetTableColumns(kind, sort, now, theme.ascii), rows, state.rowFilter),
    [kind, sort, now, theme.ascii, rows, state.rowFilter],
  );
  const shown = rows.slice(start, start + budget);
  const footer = () => {
    const where =
      count > budget ? `rows ${start + 1}–${Math.min(count, start + budget)} of ${count}` : `${count} row${count === 1 ? '' : 's'}`;
    const matched = state.rowFilter.trim() ? `${count} of ${view.all.length} match ${theme.separator} ` : '';
    return `${matched}${where} ${theme.separator} s/S sort${count > 0 ? ` ${theme.separator} enter opens` : ''}`;
  };
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{TITLES[kind]}</Text>
        <Text dimColor>{truncate(theme.text(`  ${line}`), Math.max(1, width - TITLES[kind].length), theme.ellipsis)}</Text>
      </Text>
      {showFilter ? <FilterLine filter={state.rowFilter} editing={state.filtering} shown={count} total={view.all.length} /> : null}
      {view.all.length === 0 ? (
        <Text dimColor>{theme.text(emptyText(kind, view.unread))}</Text>
      ) : count === 0 ? (
        <Text dimColor>{theme.text(`Nothing matches "${state.rowFilter}".`)}</Text>
      ) : (
        <Table
          columns={columns}
          rows={shown}
          rowKey={(r) => fleetRowKey(kind, r)}
          selected={selected - start}
          height={tableHeight}
          width={width}
          footer={footer}
        />
      )}
    </Box>
  );
}

/** What the context's section is filtered by, so the row is the one in sight. */
function detailFilter(kind: FleetKind, row: FleetRow<FleetKind>): string {
  return kind === 'nodes' ? row.name : `${(row as FleetPodRow).namespace}/${row.name}`;
}

function emptyText(kind: FleetKind, unread: number): string {
  if (unread > 0)
    return `No ${kind} read yet: ${unread} context${unread === 1 ? '' : 's'} not read (connecting, unreachable or forbidden).`;
  return kind === 'nodes' ? 'No nodes registered in any context.' : 'No pod needs attention in any context.';
}
