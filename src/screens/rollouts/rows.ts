/**
 * What the Rollouts screen shows, as pure functions of the watched data: one list row per
 * rollout (fleetdeck's and Navarchos'), the node rows of a progress view, the ETA of a
 * Navarchos rollout, and the times.
 */
import { formatDuration } from '../../duration.js';
import type { NavarchosState, NodeReplacementSummary, NodeRolloutSummary } from '../../kube/navarchos/objects.js';
import { holdText } from '../../report/rollout/guards-text.js';
import { livenessAt, livenessText } from '../../report/rollout/holder.js';
import type { HolderView, OwnerLiveness } from '../../rollout/owner-liveness.js';
import { etaMs, phaseText, replacementWaitText } from '../../report/rollout/view.js';
import type { NodeStatus, RolloutState } from '../../rollout/types.js';
import { clock } from '../../store/selectors.js';
import { actionKey, type ContextRollouts } from '../../store/rollouts.js';

export type RolloutKind = 'fleetdeck' | 'navarchos';

/** Which rollout a view is about. */
export interface RolloutRef {
  context: string;
  kind: RolloutKind;
  name: string;
}

export const refKey = (r: RolloutRef) => `${r.context}/${r.kind}/${r.name}`;
export interface RolloutRow {
  ref: RolloutRef;
  /** The rollout's phase; `Held` for a running rollout that waits (a window, the budget, a gate, a soak, another rollout). */
  phase: string;
  done: number;
  total: number;
  /** Nodes left as they were (their drain timed out and the spec says skip). */
  skipped?: number;
  /** The line under the row: the nodes skipped, the hold ("held: waiting for the window: …"). */
  note?: string;
  /** Epoch ms the rollout was created. */
  started?: number;
  /** Time left in ms (undefined: unknown or over). */
  eta?: number;
  /** A fleetdeck rollout's holder (its Lease): "pod/x live", "bastion/42 expired (not renewed for 2m)", "bastion/42 dead (pid 42 gone)". */
  owner?: { state: OwnerLiveness['state']; text: string };
}

const ms = (iso: string | undefined): number | undefined => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : undefined;
};

/** When the rollout was created: its first log line (written at creation), else the first node started. */
export function rolloutStarted(state: RolloutState): number | undefined {
  return (
    ms(state.log[0]?.time) ??
    ms(
      state.nodes
        .map((n) => n.startedAt)
        .filter((t): t is string => !!t)
        .sort()[0],
    )
  );
}

/** A NodeRollout's NodeReplacements (owned by it), highest priority first. */
export function replacementsOf(navarchos: NavarchosState | undefined, rollout: string): NodeReplacementSummary[] {
  return (navarchos?.replacements ?? []).filter((r) => r.rollout === rollout);
}

const NAVARCHOS_DONE = new Set(['Completed']);

/**
 * Navarchos replaces one node at a time: the time left is the mean time per finished
 * replacement (from the rollout's creation to the last completion) times the replacements
 * left, less the time the current one has already run. Undefined until one finished.
 */
export function navarchosEtaMs(
  rollout: NodeRolloutSummary,
  replacements: readonly NodeReplacementSummary[],
  now: number,
): number | undefined {
  const total = Math.max(replacements.length, rollout.replacementsCreated);
  const completions = replacements
    .filter((r) => NAVARCHOS_DONE.has(r.phase))
    .map((r) => ms(r.completionTimestamp))
    .filter((t): t is number => t !== undefined)
    .sort((a, b) => a - b);
  const start = ms(rollout.createdAt);
  if (completions.length === 0 || start === undefined) return undefined;
  if (rollout.phase === 'Completed' || completions.length >= total) return 0;
  const last = completions[completions.length - 1]!;
  const mean = (last - start) / completions.length;
  const left = total - completions.length;
  return Math.max(0, Math.round(mean * left - Math.max(0, now - last)));
}

/** The list row's note: a running rollout's hold, and the nodes it skipped ("held: waiting for the window: … · skipped: w1-c"). */
function rolloutNote(s: RolloutState): { skipped: number; text: string } {
  const skipped = s.nodes.filter((n) => n.phase === 'skipped').map((n) => n.name);
  const few = skipped.slice(0, 3).join(', ') + (skipped.length > 3 ? ', …' : '');
  const parts = [s.phase === 'Running' && s.hold ? holdText(s.hold) : '', skipped.length ? `skipped: ${few}` : ''];
  return { skipped: skipped.length, text: parts.filter(Boolean).join(' · ') };
}

/** Every rollout of every context, one row each: contexts in the given order, newest first within one. */
export function rolloutRows(
  contexts: readonly string[],
  byContext: Readonly<Record<string, ContextRollouts>>,
  now: number,
  holders: Readonly<Record<string, HolderView>> = {},
): RolloutRow[] {
  const rows: RolloutRow[] = [];
  for (const context of contexts) {
    const c = byContext[context];
    if (!c) continue;
    const own: RolloutRow[] = Object.values(c.rollouts).map((s) => {
      const row: RolloutRow = {
        ref: { context, kind: 'fleetdeck', name: s.spec.name },
        phase: s.phase === 'Running' && s.hold ? 'Held' : s.phase,
        done: s.nodes.filter((n) => n.phase === 'done').length,
        total: s.nodes.length,
      };
      const note = rolloutNote(s);
      if (note.skipped) row.skipped = note.skipped;
      if (note.text) row.note = note.text;
      const started = rolloutStarted(s);
      if (started !== undefined) row.started = started;
      const eta = s.phase === 'Running' ? etaMs(s, now) : undefined;
      if (eta !== undefined && eta > 0) row.eta = eta;
      const v = holders[actionKey(context, s.spec.name)];
      if (v) row.owner = { state: v.liveness.state, text: `${v.holder} ${livenessText(livenessAt(v, now))}` };
      return row;
    });
    const theirs: RolloutRow[] = (c.navarchos?.rollouts ?? []).map((r) => {
      const reps = replacementsOf(c.navarchos, r.name);
      const row: RolloutRow = {
        ref: { context, kind: 'navarchos', name: r.name },
        phase: r.phase,
        done: Math.max(r.replacementsCompleted, reps.filter((x) => NAVARCHOS_DONE.has(x.phase)).length),
        total: Math.max(r.replacementsCreated, reps.length),
      };
      const started = ms(r.createdAt);
      if (started !== undefined) row.started = started;
      const eta = r.phase === 'Completed' ? undefined : navarchosEtaMs(r, reps, now);
      if (eta !== undefined && eta > 0) row.eta = eta;
      return row;
    });
    rows.push(...[...own, ...theirs].sort((a, b) => (b.started ?? 0) - (a.started ?? 0) || a.ref.name.localeCompare(b.ref.name)));
  }
  return rows;
}

/** "10:42:07" today, "2026-11-21 10:42" another day. */
export function timeText(t: number | undefined, now: number): string {
  if (t === undefined) return '';
  const d = new Date(t);
  const today = new Date(now);
  if (d.toDateString() === today.toDateString()) return clock(t);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** "45s", "3m10s", "15m00s", "1h05m": the columns line up. */
export const durationText = (ms: number): string => formatDuration(ms, 'clock');

export interface NodeRow {
  name: string;
  priority: number;
  phase: string;
  /** Pods evicted / ignored / failed; empty before the drain started. */
  evicted: string;
  ignored: string;
  failed: string;
  /** Pods on the node (Navarchos' nodePods). */
  pods?: string;
  elapsed: string;
  completed: string;
  /** The line under the row: the blocking budget, the error, the failed pods' reasons. */
  note?: string;
  tone: 'ok' | 'running' | 'warn' | 'fail' | 'pending';
}

const RUNNING_PHASES = new Set(['cordoned', 'draining', 'replacing', 'validating']);

/** The node rows of a fleetdeck rollout; elapsed time runs only while the rollout runs. */
export function nodeRows(state: RolloutState, now: number): NodeRow[] {
  const running = state.phase === 'Running';
  return state.nodes.map((n: NodeStatus) => {
    const started = ms(n.startedAt);
    const completed = ms(n.completedAt);
    const end = completed ?? (running ? now : (ms(state.updatedAt) ?? now));
    const counted = n.phase !== 'waiting' && n.phase !== 'cordoned';
    // A node left mid-way by a rollout that no longer runs: its budget and phase are what they were when it stopped.
    const stopped = !running && RUNNING_PHASES.has(n.phase);
    const notes: string[] = [];
    if (n.blockingPdb && !stopped) {
      const d = n.blockingPdb.disruptionsAllowed;
      notes.push(
        `blocked by PodDisruptionBudget ${n.blockingPdb.namespace}/${n.blockingPdb.name}: ${d} disruption${d === 1 ? '' : 's'} allowed`,
      );
    }
    const wait = !stopped && state.spec.replace === 'wait' ? replacementWaitText(n, state) : undefined;
    if (wait) notes.push(wait);
    if (n.error) notes.push(n.error);
    const row: NodeRow = {
      name: n.name,
      priority: n.priority,
      phase: stopped ? `stopped: ${phaseText(n)}` : phaseText(n),
      evicted: counted ? String(n.evicted) : '',
      ignored: counted ? String(n.ignored) : '',
      failed: counted ? String(n.failed) : '',
      elapsed: started !== undefined ? durationText(Math.max(0, end - started)) : '',
      completed: n.phase === 'done' ? timeText(completed, now) : '',
      tone:
        n.phase === 'done'
          ? 'ok'
          : n.phase === 'failed'
            ? 'fail'
            : stopped || n.blockingPdb || n.phase === 'skipped'
              ? 'warn'
              : RUNNING_PHASES.has(n.phase)
                ? 'running'
                : 'pending',
    };
    if (notes.length) row.note = notes.join(' · ');
    return row;
  });
}

/** The node rows of a NodeRollout, from its NodeReplacements. */
export function replacementRows(replacements: readonly NodeReplacementSummary[], now: number): NodeRow[] {
  return replacements.map((r) => {
    const started = ms(r.createdAt);
    const completed = ms(r.completionTimestamp);
    const row: NodeRow = {
      name: r.nodeName || r.name,
      priority: r.priority,
      phase: r.phase,
      pods: String(r.nodePods),
      evicted: String(r.evictedPods),
      ignored: String(r.ignoredPods),
      failed: String(r.failedPods),
      elapsed: started !== undefined && r.phase !== 'New' ? durationText(Math.max(0, (completed ?? now) - started)) : '',
      completed: timeText(completed, now),
      tone:
        r.phase === 'Completed'
          ? 'ok'
          : r.phase === 'Failed'
            ? 'fail'
            : r.failedPods > 0
              ? 'warn'
              : r.phase === 'InProgress'
                ? 'running'
                : 'pending',
    };
    if (r.failed.length) row.note = `failed: ${r.failed.map((p) => `${p.name}: ${p.reason}`).join('; ')}`;
    return row;
  });
}
