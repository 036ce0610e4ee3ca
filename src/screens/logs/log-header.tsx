import { Text } from 'ink';
import { truncate, useTheme } from '../../components/theme/index.js';
import type { LogsSlice, StreamStatus } from '../../store/logs.js';

/** How the streams stand, in one phrase: the worst first. */
export function streamsPhrase(slice: LogsSlice): string {
  if (typeof slice.phase === 'object') return slice.phase.error;
  if (slice.phase === 'resolving') return 'finding the pods…';
  const count = (want: (s: StreamStatus) => boolean) => slice.sources.filter((s) => want(s.status)).length;
  const failed = count((s) => typeof s === 'object');
  const parts = [
    count((s) => s === 'streaming') ? `${count((s) => s === 'streaming')} streaming` : '',
    count((s) => s === 'connecting') ? `${count((s) => s === 'connecting')} connecting` : '',
    count((s) => s === 'ended') ? `${count((s) => s === 'ended')} ended` : '',
    failed ? `${failed} failed` : '',
  ].filter(Boolean);
  return parts.join(', ');
}

const onOff = (on: boolean) => (on ? 'on' : 'off');

export interface LogHeaderProps {
  slice: LogsSlice;
  paused: boolean;
  width: number;
}

/** Three lines: the title and where; the pods and container with how the streams stand; the switches. */
export function LogHeader({ slice, paused, width }: LogHeaderProps) {
  const theme = useTheme();
  const t = slice.target;
  const sep = ` ${theme.separator} `;
  const pods = slice.sources.length === 1 ? slice.sources[0]!.pod : `${slice.sources.length} pods`;
  const restarts = slice.sources.reduce((n, s) => n + s.restarts, 0);
  const container = slice.container ? `${pods}/${slice.container}` : pods;
  const where = [container, restarts ? `${restarts} restarts` : '', streamsPhrase(slice)].filter(Boolean).join(sep);
  const failed = typeof slice.phase === 'object' || slice.sources.some((s) => typeof s.status === 'object');
  const switches = [
    `follow ${onOff(slice.follow)}${paused && slice.follow ? ' (paused: G)' : ''}`,
    `previous ${onOff(slice.previous)}`,
    `wrap ${onOff(slice.wrap)}`,
    `time ${onOff(slice.timestamps)}`,
    slice.containers.length > 1 ? `${slice.containers.length} containers` : '',
  ]
    .filter(Boolean)
    .join(sep);
  return (
    <>
      <Text bold>
        {theme.text(truncate(`${t?.title ?? 'logs'}${sep}${t?.context ?? ''}/${t?.namespace ?? ''}`, width, theme.ellipsis))}
      </Text>
      <Text color={failed ? theme.color('fail') : theme.color('muted')}>{theme.text(truncate(where || ' ', width, theme.ellipsis))}</Text>
      <Text dimColor>{theme.text(truncate(switches, width, theme.ellipsis))}</Text>
    </>
  );
}
