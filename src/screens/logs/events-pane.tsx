import { Box, Text } from 'ink';
import { truncate, useTheme } from '../../components/theme/index.js';
import { ago } from '../../report/relative-time.js';
import type { LogEvent } from '../../store/logs.js';
import { hardWrap } from './log-window.js';

export interface EventsPaneProps {
  events: readonly LogEvent[];
  error?: string;
  /** The object they are about, e.g. `Pod nova-scheduler-59d-x3`. */
  about: string;
  width: number;
  height: number;
}

/** The target object's recent Events, newest first: reason, count and age, then the message wrapped; what does not fit is cut. */
export function EventsPane({ events, error, about, width, height }: EventsPaneProps) {
  const theme = useTheme();
  const rows: { text: string; warn: boolean; head: boolean }[] = [];
  const now = Date.now();
  for (const e of events) {
    const warn = e.type === 'Warning';
    rows.push({ text: `${e.reason}${e.count > 1 ? ` ×${e.count}` : ''} ${ago(e.lastSeen, now)}`, warn, head: true });
    for (const piece of hardWrap(`  ${e.message}`, width)) rows.push({ text: piece, warn, head: false });
  }
  const body = error ? [{ text: error, warn: true, head: false }] : rows.length ? rows : [{ text: 'no Events', warn: false, head: false }];
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      <Text bold>{theme.text(truncate(`Events of ${about}`, width, theme.ellipsis))}</Text>
      {body.slice(0, Math.max(0, height - 1)).map((r, i) => (
        <Text key={i} bold={r.head} color={r.warn ? theme.color('warn') : undefined} dimColor={!r.head && !r.warn}>
          {theme.text(truncate(r.text, width, theme.ellipsis))}
        </Text>
      ))}
    </Box>
  );
}
