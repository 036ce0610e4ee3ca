import { Box, Text } from 'ink';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import { livenessAt, livenessText } from '../../report/rollout/holder.js';
import { recordPlace } from '../../report/rollout/record.js';
import type { HolderView } from '../../rollout/owner-liveness.js';
import { etaMs } from '../../report/rollout/view.js';
import type { RolloutState } from '../../rollout/types.js';
import { clock } from '../../store/selectors.js';
import type { ActionStatus } from '../../store/rollouts.js';
import { guardRailLines, holdLines } from './guard-rails.js';
import { NodeTable } from './node-table.js';
import { ProgressLine } from './progress-line.js';
import { durationText, nodeRows, type RolloutRef } from './rows.js';

export interface RolloutProgressProps {
  target: RolloutRef;
  /** Undefined until the watch delivers it. */
  state: RolloutState | undefined;
  /** Its Lease, as watched (who runs it). */
  /** Who runs it and whether they still do (the feed keeps it current). */
  holder?: HolderView | undefined;
  /** What this screen last started on it (run, resume, abort). */
  action?: ActionStatus | undefined;
  now: number;
  /** Selected node row. */
  row: number;
  /** The line at the bottom: a question or a notice. */
  bottom?: { lines: string[]; tone: ColorRole } | undefined;
  height: number;
  width: number;
}

const PHASE_TONE: Record<string, ColorRole> = {
  Running: 'running',
  Paused: 'warn',
  Completed: 'ok',
  Failed: 'fail',
  Aborted: 'muted',
  Pending: 'pending',
};

/** Who drives the rollout, one line: a live owner, or why the recorded one is not (stale, dead). */
export function ownerText(
  state: RolloutState,
  v: HolderView | undefined,
  action: ActionStatus | undefined,
  now: number,
): string | undefined {
  if (state.phase === 'Completed' || state.phase === 'Aborted') return undefined;
  const here = action && action.state === 'running' && (action.kind === 'run' || action.kind === 'resume');
  const what = v?.legacy ? 'heartbeat' : 'lease renewed';
  const liveness = v ? livenessAt(v, now) : undefined;
  if (v && liveness?.state === 'live') {
    const age = durationText(liveness.renewAgeMs);
    return here ? `run by this fleetdeck, ${v.holder} (${what} ${age} ago)` : `run by ${v.holder} (${what} ${age} ago)`;
  }
  if (here) return 'starting here…';
  if (v && liveness) return `its holder ${v.holder} is ${livenessText(liveness)}: r resumes it here`;
  return 'nobody runs it: r resumes it here';
}

function actionLine(action: ActionStatus | undefined): { text: string; tone: ColorRole } | undefined {
  if (!action) return undefined;
  if (action.state === 'failed') {
    const what = action.kind === 'run' ? 'could not start' : action.kind === 'resume' ? 'could not resume' : 'could not abort';
    return { text: `${what}: ${action.error ?? 'unknown error'}`, tone: 'fail' };
  }
  if (action.kind === 'abort' && action.state === 'running')
    return { text: 'aborting: stopping the rollout, then uncordoning the nodes it cordoned…', tone: 'warn' };
  return undefined;
}

/**
 * A fleetdeck rollout as it runs: what it is, what holds it and who runs it, its guard rails, an overall progress bar with the
 * ETA from the finished nodes, one row per node (the blocking PodDisruptionBudget or the error
 * under it), and the last lines of its log; never taller than `height`.
 */
export function RolloutProgress({ target, state, holder, action, now, row, bottom, height, width }: RolloutProgressProps) {
  const theme = useTheme();
  const line = (text: string, tone?: ColorRole, bold = false, key?: string) => (
    <Text key={key} bold={bold} color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(text), width, theme.ellipsis)}
    </Text>
  );
  const failure = actionLine(action);

  if (!state) {
    return (
      <Box flexDirection="column">
        {line(`${target.name} · ${target.context}`, undefined, true)}
        {failure ? line(failure.text, failure.tone) : line(`waiting for its state (${recordPlace(target.name)})…`, 'muted')}
        {bottom?.lines.map((l, i) => line(l, bottom.tone, true, `b${i}`))}
      </Box>
    );
  }

  const spec = state.spec;
  const done = state.nodes.filter((n) => n.phase === 'done').length;
  const skipped = state.nodes.filter((n) => n.phase === 'skipped').length;
  const total = state.nodes.length;
  const eta = state.phase === 'Running' ? etaMs(state, now) : undefined;
  const owner = ownerText(state, holder, action, now);
  const hold = state.phase === 'Running' ? state.hold : undefined;
  const title = `${spec.name} · ${spec.context} · ${hold ? 'Running · held' : state.phase}`;
  const flags = [spec.drain.force ? '--force' : '', spec.drain.deleteEmptyDirData ? '--delete-emptydir-data' : ''].filter(Boolean);
  const specLine = `replace: ${spec.replace} · ${spec.maxUnavailable} at a time · drain timeout ${durationText(spec.drain.timeoutMs)}${flags.length ? ` · ${flags.join(' ')}` : ''} · health ${spec.health.passes}× ${durationText(spec.health.intervalMs)} apart`;
  const etaText =
    eta === undefined ? (state.phase === 'Running' ? 'ETA after the first node' : '') : eta > 0 ? `ETA ${durationText(eta)}` : '';
  const progress = [`${done}/${total} node${total === 1 ? '' : 's'} done${skipped ? `, ${skipped} skipped` : ''}`, etaText]
    .filter(Boolean)
    .join(' · ');

  const rows = nodeRows(state, now);
  const messages: { text: string; tone?: ColorRole | undefined; bold?: boolean }[] = [
    ...(hold ? holdLines(hold, now).map((h, i) => ({ ...h, bold: i === 0 })) : []),
    state.message ? { text: state.message, tone: PHASE_TONE[state.phase] ?? 'warn' } : undefined,
    failure,
    owner ? { text: owner, tone: 'muted' as ColorRole } : undefined,
  ].filter((m) => m !== undefined);
  const fixed = 3 + messages.length + (bottom?.lines.length ?? 0);
  const tableNeed = 1 + rows.reduce((sum, r) => sum + (r.note ? 2 : 1), 0);
  const wantLog = Math.min(state.log.length, 8);
  // The guard rails in full when the table and 3 lines of log still fit beside them, else on one line.
  const guards = guardRailLines(spec.guards, height - fixed - tableNeed - (wantLog ? 1 + Math.min(wantLog, 3) : 0));
  const avail = Math.max(4, height - fixed - guards.length);
  // The table first (keeping 3 lines of log when there is one), the log gets what is left, up to 8 lines.
  const tableHeight = Math.max(Math.min(tableNeed, 5), Math.min(tableNeed, avail - (wantLog ? 1 + Math.min(wantLog, 3) : 0)));
  const logCount = Math.max(0, Math.min(wantLog, avail - tableHeight - 1));
  const logLines = logCount ? state.log.slice(-logCount) : [];

  return (
    <Box flexDirection="column">
      {line(title, hold ? 'warn' : PHASE_TONE[state.phase], true)}
      {messages.map((m, i) => line(m.text, m.tone, m.bold ?? false, `m${i}`))}
      {line(specLine, 'muted')}
      {guards.map((g, i) => line(g.text, g.tone, false, `g${i}`))}
      <ProgressLine fraction={total ? (done + skipped) / total : 0} label={progress} width={width} />
      <Box height={tableHeight} flexDirection="column" overflow="hidden">
        <NodeTable rows={rows} selected={row} height={tableHeight} width={width} />
      </Box>
      {logLines.length ? line(`Log · last ${logLines.length} of ${state.log.length} lines`, 'muted') : null}
      {logLines.map((l, i) => line(`${clock(Date.parse(l.time))} ${l.message}`, undefined, false, `l${i}`))}
      {bottom?.lines.map((l, i) => line(l, bottom.tone, true, `b${i}`))}
    </Box>
  );
}
