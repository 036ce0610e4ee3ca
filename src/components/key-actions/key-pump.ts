/**
 * Keys typed quickly arrive together ("/qa", "\rn", "2j" over SSH): the pump hands the key bar
 * one key at a time, the next only once what the one before did is on screen — a view it opened
 * is the one the next key reaches, a tab it switched to takes the next.
 */
import { type Key, useInput } from 'ink';
import { useLayoutEffect, useRef, useState } from 'react';
import type { KeyBar } from './key-bar.js';
import { splitKeys } from './split-keys.js';

export function useKeyPump(bar: KeyBar): void {
  const queue = useRef<[string, Key][]>([]);
  const [turn, setTurn] = useState(0);
  const step = () => {
    const next = queue.current.shift();
    if (!next) return;
    bar.route(next[0], next[1]);
    // The next key after the commit this one caused (the views it mounted have registered by then).
    if (queue.current.length) setTurn((t) => t + 1);
  };
  const live = useRef(step);
  live.current = step;
  useInput((chunk, key) => {
    const idle = queue.current.length === 0;
    bar.later();
    queue.current.push(...splitKeys(chunk, key));
    if (idle) live.current();
  });
  // After the commit of the key before; in a task of its own, so a long paste is not one nested update.
  useLayoutEffect(() => {
    if (turn > 0) queueMicrotask(() => live.current());
  }, [turn]);
}
