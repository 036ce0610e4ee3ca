/**
 * The new-rollout wizard's model: each intent of the operator, and each answer of the feed,
 * turned into the next state. Pure; the feed's wizard (wizard.ts) is its only caller.
 */
import { nodesMatching, resolvePlan } from '../../rollout/plan.js';
import { guardOption, guardText, leaveOptions } from './wizard-guards.js';
import { planItems } from './wizard-plan.js';
import type { RolloutDryRun } from '../../rollout/runner/dry-run.js';
import { DEFAULT_MAX_UNAVAILABLE, DEFAULT_REPLACE, REPLACE_MODES, type PlanNode } from '../../rollout/types.js';
import {
  EMPTY_GUARD_FORM,
  OPTION_COUNT,
  OPTION_ROWS,
  type NewRolloutIntent,
  type NewRolloutPage,
  type NewRolloutState,
} from '../../store/rollout-wizard.js';

/** The intents, with what the feed adds to them, and its own answers (nodes listed, dry run, start). */
export type NewRolloutAction =
  | Exclude<NewRolloutIntent, { type: 'context' }>
  | { type: 'context'; context: string; navarchos: boolean; inCluster?: boolean }
  | { type: 'nodes'; nodes: PlanNode[] }
  | { type: 'nodesFailed'; error: string }
  | { type: 'named'; name: string }
  | { type: 'dryRun'; result?: RolloutDryRun; error?: string; done: boolean }
  | { type: 'starting' }
  | { type: 'startFailed'; error: string }
  | { type: 'started'; started: NonNullable<NewRolloutState['started']> };

/** The priority a node picked by name gets unless changed: the highest of the selectors that match it, else 10. */
export const DEFAULT_PRIORITY = 10;

/** The nodes a selector matches (names), or why it is not a selector. */
export function selectorMatchesOf(selector: string, nodes: readonly PlanNode[]): { names: string[] } | { error: string } {
  try {
    return { names: nodesMatching(selector, nodes) };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** The priority the selectors give a node (the highest that matches), if any. */
export function selectorPriorityOf(node: PlanNode, selectors: readonly { selector: string; priority: number }[]): number | undefined {
  let best: number | undefined;
  for (const s of selectors) {
    const m = selectorMatchesOf(s.selector, [node]);
    if ('names' in m && m.names.length && (best === undefined || s.priority > best)) best = s.priority;
  }
  return best;
}

const PRIORITY = /^-?\d{1,6}$/;

function withPlan(state: NewRolloutState): NewRolloutState {
  const s: NewRolloutState = { ...state, page: 'plan', scroll: 0 };
  delete s.plan;
  delete s.planError;
  delete s.dryRun;
  delete s.error;
  try {
    s.plan = resolvePlan(state.nodes ?? [], { nodeSelectors: state.selectors, nodeNames: state.names });
  } catch (err) {
    s.planError = err instanceof Error ? err.message : String(err);
  }
  return s;
}

function go(state: NewRolloutState, page: NewRolloutPage, changes: Partial<NewRolloutState> = {}): NewRolloutState {
  const s: NewRolloutState = { ...state, ...changes, page };
  delete s.error;
  return s;
}

type Act<T extends NewRolloutAction['type']> = Extract<NewRolloutAction, { type: T }>;

function onContext(state: NewRolloutState, action: Act<'context'>): NewRolloutState {
  const same = action.context === state.context;
  const s = go(state, 'selectors', {
    context: action.context,
    navarchos: action.navarchos,
    draft: '',
    ...(same ? {} : { nodes: undefined, selectors: [], names: [] }),
  });
  if (!same) delete s.nodesError;
  return s;
}

function onSelector(state: NewRolloutState, typed: string): NewRolloutState {
  const text = typed.trim();
  if (text === '') {
    if (!state.nodes) return { ...state, error: 'the nodes are not listed yet' };
    return go(state, 'nodes', { draft: '' });
  }
  const m = selectorMatchesOf(text, state.nodes ?? []);
  if ('error' in m) return { ...state, draft: text, error: m.error };
  return go(state, 'selectorPriority', { draft: text });
}

function onSelectorPriority(state: NewRolloutState, typed: string): NewRolloutState {
  const text = typed.trim();
  // No priority: the selector is left out (how one is taken back).
  if (text === '') return go(state, 'selectors', { selectors: state.selectors.filter((s) => s.selector !== state.draft), draft: '' });
  if (!PRIORITY.test(text))
    return { ...state, error: `"${text}" is not a priority (a whole number; higher priorities are replaced first)` };
  const priority = Number(text);
  const selectors = [...state.selectors.filter((s) => s.selector !== state.draft), { selector: state.draft, priority }];
  return go(state, 'selectors', { selectors, draft: '' });
}

function onPickNodes(state: NewRolloutState, picked: readonly string[]): NewRolloutState {
  const previous = new Map(state.names.map((n) => [n.name, n.priority]));
  const byName = new Map((state.nodes ?? []).map((n) => [n.name, n]));
  const names = picked.map((name) => {
    const node = byName.get(name);
    const priority = previous.get(name) ?? (node ? selectorPriorityOf(node, state.selectors) : undefined) ?? DEFAULT_PRIORITY;
    return { name, priority };
  });
  if (names.length === 0 && state.selectors.length === 0)
    return { ...state, error: 'pick at least one node, or go back (esc) and give a label selector' };
  if (names.length) return go(state, 'priorities', { names, focus: 0, editing: false });
  return state.navarchos ? withPlan({ ...state, names }) : go(state, 'options', { names, focus: 0, editing: false });
}

function onPriorityKey(state: NewRolloutState, action: Act<'priorityDigit' | 'priorityBackspace'>): NewRolloutState {
  const names = state.names.map((n, i) => {
    if (i !== state.focus) return n;
    const typed = state.editing ? n.priority * 10 : 0;
    const p = action.type === 'priorityDigit' ? Math.min(999_999, typed + action.digit) : Math.trunc(n.priority / 10);
    return { ...n, priority: p };
  });
  return { ...state, names, editing: true };
}

function onOption(state: NewRolloutState, action: Act<'optionChange' | 'optionToggle'>): NewRolloutState {
  const delta = action.type === 'optionChange' ? action.delta : 1;
  const row = OPTION_ROWS[state.focus];
  if (!row) return state;
  switch (row.id) {
    case 'replace': {
      const i = REPLACE_MODES.indexOf(state.replace);
      return { ...state, replace: REPLACE_MODES[(i + delta + REPLACE_MODES.length) % REPLACE_MODES.length]! };
    }
    case 'maxUnavailable':
      return action.type === 'optionToggle'
        ? state
        : { ...state, editing: false, maxUnavailable: Math.max(1, Math.min(100, state.maxUnavailable + delta)) };
    case 'force':
      return { ...state, force: !state.force };
    case 'deleteEmptyDirData':
      return { ...state, deleteEmptyDirData: !state.deleteEmptyDirData };
    default:
      return guardOption(state, row, delta);
  }
}

function onMaxUnavailableDigit(state: NewRolloutState, digit: number): NewRolloutState {
  if (OPTION_ROWS[state.focus]?.id !== 'maxUnavailable') return state;
  const typed = (state.editing ? state.maxUnavailable * 10 : 0) + digit;
  return { ...state, editing: true, maxUnavailable: typed > 100 || typed < 1 ? Math.max(1, digit) : typed };
}

function onDryRun(state: NewRolloutState, action: Act<'dryRun'>): NewRolloutState {
  if (!action.done) return { ...state, dryRun: { done: false } };
  return {
    ...state,
    dryRun: action.result ? { done: true, result: action.result } : { done: true, error: action.error ?? 'the dry run failed' },
  };
}

function step(state: NewRolloutState, action: NewRolloutAction): NewRolloutState {
  switch (action.type) {
    case 'context':
      return { ...onContext(state, action), inCluster: action.inCluster ?? false };
    case 'toggleInCluster':
      return state.page === 'plan' && !state.navarchos && !state.starting ? { ...state, inCluster: !state.inCluster } : state;
    case 'nodes':
      return { ...state, nodes: action.nodes };
    case 'nodesFailed':
      return { ...state, nodesError: action.error };
    case 'draft':
      return action.text === state.draft ? state : { ...state, draft: action.text };
    case 'selector':
      return onSelector(state, action.text);
    case 'selectorPriority':
      return onSelectorPriority(state, action.text);
    case 'pickNodes':
      return onPickNodes(state, action.names);
    case 'focus': {
      const count = state.page === 'priorities' ? state.names.length : OPTION_COUNT;
      return { ...state, editing: false, focus: Math.max(0, Math.min(count - 1, state.focus + action.delta)) };
    }
    case 'priorityDigit':
    case 'priorityBackspace':
      return onPriorityKey(state, action);
    case 'priorities':
      return state.navarchos ? withPlan(state) : go(state, 'options', { focus: 0, editing: false });
    case 'optionChange':
    case 'optionToggle':
      return onOption(state, action);
    case 'maxUnavailableDigit':
      return onMaxUnavailableDigit(state, action.digit);
    case 'guardText':
      return guardText(state, action.field, action.text);
    case 'options':
      return leaveOptions(state, action, withPlan);
    case 'dryRun':
      return onDryRun(state, action);
    case 'scroll':
      return { ...state, scroll: Math.max(0, Math.min(action.max, state.scroll + action.delta)) };
    case 'starting':
      return { ...state, starting: true, error: undefined } as NewRolloutState;
    case 'startFailed':
      return { ...state, starting: false, error: action.error };
    case 'named':
      return { ...state, name: action.name };
    case 'started':
      return { ...state, starting: false, started: action.started };
    case 'back':
      return back(state);
  }
}

/** What the pages show of the answers: the typed selector's matches, the priority the selectors give each node. */
function derive(next: NewRolloutState, before: NewRolloutState): NewRolloutState {
  if (next === before) return next;
  let out = next;
  if (next.draft !== before.draft || next.nodes !== before.nodes) {
    const text = next.draft.trim();
    const { draftMatch: _old, ...rest } = out;
    out = text && next.nodes ? { ...rest, draftMatch: selectorMatchesOf(text, next.nodes) } : rest;
  }
  if (next.selectors !== before.selectors || next.nodes !== before.nodes) {
    const fromSelectors: Record<string, number> = {};
    for (const n of next.nodes ?? []) {
      const p = selectorPriorityOf(n, next.selectors);
      if (p !== undefined) fromSelectors[n.name] = p;
    }
    out = { ...out, fromSelectors };
  }
  if (next.plan !== before.plan || next.dryRun !== before.dryRun || next.navarchos !== before.navarchos) {
    const { verdict: _old, ...rest } = out;
    out = next.plan ? { ...rest, verdict: planItems(next.plan, next.dryRun, next.navarchos) } : rest;
  }
  return out;
}

export function newRolloutReducer(state: NewRolloutState, action: NewRolloutAction): NewRolloutState {
  return derive(step(state, action), state);
}

function back(state: NewRolloutState): NewRolloutState {
  if (state.starting) return state;
  switch (state.page) {
    case 'context':
      return state;
    case 'selectors':
      return go(state, 'context');
    case 'selectorPriority':
      return go(state, 'selectors');
    case 'nodes':
      return go(state, 'selectors', { draft: '' });
    case 'priorities':
      return go(state, 'nodes');
    case 'options':
      return state.names.length ? go(state, 'priorities', { focus: 0, editing: false }) : go(state, 'nodes');
    case 'plan':
      if (!state.navarchos) return go(state, 'options', { focus: 0, editing: false });
      return state.names.length ? go(state, 'priorities', { focus: 0, editing: false }) : go(state, 'nodes');
  }
}

export function initialNewRolloutState(context?: string): NewRolloutState {
  return {
    page: 'context',
    ...(context ? { context } : {}),
    navarchos: false,
    nodes: undefined,
    selectors: [],
    draft: '',
    fromSelectors: {},
    name: '',
    names: [],
    focus: 0,
    editing: false,
    replace: DEFAULT_REPLACE,
    maxUnavailable: DEFAULT_MAX_UNAVAILABLE,
    force: false,
    deleteEmptyDirData: false,
    guardForm: { ...EMPTY_GUARD_FORM },
    guardErrors: {},
    scroll: 0,
    starting: false,
    inCluster: false,
  };
}
