import { Box, Text } from 'ink';
import { useTheme } from '../../components/theme/index.js';
import type { DetailLine } from './detail-lines.js';
import { DetailRow } from './detail-row.js';
import { useDetailScroll } from './use-detail-scroll.js';

export interface ScrollPageProps {
  lines: readonly DetailLine[];
  height: number;
  width: number;
  /** j/k and the page keys scroll it. */
  isActive: boolean;
}

/** Lines that scroll when taller than `height`, with "lines 3–19 of 40" under them then. */
export function ScrollPage({ lines, height, width, isActive }: ScrollPageProps) {
  const theme = useTheme();
  const overflow = lines.length > height;
  const view = overflow ? Math.max(1, height - 1) : height;
  const offset = useDetailScroll(lines.length, view, isActive);
  const shown = lines.slice(offset, offset + view);
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => (
        <DetailRow key={offset + i} line={line} width={width} />
      ))}
      {overflow ? (
        <Text dimColor>{theme.text(`lines ${offset + 1}–${offset + shown.length} of ${lines.length} ${theme.separator} j/k scroll`)}</Text>
      ) : null}
    </Box>
  );
}
