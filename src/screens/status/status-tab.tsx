import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { helpOf, type Live, moveCursor, useLiveReducer } from '../../components/key-actions/index.js';
import { useTheme } from '../../components/theme/index.js';
import type { Actions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { ApprovalsPanel } from '../approvals/approvals-panel.js';
import type { TabScreenProps } from '../tab.js';
import { CertsView } from './certs/certs-view.js';
import { ContextDetail } from './context-detail.js';
import { ContextTable } from './context-table.js';
import { EmptyFleet } from './empty-fleet.js';
import { FilterLine } from './filter-line.js';
import { FleetPanel } from './fleet/fleet-panel.js';
import { FLEET_STRIP_MIN, FleetStrip, NoFleetHint } from './fleet/fleet-strip.js';
import { FleetRowsView } from './fleet-rows/fleet-rows-view.js';
import { CONTEXTS_KEYS, EMPTY_KEYS, ROWS_KEYS } from './keys.js';
import { initialStatusNav, isRowsView, type StatusAction, type StatusNav, statusReducer } from './status-nav.js';
import { type StatusKeysBase, StatusKeysProvider, useStatusKeys } from './use-status-keys.js';
import { tableLines, useContextRows } from './use-context-rows.js';

/** Context names matching a name filter (case-insensitive substring), in display order. */
export function filterNames(order: readonly string[], filter: string): string[] {
  const f = filter.trim().toLowerCase();
  return f ? order.filter((n) => n.toLowerCase().includes(f)) : [...order];
}

/**
 * Every context live, one row each, and under them the fleet's summary line with
 * what needs doing (or how to define a fleet); f swaps in the whole fleet
 * checklist, N / P the nodes / pods needing attention of every context, C every certificate
 * of the fleet; Enter opens a context; A the approvals of its CertificateSigningRequests.
 */
export function StatusTab({ store, actions, width, height, active }: TabScreenProps) {
  const [nav, live] = useLiveReducer(statusReducer, initialStatusNav);
  const order = useStore(
    store,
    useShallow((s) => s.status.order),
  );
  const names = useMemo(() => filterNames(order, nav.filter), [order, nav.filter]);
  const approvals = useStore(store, (s) => s.approvals.context !== undefined) && actions.approvals !== undefined;
  const base: StatusKeysBase = {
    nav: live,
    store,
    actions,
    names: () => filterNames(store.getState().status.order, live.get().filter),
  };
  const viewActive = active && !approvals;
  if (approvals && actions.approvals)
    return <ApprovalsPanel store={store} actions={actions.approvals} active={active} height={height} width={width} />;
  return (
    <StatusKeysProvider value={base}>
      <StatusView
        store={store}
        actions={actions}
        nav={nav}
        live={live}
        names={names}
        total={order.length}
        active={viewActive}
        height={height}
        width={width}
      />
    </StatusKeysProvider>
  );
}

interface StatusViewProps {
  store: FleetStore;
  actions: Actions;
  nav: StatusNav;
  live: Live<StatusNav, StatusAction>;
  names: readonly string[];
  total: number;
  active: boolean;
  height: number;
  width: number;
}

/** The view the navigation is on. */
function StatusView({ store, actions, nav, live, names, total, active, height, width }: StatusViewProps) {
  const onOpenLogs = actions.logs?.openLogs;
  if (total === 0) return <Empty canStartSandbox={actions.sandbox !== undefined} active={active} />;
  if (nav.detail !== undefined) {
    return (
      <ContextDetail store={store} name={nav.detail} state={nav} active={active} height={height} width={width} onOpenLogs={onOpenLogs} />
    );
  }
  if (nav.view === 'fleet') return <FleetPanel store={store} height={height} width={width} isActive={active} onOpenLogs={onOpenLogs} />;
  if (nav.view === 'certs')
    return <CertsView store={store} actions={actions.certs} expanded={nav.expanded} height={height} width={width} isActive={active} />;
  if (isRowsView(nav.view))
    return <FleetRowsView store={store} kind={nav.view} state={nav} nav={live} active={active} height={height} width={width} />;
  return <ContextsView store={store} nav={nav} live={live} names={names} total={total} active={active} height={height} width={width} />;
}

function Empty({ canStartSandbox, active }: { canStartSandbox: boolean; active: boolean }) {
  useStatusKeys(EMPTY_KEYS, () => ({}), active);
  return <EmptyFleet canStartSandbox={canStartSandbox} />;
}

/** A page of the contexts table (PgUp / PgDn). */
const PAGE = 10;

function ContextsView({ store, nav, live, names, total, active, height, width }: Omit<StatusViewProps, 'actions'>) {
  const theme = useTheme();
  const fleet = useStore(store, (s) => s.fleet);
  const rows = useContextRows(store, names);
  useStatusKeys(
    CONTEXTS_KEYS,
    () => ({
      move: (m) => {
        const count = filterNames(store.getState().status.order, live.get().filter).length;
        live.dispatch({ type: 'moveTo', index: moveCursor(live.get().selected, m, count, PAGE), count });
      },
    }),
    active,
    [helpOf(CONTEXTS_KEYS), helpOf(ROWS_KEYS)],
  );
  const showFilter = nav.filtering || nav.filter !== '';
  const room = height - (showFilter ? 1 : 0);
  const tableHeight = names.length === 0 ? 1 : Math.max(2, Math.min(tableLines(rows), room - FLEET_STRIP_MIN));
  return (
    <Box flexDirection="column">
      {showFilter ? <FilterLine filter={nav.filter} editing={nav.filtering} shown={names.length} total={total} /> : null}
      {names.length === 0 ? (
        <Text dimColor>{theme.text(`No context matches "${nav.filter}".`)}</Text>
      ) : (
        <ContextTable rows={rows} withRole={fleet !== undefined} selected={nav.selected} height={tableHeight} width={width} />
      )}
      {fleet ? <FleetStrip store={store} fleet={fleet} height={room - tableHeight} width={width} /> : <NoFleetHint />}
    </Box>
  );
}
