import { useState } from 'react';
import { type CursorMove, moveCursor } from '../../../components/key-actions/index.js';

/** A cursor over `count` rows (a page is `page` rows), kept in range, and the keys' move of it. */
export function useRowCursor(count: number, page: number): { cursor: number; move: (m: CursorMove) => void } {
  const [cursor, setCursor] = useState(0);
  const last = Math.max(0, count - 1);
  return {
    cursor: Math.min(cursor, last),
    move: (m) => setCursor((c) => moveCursor(c, m, count, Math.max(1, page))),
  };
}
