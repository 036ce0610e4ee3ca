import { Box, Text } from 'ink';
import { useTheme } from '../../components/theme/index.js';
import type { LogRow } from './log-window.js';

export interface LogLinesProps {
  rows: readonly LogRow[];
  /** The seq of the current match: its line is bold. */
  match?: number;
  width: number;
  height: number;
}

/** The log's rows, the search term shown inverse in each (and the current match's line bold). */
export function LogLines({ rows, match, width, height }: LogLinesProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {rows.map((r, i) => {
        const current = r.seq === match;
        const parts: { text: string; hit: boolean }[] = [];
        let at = 0;
        for (const [s, e] of r.hits) {
          if (s > at) parts.push({ text: r.text.slice(at, s), hit: false });
          parts.push({ text: r.text.slice(s, e), hit: true });
          at = e;
        }
        if (at < r.text.length || parts.length === 0) parts.push({ text: r.text.slice(at), hit: false });
        return (
          <Text key={i} wrap="truncate" bold={current}>
            {parts.map((p, j) =>
              p.hit ? (
                <Text key={j} inverse color={current ? theme.color('warn') : undefined}>
                  {theme.text(p.text)}
                </Text>
              ) : (
                theme.text(p.text)
              ),
            )}
          </Text>
        );
      })}
    </Box>
  );
}
