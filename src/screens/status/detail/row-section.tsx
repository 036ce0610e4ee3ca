import type { SectionView } from './section-props.js';
import { Box, Text } from 'ink';
import { Table, type Column, type TableFooter } from '../../../components/table/index.js';
import { truncate, useTheme } from '../../../components/theme/index.js';
import { ROWS_KEYS } from '../keys.js';
import { useStatusKeys } from '../use-status-keys.js';
import { FilterLine } from '../filter-line.js';
import { PANE_HEAD, paneLines, RowPane, type Pane } from './row-pane.js';
import { useRowCursor } from './use-row-cursor.js';

export interface RowSectionProps<Row> extends SectionView {
  /** Rows after the filter. */
  rows: readonly Row[];
  /** How many rows there are before the filter. */
  total: number;
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  note?: { column: string; text: (row: Row) => string | undefined; color?: 'fail' | 'warn' };
  footer: (view: TableFooter) => string | undefined;
  /** The selected row in full, shown under the table when `expanded`. */
  pane: (row: Row) => Pane;
  /** Dim lines above the table (counts by phase, and such). */
  top?: readonly string[];
  /** Said instead of the table when there is no row at all. */
  empty: string;
  /** `l` on the selected row (its log). */
  onLogs?: ((row: Row) => void) | undefined;
}

/** A section of an open context: a few lines of counts, a filterable table with a cursor, the selected row in full. */
export function RowSection<Row>(props: RowSectionProps<Row>) {
  const {
    rows,
    total,
    columns,
    rowKey,
    note,
    footer,
    pane,
    top = [],
    empty,
    filter,
    filtering,
    expanded,
    height,
    width,
    isActive,
    onLogs,
  } = props;
  const theme = useTheme();
  const showFilter = filtering || filter !== '';
  const room = Math.max(2, height - top.length - (showFilter ? 1 : 0));
  const { cursor, move } = useRowCursor(rows.length, Math.max(1, room - 3));
  const selectedRow = rows[cursor];
  useStatusKeys(ROWS_KEYS, () => ({ move, logs: onLogs && selectedRow !== undefined ? () => onLogs(selectedRow) : undefined }), isActive);
  const paneData = expanded && selectedRow !== undefined ? pane(selectedRow) : undefined;
  const paneHeight = paneData ? Math.min(PANE_HEAD + paneLines(paneData, width).length, Math.max(PANE_HEAD + 1, Math.floor(room / 2))) : 0;
  const tableHeight = Math.max(2, room - paneHeight);
  return (
    <Box flexDirection="column">
      {top.length > 0 ? <Text dimColor>{top.map((line) => truncate(theme.text(line), width, theme.ellipsis)).join('\n')}</Text> : null}
      {showFilter ? <FilterLine filter={filter} editing={filtering} shown={rows.length} total={total} /> : null}
      {total === 0 ? (
        <Text>{theme.text(empty)}</Text>
      ) : rows.length === 0 ? (
        <Text dimColor>{theme.text(`Nothing matches "${filter}".`)}</Text>
      ) : (
        <Table
          columns={columns}
          rows={rows}
          rowKey={rowKey}
          selected={cursor}
          height={tableHeight}
          width={width}
          footer={footer}
          {...(note ? { note } : {})}
        />
      )}
      {paneData ? <RowPane pane={paneData} height={paneHeight} width={width} /> : null}
    </Box>
  );
}
