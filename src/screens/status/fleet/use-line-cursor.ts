import { useRef, useState } from 'react';
import type { CursorMove } from '../../../components/key-actions/index.js';
import { offsetShowing, type LineRow } from './line-rows.js';

/**
 * A cursor over `rows` of a page of `total` lines shown `view` at a time, moved by the keys (a
 * page is a screenful). The cursor follows its row by id when the lines
 * change (a live checklist), and the page scrolls to keep it in sight.
 */
export function useLineCursor(
  rows: readonly LineRow[],
  total: number,
  view: number,
): { row: LineRow | undefined; offset: number; move: (m: CursorMove) => void } {
  const [id, setId] = useState<string | undefined>(undefined);
  const offsetRef = useRef(0);
  // As of the last key: the second key of a chunk moves from where the first left it.
  const atRef = useRef(0);
  const found = rows.findIndex((r) => r.id === id);
  const index = Math.max(found, 0);
  atRef.current = index;
  const move = (m: CursorMove) => {
    const last = rows.length - 1;
    let at = atRef.current;
    if ('by' in m) at = Math.max(0, Math.min(last, at + m.by));
    else if ('page' in m) at = m.page > 0 ? Math.min(last, rowAfter(rows, at, view)) : Math.max(0, rowBefore(rows, at, view));
    else at = m.to === 'first' ? 0 : last;
    atRef.current = at;
    setId(rows[at]?.id);
  };
  const row = rows[index];
  offsetRef.current = offsetShowing(row, offsetRef.current, view, total);
  return { row, offset: offsetRef.current, move };
}

/** The first row starting a page further down. */
function rowAfter(rows: readonly LineRow[], at: number, view: number): number {
  const from = rows[at]?.start ?? 0;
  const i = rows.findIndex((r) => r.start >= from + view);
  return i < 0 ? rows.length - 1 : i;
}

/** The last row starting a page further up. */
function rowBefore(rows: readonly LineRow[], at: number, view: number): number {
  const from = rows[at]?.start ?? 0;
  for (let i = rows.length - 1; i >= 0; i--) if ((rows[i]?.start ?? 0) <= from - view) return i;
  return 0;
}
