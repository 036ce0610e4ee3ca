/**
 * The Day 2 page's keys (it owns the keyboard while shown): on the menu j/k or ↑/↓ move, enter
 * chooses (an operation with an input asks for it first, its default filled in), esc leaves;
 * on a plan enter confirms (refused under --read-only), esc goes back; while a run is under way
 * only ctrl-c (quit); once it ended enter or esc go back to the menu. q quits outside an input;
 * ? (help) and Tab / Shift-Tab (next / previous tab) work as on every page, except while an input is typed.
 */
import { useInput } from 'ink';
import { useState } from 'react';
import type { Day2Actions } from '../../store/actions.js';
import type { Day2Slice } from '../../store/day2.js';

/** The input being typed: which operation, which of its inputs. */
export interface Day2Editing {
  id: string;
  key: string;
  label: string;
  value: string;
}

export interface Day2KeyOptions {
  active: boolean;
  onLeave: () => void;
  onQuit: () => void;
  /** ? : the app's help. */
  onHelp?: (() => void) | undefined;
  /** Tab / Shift-Tab: the next / previous tab (the page stays open under it). */
  onCycleTab?: ((delta: 1 | -1) => void) | undefined;
}

export function useDay2Keys(slice: Day2Slice, actions: Day2Actions, opts: Day2KeyOptions) {
  const [cursor, setCursor] = useState(0);
  const [editing, setEditing] = useState<Day2Editing | undefined>(undefined);
  const { stage, entries } = slice;
  const choose = () => {
    const entry = entries[Math.min(cursor, entries.length - 1)];
    if (!entry || entry.unavailable) return;
    const input = entry.inputs[0];
    if (input) setEditing({ id: entry.id, key: input.key, label: input.label, value: input.default });
    else actions.plan(entry.id, {});
  };
  useInput(
    (input, key) => {
      if (key.ctrl && input === 'c') return opts.onQuit();
      if (editing) {
        if (key.escape) setEditing(undefined);
        return;
      }
      if (input === '?') return opts.onHelp?.();
      if (key.tab) return opts.onCycleTab?.(key.shift ? -1 : 1);
      if (stage.stage === 'running') return;
      if (input === 'q') return opts.onQuit();
      if (stage.stage === 'menu') {
        if (key.escape) opts.onLeave();
        else if (input === 'j' || key.downArrow) setCursor((c) => Math.min(c + 1, entries.length - 1));
        else if (input === 'k' || key.upArrow) setCursor((c) => Math.max(c - 1, 0));
        else if (key.return) choose();
        return;
      }
      if (stage.stage === 'plan' && key.return) return actions.run();
      if (key.escape || (stage.stage === 'done' && key.return)) actions.back();
    },
    { isActive: opts.active },
  );
  const submit = (value: string) => {
    if (!editing) return;
    setEditing(undefined);
    actions.plan(editing.id, { [editing.key]: value.trim() });
  };
  return { cursor: Math.min(cursor, Math.max(0, entries.length - 1)), editing, submit };
}

/** The keys line of what is on the page. */
export function day2KeyLine(slice: Day2Slice, editing: boolean): string {
  if (editing) return 'enter plan · esc cancel · ctrl-c quit';
  switch (slice.stage.stage) {
    case 'menu':
      return 'j/k move · enter choose · esc back · ? help · q quit';
    case 'planning':
      return 'planning… · esc back';
    case 'plan':
      return slice.stage.todo && !slice.stage.refused ? 'enter confirm: run it · esc back · q quit' : 'esc back · q quit';
    case 'running':
      return 'running… (ctrl-c quits and stops it)';
    default:
      return 'enter/esc back to the menu · q quit';
  }
}
