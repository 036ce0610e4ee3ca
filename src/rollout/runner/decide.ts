/**
 * The runner's decisions, as pure functions (no I/O): which nodes run next, the state at a
 * resume, whether another fleetdeck owns the rollout, the log,
 * what the health gate says, and which node replaced a drained one.
 */
import { ACTIVE_PHASES, FINISHED_PHASES, isoMs as ms, LOG_LINES, type NodeStatus, type RolloutState } from '../types.js';

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
  const open = state.nodes.filter((n) => !FINISHED_PHASES.includes(n.phase));
  if (open.length === 0) return { kind: 'complete' };
  const priority = Math.max(...open.map((n) => n.priority));
  const group = open.filter((n) => n.priority === priority);
  const active = group.filter((n) => ACTIVE_PHASES.includes(n.phase));
  if (active.length) return { kind: 'batch', priority, nodes: active.map((n) => n.name) };
  const max = Math.max(1, state.spec.maxUnavailable);
  return {
    kind: 'batch',
    priority,
    nodes: group
      .filter((n) => n.phase === 'waiting')
      .slice(0, max)
      .map((n) => n.name),
  };
}

/** The state at a resume: failed nodes retried from their drain, the message and the nodes' errors cleared. */
export function resumedState(state: RolloutState): RolloutState {
  const nodes = state.nodes.map((n): NodeStatus => {
    if (FINISHED_PHASES.includes(n.phase)) return n;
    const { error: _error, blockingPdb: _pdb, ...rest } = n;
    return n.phase === 'failed' ? { ...rest, phase: 'cordoned' } : rest;
  });
  const { message: _message, ...rest } = state;
  return { ...rest, nodes };
}

/** Appends a line to the state's log (the last LOG_LINES kept). Mutates and returns the state. */
export function appendLog(state: RolloutState, message: string, now: Date = new Date()): RolloutState {
  state.log.push({ time: now.toISOString(), message });
  if (state.log.length > LOG_LINES) state.log.splice(0, state.log.length - LOG_LINES);
  return state;
}

// Health gate and replacement

export interface GateNode {
  name: string;
  ready: boolean;
}

/** Navarchos' rule: every node Ready and no Pending pod. One line either way. */
export function healthVerdict(nodes: readonly GateNode[], pendingPods: readonly string[]): { ok: boolean; detail: string } {
  const notReady = nodes
    .filter((n) => !n.ready)
    .map((n) => n.name)
    .sort();
  const problems: string[] = [];
  const few = (xs: readonly string[]) => (xs.length > 5 ? `${xs.slice(0, 5).join(', ')} and ${xs.length - 5} more` : xs.join(', '));
  if (notReady.length) problems.push(`${notReady.length} node${notReady.length === 1 ? '' : 's'} not Ready (${few(notReady)})`);
  if (pendingPods.length)
    problems.push(`${pendingPods.length} pod${pendingPods.length === 1 ? '' : 's'} Pending (${few([...pendingPods].sort())})`);
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
  const isNew = (created: number) =>
    Number.isFinite(after) ? created > after : !Number.isFinite(since) || created >= since - REPLACEMENT_SKEW_MS;
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
