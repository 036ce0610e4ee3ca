import { Box, Text } from 'ink';
import { truncate, useTheme, type ColorRole } from '../../components/theme/index.js';
import type { NavarchosState } from '../../kube/navarchos/objects.js';
import { NodeTable } from './node-table.js';
import { ProgressLine } from './progress-line.js';
import { durationText, navarchosEtaMs, replacementRows, replacementsOf, timeText, type RolloutRef } from './rows.js';

export interface NavarchosProgressProps {
  target: RolloutRef;
  navarchos: NavarchosState | undefined;
  now: number;
  row: number;
  bottom?: { lines: string[]; tone: ColorRole } | undefined;
  height: number;
  width: number;
}

const PHASE_TONE: Record<string, ColorRole> = { New: 'pending', InProgress: 'running', Completed: 'ok', Failed: 'fail' };

/**
 * A Navarchos NodeRollout, from its NodeReplacements as the controller records them: one row
 * per node (priority, phase, the node's pods, evicted, ignored, failed — the failed pods'
 * reasons under it — and the completion time), and the overall progress with an ETA.
 */
export function NavarchosProgress({ target, navarchos, now, row, bottom, height, width }: NavarchosProgressProps) {
  const theme = useTheme();
  const line = (text: string, tone?: ColorRole, bold = false, key?: string) => (
    <Text key={key} bold={bold} color={tone ? theme.color(tone) : undefined} dimColor={tone === 'muted'} wrap="truncate-end">
      {truncate(theme.text(text), width, theme.ellipsis)}
    </Text>
  );
  const rollout = navarchos?.rollouts.find((r) => r.name === target.name);
  if (!rollout) {
    return (
      <Box flexDirection="column">
        {line(`NodeRollout ${target.name} · ${target.context}`, undefined, true)}
        {line(
          navarchos?.synced ? 'not found: it was deleted, or is not created yet' : 'waiting for the NodeRollouts of this context…',
          'muted',
        )}
        {bottom?.lines.map((l, i) => line(l, bottom.tone, true, `b${i}`))}
      </Box>
    );
  }
  const replacements = replacementsOf(navarchos, rollout.name);
  const rows = replacementRows(replacements, now);
  const total = Math.max(rollout.replacementsCreated, replacements.length);
  const done = Math.max(rollout.replacementsCompleted, replacements.filter((r) => r.phase === 'Completed').length);
  const eta = rollout.phase === 'Completed' ? undefined : navarchosEtaMs(rollout, replacements, now);
  const targets = rollout.targets.map((t) => `${t.kind === 'node' ? 'node ' : ''}${t.target} (${t.priority})`).join(', ');
  const when = [
    rollout.createdAt ? `created ${timeText(Date.parse(rollout.createdAt), now)}` : '',
    rollout.completionTimestamp ? `completed ${timeText(Date.parse(rollout.completionTimestamp), now)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const progress = [
    total ? `${done}/${total} replacements completed` : 'no NodeReplacement yet',
    eta !== undefined && eta > 0 ? `ETA ${durationText(eta)}` : rollout.phase !== 'Completed' && total ? 'ETA after the first node' : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const fixed = 4 + (bottom?.lines.length ?? 0);
  const tableHeight = Math.max(4, height - fixed);

  return (
    <Box flexDirection="column">
      {line(`NodeRollout ${rollout.name} · ${target.context} · ${rollout.phase}`, PHASE_TONE[rollout.phase], true)}
      {line(`driven by the Navarchos controller · targets: ${targets || 'none'}${when ? ` · ${when}` : ''}`, 'muted')}
      <ProgressLine fraction={total ? done / total : 0} label={progress} width={width} />
      {navarchos?.error ? line(navarchos.error, 'warn') : line('NodeReplacements (one node at a time, highest priority first):', 'muted')}
      {rows.length ? (
        <Box height={tableHeight} flexDirection="column" overflow="hidden">
          <NodeTable rows={rows} selected={row} height={tableHeight} width={width} pods />
        </Box>
      ) : (
        line('The controller has not created any NodeReplacement for it yet.', 'muted')
      )}
      {bottom?.lines.map((l, i) => line(l, bottom.tone, true, `b${i}`))}
    </Box>
  );
}
