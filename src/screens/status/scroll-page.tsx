import { FitLines, viewSize } from '../../components/fit/index.js';
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
  const offset = useDetailScroll(lines.length, viewSize(lines.length, height, 1), isActive);
  return (
    <FitLines
      lines={lines}
      height={height}
      offset={offset}
      minView={1}
      render={(line) => <DetailRow line={line} width={width} />}
      marker={(w) => `lines ${w.start + 1}–${w.end} of ${w.total} ${theme.separator} j/k scroll`}
    />
  );
}
