/**
 * What a screen or a line shows of a rollout (pure): the ETA, a node's phase and detail, the
 * node rows (checklist model), the one-line summary, and the changes worth a line.
 */
import type { CheckItem, CheckState } from '../../checklist/checklist.js';
import { holdText } from './guards-text.js';
import { formatDuration } from '../../duration.js';
import {
  ACTIVE_PHASES,
  FINISHED_PHASES,
  isoMs as ms,
  type NodePhase,
  type NodeStatus,
  type ReplaceMode,
  type RolloutState,
} from '../../rollout/types.js';

/**
 * Time left, from the mean duration of the finished nodes: the batches still to run (per
 * priority, `maxUnavailable` at a time) times that mean, less what the batch under way has
 * already spent. Undefined until a node has finished, and when the rollout is over.
 */
export function etaMs(state: RolloutState, now: number): number | undefined {
  const finished = state.nodes.filter((n) => n.phase === 'done' && Number.isFinite(ms(n.startedAt)) && Number.isFinite(ms(n.completedAt)));
  if (finished.length === 0) return undefined;
  if (state.nodes.every((n) => FINISHED_PHASES.includes(n.phase))) return 0;
  const mean = finished.reduce((sum, n) => sum + (ms(n.completedAt) - ms(n.startedAt)), 0) / finished.length;
  const max = Math.max(1, state.spec.maxUnavailable);
  let left = 0;
  const priorities = [...new Set(state.nodes.filter((n) => !FINISHED_PHASES.includes(n.phase)).map((n) => n.priority))];
  for (const p of priorities) {
    const group = state.nodes.filter((n) => n.priority === p && !FINISHED_PHASES.includes(n.phase));
    const active = group.filter((n) => ACTIVE_PHASES.includes(n.phase));
    const waiting = group.filter((n) => n.phase === 'waiting');
    if (active.length) {
      const started = Math.min(...active.map((n) => ms(n.startedAt)).filter(Number.isFinite), now);
      left += Math.max(0, mean - (now - started));
    }
    left += Math.ceil(waiting.length / max) * mean;
  }
  return Math.round(left);
}

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

const hhmmss = (iso: string) => {
  const d = new Date(iso);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((v) => String(v).padStart(2, '0')).join(':');
};

/**
 * What a node waiting for its replacement waits for, since and until when, and — while nothing
 * has replaced a node of the rollout yet — what to do if nothing will: "the Node deleted or
 * registered again and a new Ready node …".
 */
export function replacementWaitText(n: NodeStatus, state: Pick<RolloutState, 'nodes'>): string | undefined {
  if (n.phase !== 'replacing' || !n.replaceWait) return undefined;
  const { since, until } = n.replaceWait;
  const text = `waits for ${n.name} to be deleted (or registered anew) and a new Ready node to join, since ${hhmmss(since)}, until ${hhmmss(until)}`;
  if (state.nodes.some((x) => x.replacement)) return text;
  return `${text}; nothing has replaced a node of this rollout yet: if no autoscaler or machine controller runs in this cluster, abort and use --replace uncordon`;
}

/** One line about a node: phase, counts, blocking budget, error. */
export function nodeDetail(n: NodeStatus, replace: ReplaceMode = 'wait', state?: Pick<RolloutState, 'nodes'>): string {
  const parts = [phaseText(n, replace)];
  const wait = replace === 'wait' && state ? replacementWaitText(n, state) : undefined;
  if (n.phase !== 'waiting' && n.phase !== 'cordoned' && !(n.phase === 'draining' && n.total === 0))
    parts.push(`${n.evicted} evicted, ${n.ignored} ignored, ${n.failed} failed`);
  if (n.blockingPdb)
    parts.push(
      `blocked by PodDisruptionBudget ${n.blockingPdb.namespace}/${n.blockingPdb.name} (${n.blockingPdb.disruptionsAllowed} disruptions allowed)`,
    );
  if (wait) parts.push(wait);
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
  skipped: 'warn',
  failed: 'fail',
};

/** The node rows (checklist model): label "NAME (priority P)", the detail line, the elapsed time. */
export function rolloutChecklist(state: RolloutState, now: number): CheckItem[] {
  return state.nodes.map((n) => {
    const start = ms(n.startedAt);
    const end = FINISHED_PHASES.includes(n.phase) ? ms(n.completedAt) : now;
    const item: CheckItem = {
      id: n.name,
      label: `${n.name} (priority ${n.priority})`,
      state: n.blockingPdb ? 'warn' : NODE_STATE[n.phase],
      detail: nodeDetail(n, state.spec.replace, state),
    };
    if (Number.isFinite(start) && Number.isFinite(end)) item.elapsedMs = Math.max(0, end - start);
    return item;
  });
}

/** "Running · 2/6 nodes done · ETA 3m10s". */
export function rolloutSummary(state: RolloutState, now: number): string {
  const done = state.nodes.filter((n) => n.phase === 'done').length;
  const skipped = state.nodes.filter((n) => n.phase === 'skipped').length;
  const parts: string[] = [state.phase, `${done}/${state.nodes.length} nodes done${skipped ? `, ${skipped} skipped` : ''}`];
  const eta = state.phase === 'Running' ? etaMs(state, now) : undefined;
  if (eta !== undefined && eta > 0) parts.push(`ETA ${formatDuration(eta, 'span')}`);
  if (state.phase === 'Running' && state.hold) parts.push(holdText(state.hold));
  if (state.message) parts.push(state.message);
  return parts.join(' · ');
}

/** What changed between two states, one entry per node whose shown fields changed, and the rollout's own phase or message. */
export interface RolloutChange {
  kind: 'rollout' | 'node';
  node?: NodeStatus;
  state: RolloutState;
}

const nodeKey = (n: NodeStatus) =>
  JSON.stringify([n.phase, n.total, n.evicted, n.ignored, n.failed, n.blockingPdb ?? null, n.error ?? null, n.replacement ?? null]);

/** The changes worth a line: a node's phase, counts, blocking budget, error or replacement; the rollout's phase or message. */
export function rolloutChanges(prev: RolloutState | undefined, next: RolloutState): RolloutChange[] {
  const out: RolloutChange[] = [];
  // A hold is a line when it starts, changes kind or ends (not each time its countdown is rewritten).
  const holdKey = (s: RolloutState | undefined) => `${s?.hold?.kind ?? ''}@${s?.hold?.since ?? ''}`;
  if (!prev || prev.phase !== next.phase || prev.message !== next.message || holdKey(prev) !== holdKey(next))
    out.push({ kind: 'rollout', state: next });
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
