import { useEffect, useState } from 'react';
import { type CursorMove, moveCursor } from '../../components/key-actions/index.js';

/** A view of `lines` lines through `height`: its first line shown, and the keys' move of it (a page is `height`). */
export function useDetailScroll(lines: number, height: number): { offset: number; move: (m: CursorMove) => void } {
  const [offset, setOffset] = useState(0);
  const max = Math.max(0, lines - height);
  useEffect(() => {
    if (offset > max) setOffset(max);
  }, [offset, max]);
  return {
    offset: Math.min(offset, max),
    move: (m) => setOffset((o) => moveCursor(o, m, max + 1, height)),
  };
}
