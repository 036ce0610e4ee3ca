import { useInput } from 'ink';
import { useRef, useState } from 'react';
import { splitKeys } from '../../split-keys.js';
import { offsetShowing, type LineRow } from './line-rows.js';

/**
 * j/k and arrows move a cursor over `rows` of a page of `total` lines shown `view` at a time;
 * page keys by a screenful, g/G to the ends. The cursor follows its row by id when the lines
 * change (a live checklist), and the page scrolls to keep it in sight.
 */
export function useLineCursor(
  rows: readonly LineRow[],
  total: number,
  view: number,
  isActive: boolean,
): { row: LineRow | undefined; offset: number } {
  const [id, setId] = useState<string | undefined>(undefined);
  const offsetRef = useRef(0);
  const found = rows.findIndex((r) => r.id === id);
  const index = Math.max(found, 0);
  useInput(
    (chunk, chunkKey) => {
      let at = index;
      for (const [input, key] of splitKeys(chunk, chunkKey)) {
        const last = rows.length - 1;
        if (input === 'j' || key.downArrow) at = Math.min(last, at + 1);
        else if (input === 'k' || key.upArrow) at = Math.max(0, at - 1);
        else if (key.pageDown || input === ' ') at = Math.min(last, rowAfter(rows, at, view));
        else if (key.pageUp) at = Math.max(0, rowBefore(rows, at, view));
        else if (input === 'g' || key.home) at = 0;
        else if (input === 'G' || key.end) at = last;
      }
      if (at !== index) setId(rows[at]?.id);
    },
    { isActive },
  );
  const row = rows[index];
  offsetRef.current = offsetShowing(row, offsetRef.current, view, total);
  return { row, offset: offsetRef.current };
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
