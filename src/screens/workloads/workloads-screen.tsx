import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { Checklist } from '../../components/checklist/index.js';
import { useKeyActions, useLiveReducer } from '../../components/key-actions/index.js';
import { type Column, Table } from '../../components/table/index.js';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import type { WorkloadRow } from '../../placement/rows.js';
import { clustersCell, placedBy } from '../../report/workloads.js';
import type { Actions, WorkloadsActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { clock } from '../../store/selectors.js';
import { visibleWorkloads, workloadKey } from '../../store/workloads.js';
import { useAppCommands } from '../keys/app-commands.js';
import { FilterLine } from '../status/filter-line.js';
import { EXPLAIN_KEYS, WORKLOADS_FILTER_KEYS, WORKLOADS_KEYS } from './keys.js';
import { initialWorkloadsNav, workloadsReducer } from './nav.js';
import type { HelpSection } from '../../components/help-overlay/index.js';

export interface WorkloadsScreenProps {
  store: FleetStore;
  actions: WorkloadsActions;
  logs: Actions['logs'];
  active: boolean;
  width: number;
  height: number;
  /** The help overlay's groups: the tab's key tables (its registry entry). */
  help: readonly HelpSection[];
}

const TONE: Record<WorkloadRow['state'], ColorRole | undefined> = {
  pending: 'fail',
  orphaned: 'fail',
  drifted: 'warn',
  moving: 'warn',
  placed: undefined,
  divided: undefined,
  duplicated: undefined,
};

const COLUMNS: readonly Column<WorkloadRow>[] = [
  { key: 'ns', header: 'NAMESPACE', min: 6, max: 20, shrink: 2, drop: 3, value: (r) => r.namespace ?? '' },
  { key: 'name', header: 'NAME', min: 10, shrink: 1, cut: 'middle', value: (r) => `${r.kind.toLowerCase()}/${r.name}` },
  { key: 'by', header: 'PLACED BY', min: 6, max: 24, shrink: 3, drop: 2, value: placedBy },
  { key: 'clusters', header: 'CLUSTERS', min: 8, shrink: 2, value: clustersCell },
  { key: 'ready', header: 'READY', min: 5, align: 'right', drop: 1, value: (r) => (r.desired === null ? '-' : `${r.ready}/${r.desired}`) },
  { key: 'state', header: 'STATE', min: 7, value: (r) => r.state, color: (r) => TONE[r.state] },
];

/**
 * The Workloads tab: every workload of the fleet's control plane, one row each — how it is
 * placed, the clusters its copies run in with their ready replicas, its state — read every few
 * seconds while shown; filter (/), sort (s), Enter for its placement checklist, l for its logs.
 */
export function WorkloadsScreen({ store, actions, logs, active, width, height, help }: WorkloadsScreenProps) {
  const theme = useTheme();
  const app = useAppCommands();
  const [nav, live] = useLiveReducer(workloadsReducer, initialWorkloadsNav);
  const slice = useStore(store, (s) => s.workloads);
  const rows = useMemo(() => visibleWorkloads(slice.rows, nav.filter, nav.sort), [slice.rows, nav.filter, nav.sort]);
  // Stop reading when the tab is left (the next show reads again).
  useEffect(() => () => actions.hide(), [actions]);
  const open = slice.open;
  const filterLine = nav.typing || nav.filter !== '';
  const notes = [slice.error ? `last read failed: ${slice.error}` : '', ...slice.unread.map((u) => `not read: ${u}`)]
    .filter(Boolean)
    .slice(0, 2);
  const body = Math.max(3, height - 1 - (filterLine ? 1 : 0) - notes.length);
  const table = nav.typing ? WORKLOADS_FILTER_KEYS : open ? EXPLAIN_KEYS : WORKLOADS_KEYS;
  const checklistLines = open ? open.items.reduce((n, i) => n + 1 + (i.hint ? 1 : 0) + (i.children?.length ?? 0) * 2, 0) : 0;
  useKeyActions(
    table,
    () => ({ app, nav: live, actions, logs, rows: () => rows, page: Math.max(1, body - 2), maxScroll: Math.max(0, checklistLines - body) }),
    {
      active,
      help,
    },
  );

  const source = slice.source;
  if (source && 'error' in source) return <Text wrap="wrap">{theme.text(source.error)}</Text>;
  const counts = (['pending', 'orphaned', 'drifted', 'moving'] as const)
    .map((s) => [s, slice.rows.filter((r) => r.state === s).length] as const)
    .filter(([, n]) => n > 0);
  const head = [
    source ? `Workloads of ${source.context}` : 'Workloads',
    `${slice.rows.length} object${slice.rows.length === 1 ? '' : 's'}`,
    ...counts.map(([s, n]) => `${n} ${s}`),
    slice.at ? `read ${clock(slice.at)}` : 'reading…',
    open ? '' : `sorted by ${nav.sort}`,
  ].filter(Boolean);
  return (
    <Box flexDirection="column" width={width}>
      <Text bold color={theme.color(counts.length ? 'warn' : 'accent')} wrap="truncate-end">
        {truncate(theme.text(head.join(` ${theme.separator} `)), width, theme.ellipsis)}
      </Text>
      {notes.map((n) => (
        <Text key={n} color={theme.color('warn')} wrap="truncate-end">
          {truncate(theme.text(n), width, theme.ellipsis)}
        </Text>
      ))}
      {open ? (
        <Box flexDirection="column">
          <Text bold wrap="truncate-end">
            {truncate(theme.text(open.title), width, theme.ellipsis)}
          </Text>
          <Checklist items={open.items} width={width} height={body - 1} offset={nav.scroll} />
        </Box>
      ) : slice.rows.length === 0 && slice.at ? (
        <Text dimColor>
          {theme.text('No workloads in the control plane yet: apply some (kubectl --context <control plane> apply -f …).')}
        </Text>
      ) : (
        <Table
          columns={COLUMNS}
          rows={rows}
          rowKey={workloadKey}
          selected={Math.min(nav.selected, rows.length - 1)}
          height={body}
          width={width}
        />
      )}
      {filterLine && !open ? <FilterLine filter={nav.filter} editing={nav.typing} shown={rows.length} total={slice.rows.length} /> : null}
    </Box>
  );
}
