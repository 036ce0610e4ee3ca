import { Box, Text } from 'ink';
import { useMemo, useRef } from 'react';
import { fitCell, truncate, truncateMiddle, useTheme, width as textWidth, type ColorRole, type Theme } from '../theme/index.js';
import { layoutColumns, scrollWindow, splitCell, visibleColumns, type DroppableSpec } from './layout.js';

/** A piece of a cell with its own color, e.g. ", 3 bad" in the warning color after "142". */
export interface CellPart {
  text: string;
  color?: ColorRole | undefined;
}

export interface Column<Row> extends DroppableSpec {
  key: string;
  value: (row: Row) => string;
  color?: (row: Row) => ColorRole | undefined;
  /** The cell in colored pieces; their texts joined must equal `value`. Takes precedence over `color`. */
  parts?: (row: Row) => CellPart[];
  align?: 'left' | 'right';
  /** Where a long value loses characters: at the end (default) or in the middle, for names whose end matters. */
  cut?: 'end' | 'middle';
}

/** The rows shown, for a footer line: `start` to `end` (exclusive) of `total`. */
export interface TableFooter {
  start: number;
  end: number;
  total: number;
  /** Not every row fits. */
  overflow: boolean;
}

export interface TableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Index of the highlighted row; -1 for none. */
  selected: number;
  /** Lines available, header and footer included. Rows scroll with the selection. */
  height: number;
  /** Columns available. */
  width: number;
  /** A dim second line under a row (e.g. why it failed), starting under the named column. */
  note?: { column: string; text: (row: Row) => string | undefined; color?: ColorRole };
  /**
   * The line under the rows; default "rows 3–12 of 40" when not all fit. When
   * given, a line is always kept for it.
   */
  footer?: (view: TableFooter) => string | undefined;
}

/**
 * Rows under a header, each cell cut with an ellipsis to its column, never
 * wrapped. Only the rows that fit are rendered; the window follows the selection.
 * Columns marked `drop` are left out when the content does not fit.
 */
export function Table<Row>({ columns: allColumns, rows, rowKey, selected, height, width, note, footer }: TableProps<Row>) {
  const theme = useTheme();
  const startRef = useRef(0);
  const pointerWidth = 2;
  // Every row's cells and the widths: worked out again when the rows or the room change, not when the selection moves.
  const { columns, cells, widths, gap, notes, heights } = useMemo(() => {
    const cellOf = (c: Column<Row>, row: Row) =>
      c.parts
        ? c
            .parts(row)
            .map((p) => theme.text(p.text))
            .join('')
        : theme.text(c.value(row));
    const allCells = rows.map((row) => allColumns.map((c) => cellOf(c, row)));
    const kept = visibleColumns(allColumns, allCells, width - pointerWidth);
    const columns = kept.flatMap((i) => (allColumns[i] ? [allColumns[i]] : []));
    const cells = allCells.map((row) => kept.map((i) => row[i] ?? ''));
    const notes = rows.map((row) => (note ? note.text(row) : undefined));
    return { columns, cells, ...layoutColumns(columns, cells, width - pointerWidth), notes, heights: notes.map((n) => (n ? 2 : 1)) };
  }, [rows, allColumns, width, theme, note]);

  const total = heights.reduce((a, b) => a + b, 0);
  const overflow = total > height - 1 - (footer ? 1 : 0);
  const budget = Math.max(1, height - 1 - (overflow || footer ? 1 : 0));
  const { start, end } = scrollWindow(heights, selected, budget, startRef.current);
  startRef.current = start;
  const footerText = footer
    ? footer({ start, end, total: rows.length, overflow })
    : overflow
      ? `rows ${start + 1}–${end} of ${rows.length}`
      : undefined;

  const gapText = ' '.repeat(gap);
  const noteIndex = note ? columns.findIndex((c) => c.key === note.column) : -1;
  const noteOffset = pointerWidth + widths.slice(0, Math.max(0, noteIndex)).reduce((a, w) => a + w + gap, 0);

  return (
    <Box flexDirection="column">
      <Text bold>
        {' '.repeat(pointerWidth)}
        {columns.map((c, i) => fitCell(theme.text(c.header), widths[i] ?? 0, theme.ellipsis, c.align)).join(gapText)}
      </Text>
      {rows.slice(start, end).map((row, offset) => {
        const index = start + offset;
        const isSelected = index === selected;
        const rowNote = notes[index];
        return (
          <Box key={rowKey(row)} flexDirection="column">
            <Text inverse={isSelected} bold={isSelected}>
              <Text color={isSelected ? theme.color('accent') : undefined}>{isSelected ? `${theme.pointer} ` : '  '}</Text>
              {columns.map((c, i) => (
                <Text key={c.key}>
                  <Cell column={c} row={row} text={cells[index]?.[i] ?? ''} width={widths[i] ?? 0} theme={theme} />
                  {i < columns.length - 1 ? gapText : ''}
                </Text>
              ))}
            </Text>
            {rowNote ? (
              <Text dimColor color={note?.color ? theme.color(note.color) : undefined}>
                {' '.repeat(noteOffset)}
                {truncate(theme.text(rowNote), Math.max(1, width - noteOffset), theme.ellipsis)}
              </Text>
            ) : null}
          </Box>
        );
      })}
      {footerText !== undefined ? (
        <Text dimColor>
          {' '.repeat(pointerWidth)}
          {truncate(theme.text(footerText), Math.max(1, width - pointerWidth), theme.ellipsis)}
        </Text>
      ) : null}
    </Box>
  );
}

interface CellProps<Row> {
  column: Column<Row>;
  row: Row;
  /** The whole cell text (parts joined), before it is cut. */
  text: string;
  width: number;
  theme: Theme;
}

/** One cell cut and padded to its column; in colored pieces when the column has parts. */
function Cell<Row>({ column: c, row, text, width, theme }: CellProps<Row>) {
  if (!c.parts) {
    const role = c.color?.(row);
    return <Text color={role ? theme.color(role) : undefined}>{fitCell(text, width, theme.ellipsis, c.align, c.cut)}</Text>;
  }
  const parts = c.parts(row);
  const cut = c.cut === 'middle' ? truncateMiddle(text, width, theme.ellipsis) : truncate(text, width, theme.ellipsis);
  const pieces = splitCell(
    cut,
    parts.map((p) => textWidth(theme.text(p.text))),
  );
  const pad = ' '.repeat(Math.max(0, width - textWidth(cut)));
  return (
    <Text>
      {c.align === 'right' ? pad : ''}
      {pieces.map((piece, i) => (
        <Text key={i} color={parts[i]?.color ? theme.color(parts[i].color) : undefined}>
          {piece}
        </Text>
      ))}
      {c.align === 'right' ? '' : pad}
    </Text>
  );
}
