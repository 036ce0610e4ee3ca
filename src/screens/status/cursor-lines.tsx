import { Text } from 'ink';
import { FitLines } from '../../components/fit/index.js';
import { useTheme } from '../../components/theme/index.js';
import type { DetailLine } from './detail-lines.js';
import { DetailRow } from './detail-row.js';
import type { LineRow } from './fleet/line-rows.js';

/** Columns of the pointer's gutter ("❯ ", "> " in ASCII), as the tables have. */
export const POINTER_WIDTH = 2;

export interface CursorLinesProps {
  lines: readonly DetailLine[];
  /** The selected row (its lines are shown inverse); none: a page that only scrolls. */
  row: LineRow | undefined;
  offset: number;
  height: number;
  width: number;
  /** Keys said after "lines 3–9 of 40" when they do not all fit; default "j/k move". */
  keys?: string;
  /**
   * A gutter of POINTER_WIDTH columns, the pointer in it on the selected row's first line, so the
   * selection shows without colour (NO_COLOR, --no-color); `lines` are then laid out that much narrower.
   */
  pointer?: boolean;
}

/** A page of lines scrolled to `offset`, with a cursor over its rows (the fleet checklist, the certificates) or none (Info). */
export function CursorLines({ lines, row, offset, height, width, keys = 'j/k move', pointer = false }: CursorLinesProps) {
  const theme = useTheme();
  const selected = (i: number) => row !== undefined && i >= row.start && i < row.end;
  const gutter = pointer ? POINTER_WIDTH : 0;
  const lead = (i: number) => {
    if (!pointer) return null;
    const first = row !== undefined && i === row.start;
    return <Text color={first ? theme.color('accent') : undefined}>{first ? `${theme.pointer} ` : ' '.repeat(gutter)}</Text>;
  };
  return (
    <FitLines
      lines={lines}
      height={height}
      offset={offset}
      minView={1}
      render={(line, i) => (
        // Cut, never wrapped: a line laid out for the width stays one line with the gutter before it.
        <Text inverse={selected(i)} wrap="truncate-end">
          {lead(i)}
          <DetailRow line={line} width={width - gutter} />
        </Text>
      )}
      marker={(w) => `${' '.repeat(gutter)}lines ${w.start + 1}–${w.end} of ${w.total} ${theme.separator} ${keys}`}
    />
  );
}
