import { useInput } from 'ink';
import { useState } from 'react';
import { splitKeys } from '../../split-keys.js';

/** j/k and arrows move a cursor over `count` rows; page keys by `page`; g/G to the ends. Returns it in range. */
export function useRowCursor(count: number, page: number, isActive: boolean): number {
  const [cursor, setCursor] = useState(0);
  const last = Math.max(0, count - 1);
  useInput(
    (chunk, chunkKey) => {
      const to = (f: (c: number) => number) => setCursor((c) => Math.max(0, Math.min(last, f(Math.min(c, last)))));
      for (const [input, key] of splitKeys(chunk, chunkKey)) {
        if (input === 'j' || key.downArrow) to((c) => c + 1);
        else if (input === 'k' || key.upArrow) to((c) => c - 1);
        else if (key.pageDown || input === ' ') to((c) => c + Math.max(1, page));
        else if (key.pageUp) to((c) => c - Math.max(1, page));
        else if (input === 'g' || key.home) to(() => 0);
        else if (input === 'G' || key.end) to(() => last);
      }
    },
    { isActive },
  );
  return Math.min(cursor, last);
}
