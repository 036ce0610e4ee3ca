/**
 * The decisions of a rollout, as pure functions (no I/O): label selectors in kubectl syntax,
 * which nodes a spec selects and in which order (Navarchos' priority rules), which batch runs
 * next, what the health gate says, which node replaced a drained one, the ETA, and the rows a
 * screen or a line reporter shows.
 */
import { UsageError } from '../errors.js';
import type { CheckItem, CheckState } from '../checklist/checklist.js';
import { labelSelectorMatches, type LabelSelector } from './drain-filters.js';
import {
  LOG_LINES,
  OWNER_STALE_MS,
  type NodePhase,
  type NodeStatus,
  type PlanNode,
  type ReplaceMode,
  type RolloutOwner,
  type RolloutSpec,
  type RolloutState,
} from './types.js';

// ---------------------------------------------------------------------------------------------
// Label selectors (k8s.io/apimachinery/pkg/labels: Parse)

export type SelectorOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';

export interface SelectorRequirement {
  key: string;
  operator: SelectorOperator;
  values: string[];
}

type Token =
  | { kind: 'id'; text: string; pos: number }
  | { kind: 'op'; text: '=' | '==' | '!=' | '!' | '(' | ')' | ',' | '<' | '>'; pos: number }
  | { kind: 'end'; pos: number };

const SPECIAL = new Set(['!', '=', ',', '(', ')', '<', '>']);

function tokenize(text: string, fail: (why: string, pos: number) => never): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '!' && text[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '!=', pos: i });
      i += 2;
    } else if (c === '=' && text[i + 1] === '=') {
      tokens.push({ kind: 'op', text: '==', pos: i });
      i += 2;
    } else if (SPECIAL.has(c)) {
      tokens.push({ kind: 'op', text: c as '=' | '!' | '(' | ')' | ',' | '<' | '>', pos: i });
      i++;
    } else {
      const start = i;
      while (i < text.length && !SPECIAL.has(text[i]!) && !/\s/.test(text[i]!)) i++;
      tokens.push({ kind: 'id', text: text.slice(start, i), pos: start });
    }
  }
  if (tokens.length === 0 && text.trim() !== '') fail('nothing to parse', 0);
  tokens.push({ kind: 'end', pos: text.length });
  return tokens;
}

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why a label key is invalid (metav1 validation: `[prefix/]name`), or undefined. */
export function labelKeyError(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined) {
    if (prefix.length === 0) return `label key "${key}": the prefix before "/" is empty`;
    if (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)) return `label key "${key}": prefix "${prefix}" is not a DNS subdomain (lower-case letters, digits, "-" and ".")`;
  }
  if (name.length === 0) return `label key "${key}": the name is empty`;
  if (name.length > 63) return `label key "${key}": the name is longer than 63 characters`;
  if (!NAME_PART.test(name)) return `label key "${key}": the name must consist of letters, digits, "-", "_" or ".", starting and ending with a letter or digit`;
  return undefined;
}

/** Why a label value is invalid, or undefined (the empty value is valid). */
export function labelValueError(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63) return `label value "${value}" is longer than 63 characters`;
  if (!NAME_PART.test(value)) return `label value "${value}" must consist of letters, digits, "-", "_" or ".", starting and ending with a letter or digit`;
  return undefined;
}

/**
 * Parses a label selector as kubectl's `-l` does: requirements separated by commas, each
 * `key=value`, `key==value`, `key!=value`, `key in (v1,v2)`, `key notin (v1,v2)`, `key`
 * (exists), `!key` (does not exist), `key>N`, `key<N`. The empty selector selects everything.
 * Throws a UsageError naming the selector, the column and what was expected.
 */
export function parseSelector(text: string): SelectorRequirement[] {
  const fail = (why: string, pos: number): never => {
    throw new UsageError(`invalid selector "${text}": ${why} (at column ${pos + 1})`);
  };
  const tokens = tokenize(text, fail);
  let i = 0;
  const peek = () => tokens[i]!;
  const next = () => tokens[i++]!;
  const describe = (t: Token) => (t.kind === 'end' ? 'the end' : `"${t.text}"`);
  const reqs: SelectorRequirement[] = [];
  if (peek().kind === 'end') return reqs;

  const key = (t: Token): string => {
    if (t.kind !== 'id') return fail(`expected a label key, found ${describe(t)}`, t.pos);
    const err = labelKeyError(t.text);
    if (err) fail(err, t.pos);
    return t.text;
  };
  const value = (t: Token): string => {
    const err = labelValueError(t.kind === 'id' ? t.text : '');
    if (err) fail(err, t.pos);
    return t.kind === 'id' ? t.text : '';
  };

  for (;;) {
    const t = next();
    if (t.kind === 'op' && t.text === '!') {
      reqs.push({ key: key(next()), operator: 'DoesNotExist', values: [] });
    } else {
      const k = key(t);
      const op = peek();
      if (op.kind === 'end' || (op.kind === 'op' && op.text === ',')) {
        reqs.push({ key: k, operator: 'Exists', values: [] });
      } else if (op.kind === 'op' && (op.text === '=' || op.text === '==' || op.text === '!=')) {
        next();
        // `key=` is the empty value; the value may not be an operator.
        const v = peek();
        if (v.kind === 'op' && v.text !== ',') fail(`expected a value after "${op.text}", found ${describe(v)}`, v.pos);
        if (v.kind === 'id') next();
        reqs.push({ key: k, operator: op.text === '!=' ? 'NotIn' : 'In', values: [value(v)] });
      } else if (op.kind === 'op' && (op.text === '<' || op.text === '>')) {
        next();
        const v = next();
        if (v.kind !== 'id' || !/^-?\d+$/.test(v.text)) fail(`"${op.text}" needs a whole number, found ${describe(v)}`, v.pos);
        reqs.push({ key: k, operator: op.text === '>' ? 'Gt' : 'Lt', values: [(v as { text: string }).text] });
      } else if (op.kind === 'id' && (op.text === 'in' || op.text === 'notin')) {
        next();
        const open = next();
        if (open.kind !== 'op' || open.text !== '(') fail(`expected "(" after "${op.text}", found ${describe(open)}`, open.pos);
        const values: string[] = [];
        for (;;) {
          const v = peek();
          if (v.kind === 'op' && v.text === ')') {
            if (values.length === 0) fail(`"${op.text}" needs at least one value`, v.pos);
            next();
            break;
          }
          if (v.kind === 'end') fail(`expected ")" to close the values of "${k}"`, v.pos);
          if (v.kind === 'op' && v.text !== ',') fail(`expected a value, "," or ")", found ${describe(v)}`, v.pos);
          // An empty value between commas ("in (a,,b)") is the empty string, as in kubectl.
          if (v.kind === 'id') next();
          values.push(value(v));
          const sep = peek();
          if (sep.kind === 'op' && sep.text === ',') next();
          else if (!(sep.kind === 'op' && sep.text === ')')) fail(`expected "," or ")" after the value, found ${describe(sep)}`, sep.pos);
        }
        reqs.push({ key: k, operator: op.text === 'in' ? 'In' : 'NotIn', values: [...new Set(values)] });
      } else {
        fail(`expected "=", "==", "!=", "in", "notin", "<", ">", "," or the end after "${k}", found ${describe(op)}`, op.pos);
      }
    }
    const sep = next();
    if (sep.kind === 'end') break;
    if (sep.kind !== 'op' || sep.text !== ',') fail(`expected "," or the end, found ${describe(sep)}`, sep.pos);
    if (peek().kind === 'end') fail('expected a requirement after ","', peek().pos);
  }
  return reqs;
}

/** Whether the labels satisfy every requirement (the empty list matches everything). */
export function selectorMatches(reqs: readonly SelectorRequirement[], labels: Readonly<Record<string, string>>): boolean {
  const standard = reqs.filter((r) => r.operator !== 'Gt' && r.operator !== 'Lt');
  if (!labelSelectorMatches({ matchExpressions: standard }, labels)) return false;
  for (const r of reqs) {
    if (r.operator !== 'Gt' && r.operator !== 'Lt') continue;
    const v = labels[r.key];
    if (v === undefined || !/^-?\d+$/.test(v)) return false;
    const n = Number(v);
    const bound = Number(r.values[0]);
    if (r.operator === 'Gt' ? !(n > bound) : !(n < bound)) return false;
  }
  return true;
}

/**
 * A metav1.LabelSelector (matchLabels, matchExpressions) as a selector string parseSelector
 * reads back: `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`. Throws (one line) for an
 * operator or values metav1 would refuse.
 */
export function selectorString(sel: LabelSelector): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) parts.push(`${k}=${String(v)}`);
  for (const r of sel.matchExpressions ?? []) {
    const values = r.values ?? [];
    switch (r.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) throw new UsageError(`matchExpressions: "${r.key} ${r.operator}" needs at least one value`);
        parts.push(`${r.key} ${r.operator === 'In' ? 'in' : 'notin'} (${values.join(',')})`);
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) throw new UsageError(`matchExpressions: "${r.key} ${r.operator}" takes no values`);
        parts.push(r.operator === 'Exists' ? r.key : `!${r.key}`);
        break;
      default:
        throw new UsageError(`matchExpressions: operator "${r.operator}" of "${r.key}" is not one of In, NotIn, Exists, DoesNotExist`);
    }
  }
  return parts.join(',');
}

// ---------------------------------------------------------------------------------------------
// The plan

export interface PlannedNode {
  name: string;
  priority: number;
  /** Where the priority came from: `node NAME` or `selector "SEL"`. */
  source: string;
  ready: boolean;
  unschedulable: boolean;
}

export interface Plan {
  /** In execution order: priority descending, then by name. */
  nodes: PlannedNode[];
  /** Selectors that match no node, and the like: worth a line, not an error. */
  warnings: string[];
}

const byPlanOrder = (a: { priority: number; name: string }, b: { priority: number; name: string }) => b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Navarchos' rules: every node a selector matches or a name names is replaced; a name's
 * priority overrides a selector's; when several selectors match a node the highest priority
 * wins; nodes in priority order, highest first (ties by name: any stable order will do).
 * Throws a UsageError for a bad selector (naming it), a name that is no node of the cluster,
 * a name given twice with different priorities, or a rollout that selects nothing.
 */
export function resolvePlan(nodes: readonly PlanNode[], spec: Pick<RolloutSpec, 'nodeSelectors' | 'nodeNames'>): Plan {
  const warnings: string[] = [];
  const selectors = spec.nodeSelectors.map((s) => ({ ...s, reqs: parseSelector(s.selector) }));
  const names = new Map<string, number>();
  for (const n of spec.nodeNames) {
    const given = names.get(n.name);
    if (given !== undefined && given !== n.priority) throw new UsageError(`node "${n.name}" is given twice, with priorities ${given} and ${n.priority}`);
    names.set(n.name, n.priority);
  }
  const known = new Set(nodes.map((n) => n.name));
  for (const name of names.keys()) {
    if (!known.has(name)) throw new UsageError(`node "${name}" is not a node of the cluster (${nodes.length} nodes)`);
  }
  const matched = new Map<string, number>();
  const out: PlannedNode[] = [];
  for (const node of nodes) {
    let best: { priority: number; source: string } | undefined;
    for (const s of selectors) {
      if (!selectorMatches(s.reqs, node.labels)) continue;
      matched.set(s.selector, (matched.get(s.selector) ?? 0) + 1);
      if (!best || s.priority > best.priority) best = { priority: s.priority, source: `selector "${s.selector}"` };
    }
    const byName = names.get(node.name);
    if (byName !== undefined) best = { priority: byName, source: `node ${node.name}` };
    if (best) out.push({ name: node.name, priority: best.priority, source: best.source, ready: node.ready, unschedulable: node.unschedulable });
  }
  for (const s of selectors) if (!matched.has(s.selector)) warnings.push(`selector "${s.selector}" matches no node`);
  if (out.length === 0) throw new UsageError('the rollout selects no node: give --selector or --node (or -f with nodeSelectors or nodeNames) that match nodes of the cluster');
  out.sort(byPlanOrder);
  return { nodes: out, warnings };
}

/** The plan's nodes in runs of at most `maxUnavailable`, never mixing priorities. */
export function batches<T extends { priority: number }>(nodes: readonly T[], maxUnavailable: number): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  for (const n of nodes) {
    if (cur.length && (cur.length >= maxUnavailable || cur[0]!.priority !== n.priority)) {
      out.push(cur);
      cur = [];
    }
    cur.push(n);
  }
  if (cur.length) out.push(cur);
  return out;
}

/** A new rollout's state: every planned node waiting, phase Pending. */
export function initialState(spec: RolloutSpec, plan: Plan, now: Date = new Date()): RolloutState {
  const time = now.toISOString();
  return {
    spec,
    phase: 'Pending',
    nodes: plan.nodes.map((n) => ({ name: n.name, priority: n.priority, phase: 'waiting', total: 0, evicted: 0, ignored: 0, failed: 0, cordonedByUs: false })),
    log: [{ time, message: `created: ${plan.nodes.length} node${plan.nodes.length === 1 ? '' : 's'}, ${spec.maxUnavailable} at a time, replace by ${spec.replace}` }],
    updatedAt: time,
  };
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why a rollout name is not usable (a DNS label: it names the ConfigMap and is a label value), or undefined. */
export function rolloutNameError(name: string): string | undefined {
  if (!DNS_LABEL.test(name)) return `rollout name "${name}" must be lower-case letters, digits and "-", starting and ending with a letter or digit`;
  if (name.length > 63) return `rollout name "${name}" is longer than 63 characters`;
  return undefined;
}

/** `rollout-20261122-0530` (local time). */
export function generatedName(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `rollout-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}`;
}

// ---------------------------------------------------------------------------------------------
// Running: what next

/** Phases of a node that is being worked on (or must be again: a failed node is retried). */
const ACTIVE: readonly NodePhase[] = ['cordoned', 'draining', 'replacing', 'validating', 'failed'];

export type NextStep =
  | { kind: 'complete' }
  /** Run these nodes, each from its recorded phase, then the health gate; all of one priority. */
  | { kind: 'batch'; priority: number; nodes: string[] };

/**
 * What runs next: the highest priority that still has nodes not done; within it, the nodes
 * already under way (an interrupted batch, a failed node retried, nodes waiting for the gate)
 * first, else the next `maxUnavailable` waiting nodes. Lower priorities start only when every
 * node of the higher ones is done.
 */
export function nextBatch(state: RolloutState): NextStep {
  const open = state.nodes.filter((n) => n.phase !== 'done');
  if (open.length === 0) return { kind: 'complete' };
  const priority = Math.max(...open.map((n) => n.priority));
  const group = open.filter((n) => n.priority === priority);
  const active = group.filter((n) => ACTIVE.includes(n.phase));
  if (active.length) return { kind: 'batch', priority, nodes: active.map((n) => n.name) };
  const max = Math.max(1, state.spec.maxUnavailable);
  return { kind: 'batch', priority, nodes: group.filter((n) => n.phase === 'waiting').slice(0, max).map((n) => n.name) };
}

const ms = (iso: string | undefined) => (iso ? Date.parse(iso) : NaN);

/**
 * Time left, from the mean duration of the finished nodes: the batches still to run (per
 * priority, `maxUnavailable` at a time) times that mean, less what the batch under way has
 * already spent. Undefined until a node has finished, and when the rollout is over.
 */
export function etaMs(state: RolloutState, now: number): number | undefined {
  const finished = state.nodes.filter((n) => n.phase === 'done' && Number.isFinite(ms(n.startedAt)) && Number.isFinite(ms(n.completedAt)));
  if (finished.length === 0) return undefined;
  if (state.nodes.every((n) => n.phase === 'done')) return 0;
  const mean = finished.reduce((sum, n) => sum + (ms(n.completedAt) - ms(n.startedAt)), 0) / finished.length;
  const max = Math.max(1, state.spec.maxUnavailable);
  let left = 0;
  const priorities = [...new Set(state.nodes.filter((n) => n.phase !== 'done').map((n) => n.priority))];
  for (const p of priorities) {
    const group = state.nodes.filter((n) => n.priority === p && n.phase !== 'done');
    const active = group.filter((n) => ACTIVE.includes(n.phase));
    const waiting = group.filter((n) => n.phase === 'waiting');
    if (active.length) {
      const started = Math.min(...active.map((n) => ms(n.startedAt)).filter(Number.isFinite), now);
      left += Math.max(0, mean - (now - started));
    }
    left += Math.ceil(waiting.length / max) * mean;
  }
  return Math.round(left);
}

/** The state at a resume: failed nodes retried from their drain, the message and the nodes' errors cleared. */
export function resumedState(state: RolloutState): RolloutState {
  const nodes = state.nodes.map((n): NodeStatus => {
    if (n.phase === 'done') return n;
    const { error: _error, blockingPdb: _pdb, ...rest } = n;
    return n.phase === 'failed' ? { ...rest, phase: 'cordoned' } : rest;
  });
  const { message: _message, ...rest } = state;
  return { ...rest, nodes };
}

/** The nodes abort gives back: cordoned by this rollout and not done. */
export function nodesToUncordon(state: RolloutState): string[] {
  return state.nodes.filter((n) => n.cordonedByUs && n.phase !== 'done').map((n) => n.name);
}

/** Whether another fleetdeck drives the rollout: an owner (not `self`) whose heartbeat is younger than 30 s. */
export function liveOwner(state: RolloutState, now: number, self?: { host: string; pid: number }): RolloutOwner | undefined {
  const o = state.owner;
  if (!o) return undefined;
  if (self && o.host === self.host && o.pid === self.pid) return undefined;
  const age = now - Date.parse(o.heartbeat);
  return Number.isFinite(age) && age < OWNER_STALE_MS ? o : undefined;
}

/** Appends a line to the state's log (the last LOG_LINES kept). Mutates and returns the state. */
export function appendLog(state: RolloutState, message: string, now: Date = new Date()): RolloutState {
  state.log.push({ time: now.toISOString(), message });
  if (state.log.length > LOG_LINES) state.log.splice(0, state.log.length - LOG_LINES);
  return state;
}

// ---------------------------------------------------------------------------------------------
// Health gate and replacement

export interface GateNode {
  name: string;
  ready: boolean;
}

/** Navarchos' rule: every node Ready and no Pending pod. One line either way. */
export function healthVerdict(nodes: readonly GateNode[], pendingPods: readonly string[]): { ok: boolean; detail: string } {
  const notReady = nodes.filter((n) => !n.ready).map((n) => n.name).sort();
  const problems: string[] = [];
  const few = (xs: readonly string[]) => (xs.length > 5 ? `${xs.slice(0, 5).join(', ')} and ${xs.length - 5} more` : xs.join(', '));
  if (notReady.length) problems.push(`${notReady.length} node${notReady.length === 1 ? '' : 's'} not Ready (${few(notReady)})`);
  if (pendingPods.length) problems.push(`${pendingPods.length} pod${pendingPods.length === 1 ? '' : 's'} Pending (${few([...pendingPods].sort())})`);
  if (problems.length) return { ok: false, detail: problems.join('; ') };
  return { ok: true, detail: `${nodes.length} nodes Ready, no Pending pod` };
}

/** The gate's count after one check: passes in a row, reset by a failure. */
export function gateCount(inARow: number, ok: boolean): number {
  return ok ? inARow + 1 : 0;
}

export interface ReplacementNode {
  name: string;
  uid: string;
  ready: boolean;
  unschedulable: boolean;
  /** ISO creation time. */
  created: string;
}

/** How much earlier than the node's start a replacement may have been created (clock skew between here and the API server). */
export const REPLACEMENT_SKEW_MS = 60_000;

/**
 * Wait mode: has the old node gone (deleted, or its name now has another UID) and has a new
 * Ready, schedulable node joined? A new node is one created after the rollout took the old one
 * (`replaceAfter`, the API server's time; without it, `startedAt` less REPLACEMENT_SKEW_MS for
 * clock skew), that is not itself part of the rollout and not already claimed as another node's
 * replacement.
 */
export function replacementVerdict(
  old: { name: string; uid?: string; startedAt?: string; replaceAfter?: string },
  nodes: readonly ReplacementNode[],
  exclude: ReadonlySet<string>,
): { oldGone: boolean; replacement?: string; detail: string } {
  const same = nodes.find((n) => n.name === old.name);
  const oldGone = !same || (old.uid !== undefined && same.uid !== old.uid);
  const after = ms(old.replaceAfter);
  const since = ms(old.startedAt);
  const isNew = (created: number) => (Number.isFinite(after) ? created > after : !Number.isFinite(since) || created >= since - REPLACEMENT_SKEW_MS);
  const candidates = nodes
    .filter((n) => n.ready && !n.unschedulable)
    .filter((n) => (n.name === old.name ? oldGone : !exclude.has(n.name)))
    .filter((n) => isNew(ms(n.created)))
    .sort((a, b) => ms(a.created) - ms(b.created) || a.name.localeCompare(b.name));
  const replacement = oldGone ? candidates[0]?.name : undefined;
  const detail = !oldGone
    ? `waiting for node ${old.name} to be deleted or replaced`
    : replacement
      ? `replaced by ${replacement}`
      : `node ${old.name} is gone; waiting for a new Ready node to join`;
  return { oldGone, ...(replacement ? { replacement } : {}), detail };
}

// ---------------------------------------------------------------------------------------------
// What a screen or a line shows


/** "draining 3/10 pods", "waiting for replacement", "done (replaced by n7)". */
export function phaseText(n: NodeStatus, replace: ReplaceMode = 'wait'): string {
  switch (n.phase) {
    case 'draining': {
      if (n.total === 0) return 'draining';
      const gone = n.evicted + n.ignored + n.failed;
      return `draining ${Math.min(gone, n.total)}/${n.total} pods`;
    }
    case 'replacing':
      return replace === 'wait' ? 'waiting for replacement' : replace === 'delete-node' ? 'deleting the Node object' : 'uncordoning';
    case 'done':
      return n.replacement ? `done (replaced by ${n.replacement})` : 'done';
    default:
      return n.phase;
  }
}

/** One line about a node: phase, counts, blocking budget, error. */
export function nodeDetail(n: NodeStatus, replace: ReplaceMode = 'wait'): string {
  const parts = [phaseText(n, replace)];
  if (n.phase !== 'waiting' && n.phase !== 'cordoned' && !(n.phase === 'draining' && n.total === 0)) parts.push(`${n.evicted} evicted, ${n.ignored} ignored, ${n.failed} failed`);
  if (n.blockingPdb) parts.push(`blocked by PodDisruptionBudget ${n.blockingPdb.namespace}/${n.blockingPdb.name} (${n.blockingPdb.disruptionsAllowed} disruptions allowed)`);
  if (n.error) parts.push(n.error);
  return parts.join(' · ');
}

const NODE_STATE: Record<NodePhase, CheckState> = {
  waiting: 'pending',
  cordoned: 'running',
  draining: 'running',
  replacing: 'running',
  validating: 'running',
  done: 'ok',
  failed: 'fail',
};

/** The node rows (checklist model): label "NAME (priority P)", the detail line, the elapsed time. */
export function rolloutChecklist(state: RolloutState, now: number): CheckItem[] {
  return state.nodes.map((n) => {
    const start = ms(n.startedAt);
    const end = n.phase === 'done' ? ms(n.completedAt) : now;
    const item: CheckItem = {
      id: n.name,
      label: `${n.name} (priority ${n.priority})`,
      state: n.blockingPdb ? 'warn' : NODE_STATE[n.phase],
      detail: nodeDetail(n, state.spec.replace),
    };
    if (Number.isFinite(start) && Number.isFinite(end)) item.elapsedMs = Math.max(0, end - start);
    return item;
  });
}

/** "Running · 2/6 nodes done · ETA 3m10s". */
export function rolloutSummary(state: RolloutState, now: number): string {
  const done = state.nodes.filter((n) => n.phase === 'done').length;
  const parts: string[] = [state.phase, `${done}/${state.nodes.length} nodes done`];
  const eta = state.phase === 'Running' ? etaMs(state, now) : undefined;
  if (eta !== undefined && eta > 0) parts.push(`ETA ${formatDuration(eta)}`);
  if (state.message) parts.push(state.message);
  return parts.join(' · ');
}

/** "45s", "3m10s", "15m", "1h05m". */
export function formatDuration(msValue: number): string {
  const s = Math.round(msValue / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${m}m`;
  return m % 60 ? `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m` : `${Math.floor(m / 60)}h`;
}

/** What changed between two states, one entry per node whose shown fields changed, and the rollout's own phase or message. */
export interface RolloutChange {
  kind: 'rollout' | 'node';
  node?: NodeStatus;
  state: RolloutState;
}

const nodeKey = (n: NodeStatus) => JSON.stringify([n.phase, n.total, n.evicted, n.ignored, n.failed, n.blockingPdb ?? null, n.error ?? null, n.replacement ?? null]);

/** The changes worth a line: a node's phase, counts, blocking budget, error or replacement; the rollout's phase or message. */
export function rolloutChanges(prev: RolloutState | undefined, next: RolloutState): RolloutChange[] {
  const out: RolloutChange[] = [];
  if (!prev || prev.phase !== next.phase || prev.message !== next.message) out.push({ kind: 'rollout', state: next });
  const before = new Map((prev?.nodes ?? []).map((n) => [n.name, nodeKey(n)]));
  for (const n of next.nodes) {
    const k = nodeKey(n);
    if (before.get(n.name) === k) continue;
    // A new rollout's waiting nodes are the plan, already shown: no line each.
    if (!before.has(n.name) && n.phase === 'waiting') continue;
    out.push({ kind: 'node', node: n, state: next });
  }
  // A rollout that ends: its last line comes after the nodes'.
  if (out[0]?.kind === 'rollout' && out.length > 1 && prev && next.phase !== 'Running') out.push(out.shift()!);
  return out;
}
