import { Text } from 'ink';
import { FitLines } from '../../components/fit/index.js';
import { useTheme } from '../../components/theme/index.js';
import type { DetailLine } from './detail-lines.js';
import { DetailRow } from './detail-row.js';
import type { LineRow } from './fleet/line-rows.js';

export interface CursorLinesProps {
  lines: readonly DetailLine[];
  /** The selected row (its lines are shown inverse); none: a page that only scrolls. */
  row: LineRow | undefined;
  offset: number;
  height: number;
  width: number;
  /** Keys said after "lines 3–9 of 40" when they do not all fit; default "j/k move". */
  keys?: string;
}

/** A page of lines scrolled to `offset`, with a cursor over its rows (the fleet checklist, the certificates) or none (Info). */
export function CursorLines({ lines, row, offset, height, width, keys = 'j/k move' }: CursorLinesProps) {
  const theme = useTheme();
  const selected = (i: number) => row !== undefined && i >= row.start && i < row.end;
  return (
    <FitLines
      lines={lines}
      height={height}
      offset={offset}
      minView={1}
      render={(line, i) =>
        selected(i) ? (
          <Text inverse>
            <DetailRow line={line} width={width} />
          </Text>
        ) : (
          <DetailRow line={line} width={width} />
        )
      }
      marker={(w) => `lines ${w.start + 1}–${w.end} of ${w.total} ${theme.separator} ${keys}`}
    />
  );
}
