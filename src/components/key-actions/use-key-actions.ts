import { type Key, useInput } from 'ink';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { HelpSection } from '../help-overlay/index.js';
import type { KeyHint } from '../key-hints/index.js';
import { type KeyBar, type KeyHandler, useGate, useKeyBarContext } from './key-bar.js';
import { actionFor, dangerOf, helpOf, hintsOf, type KeyTable } from './key-table.js';
import { splitKeys } from './split-keys.js';

export interface KeyActionsOptions {
  /** Keys reach the table, and its hints the app's bottom line, while true. */
  active: boolean;
  /** The help overlay's groups while this view is on top (default: the table's own). */
  help?: readonly HelpSection[];
  /** The app's own keys: under every view of this bar, not published (their hints are the result's). */
  under?: KeyBar;
}

export interface KeyActionsResult {
  /** The hint line of the table now. */
  hints: KeyHint[];
  /** The refusal of the last key, until keys typed later (also on the bottom line when published). */
  notice: string | undefined;
}

/**
 * Handles a view's keys from its table (or the table of the state it is in, asked again for
 * every key): a key runs the first action that answers to it; an action marked dangerous is
 * refused under --read-only with the write gate's line. Inside the app's key bar the bar routes
 * the keys, one at a time, to the view on top and then to the app's own; while active, the
 * table's hints and help go to the bar. Outside one, the view takes the terminal's keys itself.
 */
export function useKeyActions<C>(
  tables: KeyTable<C> | ((c: C) => KeyTable<C>),
  context: () => C,
  opts: KeyActionsOptions,
): KeyActionsResult {
  const tableOf = (c: C) => (typeof tables === 'function' ? tables(c) : tables);
  const table = tableOf(context());
  const { active, help, under } = opts;
  const gate = useGate();
  const inside = useKeyBarContext();
  const bar = under ? undefined : inside;
  const id = useMemo(() => Symbol(table.title), [table.title]);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const live = useRef({ tableOf, context, gate, active });
  live.current = { tableOf, context, gate, active };

  const handler = useMemo((): KeyHandler => {
    let shown: string | undefined;
    const say = (line: string | undefined) => {
      if (shown === line) return;
      shown = line;
      setNotice(line);
    };
    return {
      handle(input: string, key: Key) {
        const { tableOf, context, gate, active } = live.current;
        if (!active) return false;
        const c = context();
        const action = actionFor(tableOf(c), c, input, key);
        if (!action?.run) return false;
        const danger = dangerOf(action, c);
        if (danger && gate.readOnly) say(gate.refusal(danger));
        else action.run(c, input, key);
        return true;
      },
      owns: () => live.current.active && live.current.tableOf(live.current.context()).owns === true,
      later: () => say(undefined),
    };
  }, []);

  // Without a bar, the view takes the terminal's keys itself, one key of a chunk at a time.
  useInput(
    (chunk, chunkKey) => {
      handler.later();
      for (const [input, key] of splitKeys(chunk, chunkKey)) handler.handle(input, key);
    },
    { isActive: active && !bar && !under },
  );
  useLayoutEffect(() => {
    if (!under) return;
    under.setBase(handler);
    return () => under.setBase(undefined);
  }, [under, handler]);
  // A refusal left by a view that is no longer active is not shown when it comes back.
  useEffect(() => {
    if (!active) handler.later();
  }, [active, handler]);

  const hints = hintsOf(table, context(), gate.readOnly);
  const signature = JSON.stringify([hints, notice, help?.map((s) => s.title), table.owns]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: published again when what it says changes (the signature)
  useLayoutEffect(() => {
    if (!bar) return;
    const owns = table.owns === true;
    bar.publish(
      id,
      active ? { hints, help: help ?? [helpOf(table, owns)], owns, keys: handler, ...(notice ? { notice } : {}) } : undefined,
    );
  }, [bar, id, active, signature]);
  useLayoutEffect(() => () => bar?.publish(id, undefined), [bar, id]);
  return { hints, notice };
}
