/**
 * Holding a running rollout before its next batch: the holds are checked (hold-checks.ts) until
 * none applies, every `recheckMs` (sooner when the hold ends by itself: a window opening, a soak
 * ending). A hold is recorded on the rollout (its row says why), logged and written as an Event
 * when it starts or changes kind, notified, and counted in the metrics; its end likewise.
 * Outside a window no new node is taken; a node already under way finishes (it is never paused
 * half-drained by a window closing).
 */
import { sleep } from '../abortable.js';
import { NodeStop, type RunContext } from './context.js';
import { appendLog } from './decide.js';
import { checkHolds, type HoldVerdict } from './hold-checks.js';
import { formatDuration } from '../../duration.js';
import { isoMs } from '../types.js';

/** The rollout's deadline, when it has one and it has passed: the pause's message. */
export function rolloutDeadlinePassed(ctx: RunContext, now: number): string | undefined {
  const limit = ctx.guards.rolloutDeadlineMs;
  const from = isoMs(ctx.writer.state.deadlineFrom);
  if (!limit || !Number.isFinite(from) || now - from < limit) return undefined;
  return `rollout deadline of ${formatDuration(limit, 'span')} passed (counted from ${ctx.writer.state.deadlineFrom}); resume to give it another ${formatDuration(limit, 'span')}`;
}

function recordHold(ctx: RunContext, v: HoldVerdict, now: Date): void {
  const prev = ctx.writer.state.hold;
  const changed = prev?.kind !== v.kind;
  const iso = now.toISOString();
  const write = changed ? ctx.writer.change.bind(ctx.writer) : ctx.writer.changeSoon.bind(ctx.writer);
  write((st) => {
    st.hold = {
      kind: v.kind,
      reason: v.reason,
      since: changed ? iso : (prev?.since ?? iso),
      ...(v.until ? { until: v.until.toISOString() } : {}),
      checkedAt: iso,
    };
    if (changed) appendLog(st, `held: ${v.reason}`);
  });
  if (!changed) return;
  // Soaking is the pace the spec asked for, not a block.
  const blocked = v.kind !== 'soak';
  ctx.events.rollout(blocked ? 'Warning' : 'Normal', 'RolloutHeld', `Rollout ${ctx.spec.name} held: ${v.reason}`);
  if (blocked) {
    ctx.notify.send('blocked', { reason: v.reason });
    ctx.metrics?.gateBlocked(ctx.spec.name, v.kind);
  }
  ctx.metrics?.setHeld(ctx.spec.name, v.kind);
}

function clearHold(ctx: RunContext): void {
  const prev = ctx.writer.state.hold;
  if (!prev) return;
  const held = formatDuration(Date.now() - isoMs(prev.since), 'span');
  ctx.writer.change((st) => {
    delete st.hold;
    appendLog(st, `released after ${held} (${prev.kind})`);
  });
  ctx.events.rollout('Normal', 'RolloutReleased', `Rollout ${ctx.spec.name} released after ${held} held (${prev.kind})`);
  ctx.metrics?.setHeld(ctx.spec.name, undefined);
}

/**
 * Waits until nothing holds the batch; resolves with the nodes it may take now (the budget may
 * allow fewer than the batch). A passed rollout deadline pauses the rollout (NodeStop).
 */
export async function awaitClearance(
  ctx: RunContext,
  batch: readonly string[],
  clusterLease: () => Promise<HoldVerdict | undefined>,
): Promise<string[]> {
  for (;;) {
    ctx.signal.throwIfAborted();
    const now = new Date();
    const late = rolloutDeadlinePassed(ctx, now.getTime());
    if (late) {
      ctx.events.rollout('Warning', 'DeadlineExceeded', `Rollout ${ctx.spec.name}: ${late}`);
      ctx.metrics?.failure(ctx.spec.name, 'deadline');
      throw new NodeStop('pause', late);
    }
    const c = await checkHolds(ctx, batch, now, clusterLease);
    ctx.signal.throwIfAborted();
    if (!c.hold) {
      clearHold(ctx);
      await ctx.writer.flush();
      return c.take;
    }
    recordHold(ctx, c.hold, now);
    await ctx.writer.flush();
    const untilMs = c.hold.until ? c.hold.until.getTime() - Date.now() : Number.POSITIVE_INFINITY;
    await sleep(Math.max(0, Math.min(ctx.guards.recheckMs, untilMs)), ctx.signal);
  }
}
