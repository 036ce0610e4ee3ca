/**
 * The Day 2 page's keys (it takes the whole keyboard while shown): on the menu j/k move, enter
 * chooses (an operation with an input asks for it first, its default filled in), esc leaves; on
 * a plan enter confirms it — an operation that writes is refused under --read-only with the
 * gate's line, in its own words (`writes.action`) — and esc goes back; while a run is under way
 * only ctrl-c (quit), ? and tab; once it ended enter or esc go back to the menu. q quits, ? opens
 * the help and tab / shift-tab switch screens, except while an input is typed.
 */
import { cursorKeys, type KeyTable, type Live, moveCursor } from '../../components/key-actions/index.js';
import type { Day2Actions } from '../../store/actions.js';
import type { Day2Slice, Day2Stage } from '../../store/day2.js';
import type { WithApp } from '../keys/app-commands.js';
import { CTRL_C_QUITS, HELP, NEXT_SCREEN, PREVIOUS_SCREEN, QUIT } from '../keys/global.js';

/** The input being typed: which operation, which of its inputs. */
export interface Day2Editing {
  id: string;
  key: string;
  label: string;
  value: string;
}

/** The menu's cursor and the input being typed. */
export interface Day2Nav {
  cursor: number;
  editing?: Day2Editing;
}

export type Day2NavAction = { type: 'cursor'; to: number } | { type: 'edit'; editing: Day2Editing } | { type: 'typed' };

export function day2NavReducer(nav: Day2Nav, a: Day2NavAction): Day2Nav {
  if (a.type === 'cursor') return { ...nav, cursor: a.to };
  if (a.type === 'edit') return { ...nav, editing: a.editing };
  return { cursor: nav.cursor };
}

export interface Day2Keys extends WithApp {
  nav: Live<Day2Nav, Day2NavAction>;
  /** The slice as of this key. */
  slice: Day2Slice;
  actions: Day2Actions;
  /** Leave the page (esc on the menu). */
  leave(): void;
}

const editing = (c: Day2Keys) => c.nav.get().editing !== undefined;
const running = (c: Day2Keys) => c.slice.stage.stage === 'running';
const at =
  (...stages: Day2Stage['stage'][]) =>
  (c: Day2Keys) =>
    !editing(c) && stages.includes(c.slice.stage.stage);

/** Enter on the menu: plan the operation under the cursor, or first ask for its input. */
function choose(c: Day2Keys): void {
  const { entries } = c.slice;
  const entry = entries[Math.min(c.nav.get().cursor, entries.length - 1)];
  if (!entry || entry.unavailable) return;
  const input = entry.inputs[0];
  if (input) c.nav.dispatch({ type: 'edit', editing: { id: entry.id, key: input.key, label: input.label, value: input.default } });
  else c.actions.plan(entry.id, {});
}

const back = (c: Day2Keys) => c.actions.back();

/** What the planned operation writes, in the gate's words (undefined: it only reads). */
function writesOf(c: Day2Keys): string | undefined {
  const { stage, entries } = c.slice;
  return stage.stage === 'plan' ? entries.find((e) => e.id === stage.id)?.writes?.action : undefined;
}

/** The page's keys: confirming a plan is dangerous in the words of what the planned operation writes. */
export const DAY2_KEYS: KeyTable<Day2Keys> = {
  title: 'Day 2',
  owns: true,
  actions: [
    ...cursorKeys<Day2Keys>(
      (c, m) => c.nav.dispatch({ type: 'cursor', to: moveCursor(c.nav.get().cursor, m, c.slice.entries.length, 5) }),
      { when: at('menu'), space: false },
    ),
    { keys: ['enter'], description: 'choose', when: at('menu'), run: choose },
    // The text field submits it.
    { keys: ['enter'], description: 'plan', when: editing },
    { keys: ['esc'], description: 'cancel', when: editing, run: (c) => c.nav.dispatch({ type: 'typed' }) },
    {
      keys: ['enter'],
      description: 'confirm: run it',
      when: (c) => at('plan')(c) && c.slice.stage.stage === 'plan' && c.slice.stage.todo,
      dangerous: writesOf,
      run: (c) => c.actions.run(),
    },
    { keys: ['enter', 'esc'], label: 'enter esc', hintLabel: 'enter/esc', description: 'back to the menu', when: at('done'), run: back },
    { keys: ['esc'], description: 'back', when: at('planning', 'plan', 'error'), run: back },
    { keys: ['esc'], description: 'back', when: at('menu'), run: (c) => c.leave() },
    { ...HELP, when: (c: Day2Keys) => !editing(c) },
    { ...QUIT, when: (c: Day2Keys) => !editing(c) && !running(c) },
    {
      ...CTRL_C_QUITS,
      hint: (c: Day2Keys) => (running(c) ? 'quits and stops it' : 'quit'),
      visible: (c: Day2Keys) => editing(c) || running(c),
    },
    { ...NEXT_SCREEN, when: (c: Day2Keys) => !editing(c) },
    { ...PREVIOUS_SCREEN, when: (c: Day2Keys) => !editing(c) },
  ],
};
