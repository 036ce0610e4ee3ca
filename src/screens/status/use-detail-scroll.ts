import { useInput } from 'ink';
import { useEffect, useState } from 'react';
import { splitKeys } from '../split-keys.js';

/** j/k, arrows, page keys, g/G scroll a view of `lines` lines through `height`. */
export function useDetailScroll(lines: number, height: number, isActive: boolean): number {
  const [offset, setOffset] = useState(0);
  const max = Math.max(0, lines - height);
  useEffect(() => {
    if (offset > max) setOffset(max);
  }, [offset, max]);
  useInput(
    (chunk, chunkKey) => {
      const by = (d: number) => setOffset((o) => Math.max(0, Math.min(max, o + d)));
      for (const [input, key] of splitKeys(chunk, chunkKey)) {
        if (input === 'j' || key.downArrow) by(1);
        else if (input === 'k' || key.upArrow) by(-1);
        else if (key.pageDown || input === ' ') by(height);
        else if (key.pageUp) by(-height);
        else if (input === 'g' || key.home) setOffset(0);
        else if (input === 'G' || key.end) setOffset(max);
      }
    },
    { isActive },
  );
  return Math.min(offset, max);
}
