import { useInput } from 'ink';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { HelpSection } from '../help-overlay/index.js';
import type { KeyHint } from '../key-hints/index.js';
import { useGate, useKeyBarContext } from './key-bar.js';
import { actionFor, dangerOf, helpOf, hintsOf, type KeyTable } from './key-table.js';
import { splitKeys } from './split-keys.js';

export interface KeyActionsOptions {
  /** Keys reach the table, and its hints the app's bottom line, while true. */
  active: boolean;
  /** The help overlay's groups while this view is on top (default: the table's own). */
  help?: readonly HelpSection[];
  /** Publish the hints to the app's bottom line (default true; false for the app's own keys). */
  publish?: boolean;
}

export interface KeyActionsResult {
  /** The hint line of the table now. */
  hints: KeyHint[];
  /** The refusal of the last key, until the next key (also on the bottom line when published). */
  notice: string | undefined;
}

/**
 * Handles a view's keys from its table (or the table of the state it is in, asked again for
 * every key): each key of a chunk (keys typed quickly arrive
 * together) runs the first action that answers to it and applies now; an action marked
 * dangerous is refused under --read-only with the write gate's line. `context` is read for
 * every key, so the second key of a chunk sees what the first did. While active, the table's
 * hints and help go to the app's key bar.
 */
export function useKeyActions<C>(
  tables: KeyTable<C> | ((c: C) => KeyTable<C>),
  context: () => C,
  opts: KeyActionsOptions,
): KeyActionsResult {
  const tableOf = (c: C) => (typeof tables === 'function' ? tables(c) : tables);
  const table = tableOf(context());
  const { active, help, publish = true } = opts;
  const gate = useGate();
  const bar = useKeyBarContext();
  const id = useMemo(() => Symbol(table.title), [table.title]);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const live = useRef({ tableOf, context, notice });
  live.current = { tableOf, context, notice };

  useInput(
    (chunk, chunkKey) => {
      for (const [input, key] of splitKeys(chunk, chunkKey)) {
        const now = live.current;
        const c = now.context();
        if (now.notice !== undefined) {
          now.notice = undefined;
          setNotice(undefined);
        }
        const action = actionFor(now.tableOf(c), c, input, key);
        if (!action?.run) continue;
        const danger = dangerOf(action, c);
        if (danger && gate.readOnly) {
          const line = gate.refusal(danger);
          now.notice = line;
          setNotice(line);
          continue;
        }
        action.run(c, input, key);
      }
    },
    { isActive: active },
  );

  const hints = hintsOf(table, context(), gate.readOnly);
  const signature = JSON.stringify([hints, notice, help?.map((s) => s.title), table.owns]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: published again when what it says changes (the signature)
  useLayoutEffect(() => {
    if (!bar || !publish) return;
    bar.publish(
      id,
      active ? { hints, help: help ?? [helpOf(table)], owns: table.owns === true, ...(notice ? { notice } : {}) } : undefined,
    );
  }, [bar, id, active, publish, signature]);
  useLayoutEffect(() => () => bar?.publish(id, undefined), [bar, id]);
  return { hints, notice };
}
