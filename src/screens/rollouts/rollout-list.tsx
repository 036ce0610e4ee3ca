import { Box, Text } from 'ink';
import { Table, type Column } from '../../components/table/index.js';
import { truncate, useTheme, wrap, type ColorRole } from '../../components/theme/index.js';
import type { ContextRollouts } from '../../store/rollouts.js';
import { durationText, timeText, type RolloutRow } from './rows.js';

export interface RolloutListProps {
  rows: readonly RolloutRow[];
  contexts: readonly string[];
  byContext: Readonly<Record<string, ContextRollouts>>;
  selected: number;
  now: number;
  readOnly: boolean;
  height: number;
  width: number;
}

const PHASE_COLOR: Record<string, ColorRole> = {
  Running: 'running',
  InProgress: 'running',
  Pending: 'pending',
  New: 'pending',
  Paused: 'warn',
  Held: 'warn',
  Completed: 'ok',
  Aborted: 'muted',
  Failed: 'fail',
};

function columns(now: number): Column<RolloutRow>[] {
  return [
    { key: 'context', header: 'CONTEXT', min: 8, max: 24, shrink: 2, value: (r) => r.ref.context, cut: 'middle' },
    { key: 'name', header: 'NAME', min: 10, max: 32, shrink: 1, value: (r) => r.ref.name, cut: 'middle' },
    { key: 'by', header: 'BY', min: 5, max: 9, shrink: 3, value: (r) => r.ref.kind, drop: 2 },
    { key: 'phase', header: 'PHASE', min: 7, max: 10, value: (r) => r.phase, color: (r) => PHASE_COLOR[r.phase] },
    {
      key: 'progress',
      header: 'NODES',
      min: 5,
      max: 16,
      align: 'right',
      value: (r) => (r.total ? `${r.done}/${r.total}${r.skipped ? `, ${r.skipped} skipped` : ''}` : '-'),
    },
    { key: 'started', header: 'STARTED', min: 8, max: 16, shrink: 4, value: (r) => timeText(r.started, now), drop: 1 },
    { key: 'eta', header: 'ETA', min: 3, max: 7, align: 'right', value: (r) => (r.eta !== undefined ? durationText(r.eta) : '') },
    {
      key: 'owner',
      header: 'OWNER',
      min: 5,
      max: 30,
      shrink: 5,
      value: (r) => r.owner?.text ?? '',
      color: (r) => (r.owner && r.owner.state !== 'live' ? 'warn' : undefined),
      drop: 3,
    },
  ];
}

/**
 * Every rollout of the dashboard's contexts, fleetdeck's and Navarchos', one row each (a held one
 * `Held`, with why and the nodes it skipped on a line under it); and what keeps the list incomplete.
 */
export function RolloutList({ rows, contexts, byContext, selected, now, readOnly, height, width }: RolloutListProps) {
  const theme = useTheme();
  const listed = contexts.filter((c) => byContext[c]?.listed).length;
  const navarchos = contexts.filter((c) => byContext[c]?.navarchos?.installed);
  const errors = contexts.flatMap((c) => {
    const e = byContext[c]?.error ?? byContext[c]?.navarchos?.error;
    return e ? [`${c}: ${e}`] : [];
  });
  const summary = [
    `Rollouts in ${contexts.length} context${contexts.length === 1 ? '' : 's'}`,
    listed < contexts.length ? `${listed} listed so far` : undefined,
    navarchos.length ? `Navarchos in ${navarchos.join(', ')}` : undefined,
    readOnly ? 'read-only: plans and dry runs only' : undefined,
  ]
    .filter((x) => x !== undefined)
    .join(' · ');
  const errorLines = errors.slice(0, 3);
  const tableHeight = Math.max(3, height - 2 - errorLines.length);

  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {truncate(theme.text(summary), width, theme.ellipsis)}
      </Text>
      {contexts.length === 0 ? (
        <Text>{theme.text('No context to look at: fleetdeck shows the rollouts of the contexts of the Status screen.')}</Text>
      ) : rows.length === 0 ? (
        <Box flexDirection="column">
          {(listed < contexts.length
            ? ['Listing the rollouts…']
            : wrap(
                theme.text(
                  'No rollout yet. Press n to start one: pick nodes by label selector or by name, each with a priority; see the plan and the dry run; then confirm.',
                ),
                width,
              )
          ).map((line, i) => (
            <Text key={i}>{line}</Text>
          ))}
        </Box>
      ) : (
        <Table
          columns={columns(now)}
          rows={rows}
          rowKey={(r) => `${r.ref.context}/${r.ref.kind}/${r.ref.name}`}
          selected={selected}
          height={tableHeight}
          width={width}
          note={{ column: 'context', text: (r) => r.note, color: 'warn' }}
        />
      )}
      {errorLines.map((line, i) => (
        <Text key={i} color={theme.color('warn')} wrap="truncate-end">
          {truncate(theme.text(line), width, theme.ellipsis)}
        </Text>
      ))}
    </Box>
  );
}
