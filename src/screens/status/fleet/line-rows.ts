import type { DetailLine } from '../detail-lines.js';

/** A selectable row of a page of lines: an item with its continuation and hint lines, or a table row. */
export interface LineRow {
  id: string;
  /** Its first line, and one past its last. */
  start: number;
  end: number;
}

/**
 * The rows of the fleet page: a check item (its detail continued and its hint belong to it)
 * or a registered cluster's table row; headings, blank lines and table headers are not rows.
 */
export function lineRows(lines: readonly DetailLine[]): LineRow[] {
  const rows: LineRow[] = [];
  let open: LineRow | undefined;
  lines.forEach((line, i) => {
    if (line.kind === 'check' && line.line.kind === 'item') {
      open = { id: line.line.item.id, start: i, end: i + 1 };
      rows.push(open);
    } else if (open && (line.kind === 'more' || (line.kind === 'check' && line.line.kind === 'hint'))) {
      open.end = i + 1;
    } else if (line.kind === 'text' && line.id) {
      open = undefined;
      rows.push({ id: line.id, start: i, end: i + 1 });
    } else {
      open = undefined;
    }
  });
  return rows;
}

/** The scroll offset that shows `row` whole in `view` lines (or its start when it is taller), moving as little as it can from `offset`. */
export function offsetShowing(row: LineRow | undefined, offset: number, view: number, total: number): number {
  const max = Math.max(0, total - view);
  if (!row) return Math.min(offset, max);
  let next = offset;
  if (row.end > next + view) next = row.end - view;
  if (row.start < next) next = row.start;
  return Math.max(0, Math.min(max, next));
}
