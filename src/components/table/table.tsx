import { Box, Text } from 'ink';
import { useRef } from 'react';
import { fit, truncate, useTheme, type ColorRole } from '../theme/index.js';
import { layoutColumns, scrollWindow, type ColumnSpec } from './layout.js';

export interface Column<Row> extends ColumnSpec {
  key: string;
  value: (row: Row) => string;
  color?: (row: Row) => ColorRole | undefined;
  align?: 'left' | 'right';
  /** Where a long value loses characters: at the end (default) or in the middle, for names whose end matters. */
  cut?: 'end' | 'middle';
}

export interface TableProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Index of the highlighted row; -1 for none. */
  selected: number;
  /** Lines available, header included. Rows scroll with the selection. */
  height: number;
  /** Columns available. */
  width: number;
  /** A dim second line under a row (e.g. why it failed), starting under the named column. */
  note?: { column: string; text: (row: Row) => string | undefined; color?: ColorRole };
}

/**
 * Rows under a header, each cell cut with an ellipsis to its column, never
 * wrapped. Only the rows that fit are rendered; the window follows the selection.
 */
export function Table<Row>({ columns, rows, rowKey, selected, height, width, note }: TableProps<Row>) {
  const theme = useTheme();
  const startRef = useRef(0);
  const pointerWidth = 2;
  const cells = rows.map((row) => columns.map((c) => theme.text(c.value(row))));
  const { widths, gap } = layoutColumns(columns, cells, width - pointerWidth);
  const notes = rows.map((row) => (note ? note.text(row) : undefined));
  const heights = notes.map((n) => (n ? 2 : 1));

  const total = heights.reduce((a, b) => a + b, 0);
  const overflow = total > height - 1;
  const budget = Math.max(1, height - 1 - (overflow ? 1 : 0));
  const { start, end } = scrollWindow(heights, selected, budget, startRef.current);
  startRef.current = start;

  const gapText = ' '.repeat(gap);
  const noteIndex = note ? columns.findIndex((c) => c.key === note.column) : -1;
  const noteOffset = pointerWidth + widths.slice(0, Math.max(0, noteIndex)).reduce((a, w) => a + w + gap, 0);

  return (
    <Box flexDirection="column">
      <Text bold>
        {' '.repeat(pointerWidth)}
        {columns.map((c, i) => fit(theme.text(c.header), widths[i] ?? 0, theme.ellipsis, c.align)).join(gapText)}
      </Text>
      {rows.slice(start, end).map((row, offset) => {
        const index = start + offset;
        const isSelected = index === selected;
        const rowNote = notes[index];
        return (
          <Box key={rowKey(row)} flexDirection="column">
            <Text inverse={isSelected} bold={isSelected}>
              <Text color={isSelected ? theme.color('accent') : undefined}>{isSelected ? `${theme.pointer} ` : '  '}</Text>
              {columns.map((c, i) => {
                const role = c.color?.(row);
                return (
                  <Text key={c.key} color={role ? theme.color(role) : undefined}>
                    {fit(cells[index]?.[i] ?? '', widths[i] ?? 0, theme.ellipsis, c.align, c.cut)}
                    {i < columns.length - 1 ? gapText : ''}
                  </Text>
                );
              })}
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
      {overflow ? (
        <Text dimColor>
          {' '.repeat(pointerWidth)}
          {theme.text(`rows ${start + 1}–${end} of ${rows.length}`)}
        </Text>
      ) : null}
    </Box>
  );
}
