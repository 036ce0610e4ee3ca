import { Box, Text } from 'ink';
import type { Dispatch } from 'react';
import { useStore } from 'zustand';
import type { CertsActions } from '../store/actions.js';
import type { FleetStore } from '../store/fleet-store.js';
import type { LogTarget } from '../store/log-target.js';
import { useTheme } from '../components/theme/index.js';
import { CertsView } from './status/certs/certs-view.js';
import { ContextDetail } from './status/context-detail.js';
import { ContextTable } from './status/context-table.js';
import { EmptyFleet } from './status/empty-fleet.js';
import { FilterLine } from './status/filter-line.js';
import { FleetPanel } from './status/fleet/fleet-panel.js';
import { FLEET_STRIP_MIN, FleetStrip, NoFleetHint } from './status/fleet/fleet-strip.js';
import { FleetRowsView } from './status/fleet-rows/fleet-rows-view.js';
import { tableLines, useContextRows } from './status/use-context-rows.js';
import { isRowsView, type AppAction, type AppState } from './use-app-state.js';

export interface StatusScreenProps {
  store: FleetStore;
  state: AppState;
  dispatch: Dispatch<AppAction>;
  /** Context names after the filter, in display order. */
  names: readonly string[];
  /** How many contexts the store has, before the filter. */
  total: number;
  height: number;
  width: number;
  canStartSandbox: boolean;
  /** `l` on a row that stands for pods (the fleet checklist, a context's Pods section). */
  onOpenLogs?: ((target: LogTarget) => void) | undefined;
  /** What the Certificates view (C) asks the certs feed for. */
  certs?: CertsActions | undefined;
}

/**
 * Every context live, one row each, and under them the fleet's summary line with
 * what needs doing (or how to define a fleet); f swaps in the whole fleet
 * checklist, N / P the nodes / pods needing attention of every context, C every certificate
 * of the fleet; Enter opens a context.
 */
export function StatusScreen(props: StatusScreenProps) {
  const { store, state, dispatch, names, total, height, width, canStartSandbox, onOpenLogs, certs } = props;
  if (total === 0) return <EmptyFleet canStartSandbox={canStartSandbox} />;
  if (state.detail !== undefined) {
    return <ContextDetail store={store} name={state.detail} state={state} height={height} width={width} onOpenLogs={onOpenLogs} />;
  }
  if (state.view === 'fleet')
    return <FleetPanel store={store} height={height} width={width} isActive={!state.help} onOpenLogs={onOpenLogs} />;
  if (state.view === 'certs')
    return <CertsView store={store} actions={certs} expanded={state.expanded} height={height} width={width} isActive={!state.help} />;
  if (isRowsView(state.view))
    return <FleetRowsView store={store} kind={state.view} state={state} dispatch={dispatch} height={height} width={width} />;
  return <ContextsView store={store} state={state} names={names} total={total} height={height} width={width} />;
}

function ContextsView({
  store,
  state,
  names,
  total,
  height,
  width,
}: Omit<StatusScreenProps, 'canStartSandbox' | 'onOpenLogs' | 'dispatch' | 'certs'>) {
  const theme = useTheme();
  const fleet = useStore(store, (s) => s.fleet);
  const rows = useContextRows(store, names);
  const showFilter = state.filtering || state.filter !== '';
  const room = height - (showFilter ? 1 : 0);
  const tableHeight = names.length === 0 ? 1 : Math.max(2, Math.min(tableLines(rows), room - FLEET_STRIP_MIN));
  return (
    <Box flexDirection="column">
      {showFilter ? <FilterLine filter={state.filter} editing={state.filtering} shown={names.length} total={total} /> : null}
      {names.length === 0 ? (
        <Text dimColor>{theme.text(`No context matches "${state.filter}".`)}</Text>
      ) : (
        <ContextTable rows={rows} withRole={fleet !== undefined} selected={state.selected} height={tableHeight} width={width} />
      )}
      {fleet ? <FleetStrip store={store} fleet={fleet} height={room - tableHeight} width={width} /> : <NoFleetHint />}
    </Box>
  );
}
