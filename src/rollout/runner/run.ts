/**
 * Runs a rollout when no Navarchos controller does: per node, in plan order, `maxUnavailable`
 * at a time within a priority: cordon → drain → replacement (wait / delete-node / uncordon) →
 * health gate before the next batch (batch.ts and the phase handlers beside it). Every
 * transition is written to the rollout's ConfigMap before the next action, so a fleetdeck killed
 * at any point resumes where it stopped; drain progress is written at most every second. The
 * runner holds the rollout's Lease (src/rollout/ownership.ts), renewed every 10 s, and watches
 * its ConfigMap: a phase Aborted written by `fleetdeck rollout abort` elsewhere, another holder
 * of the Lease, or a Lease it could not renew for its duration stops it before the next node.
 * Every step is also an Event on the node and on the record (events.ts).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../../kube/transport/client.js';
import { abortReason } from '../abortable.js';
import { selfHolder } from '../owner-liveness.js';
import { acquireRolloutLease, keepLease, releaseRolloutLease } from '../ownership.js';
import { readRollout, updateRollout, watchRollouts } from '../state.js';
import { RENEW_MS, ownerIdentity, type RolloutState } from '../types.js';
import type { RolloutMetrics } from '../guards/metrics.js';
import { clusterLeaseOf } from './guard-run.js';
import { runContext } from './run-context.js';
import { runAll } from './run-all.js';
import { NodeStop, type RunContext } from './context.js';
import { appendLog } from './decide.js';
import { claimRollout, RolloutAborted, RolloutTakenOver, sameOwner, type Self } from './owner.js';

export interface RunOptions {
  /** Who drives the rollout (default: this process, `host/pid` or `pod/$POD_NAME`). */
  owner?: Self;
  /** Take over from a live holder (`resume --force-takeover`). */
  forceTakeover?: boolean;
  /** `wait` replacement: how long to wait for the node to go and a new one to join (default 30 min). */
  replaceTimeoutMs?: number;
  /** How often the Lease is renewed (default 10 s). */
  renewMs?: number;
  /** The context's name, for the refusal's hint and the notifications. */
  context?: string;
  /** The metrics to keep up to date (served by the caller). */
  metrics?: RolloutMetrics;
}

/** The Lease renewed, and the ConfigMap watched for an abort or another owner; both call `fatal`. */
function keepOwnership(ctx: RunContext, self: Self, lease: Parameters<typeof keepLease>[2], renewMs: number, fatal: (err: Error) => void) {
  // A Lease that could not be renewed (the API server gone) stops the run like any lost server: paused, resumable.
  const kept = keepLease(ctx.kc, ctx.spec.name, lease, self.identity, renewMs, (lost) =>
    fatal(lost.unreachable ? new Error(lost.message) : new RolloutTakenOver(lost.holder, lost.message)),
  );
  const watch = watchRollouts(
    ctx.kc,
    {
      onState: (s) => {
        if (s.phase === 'Aborted') fatal(new RolloutAborted(s.message ?? 'the rollout was aborted'));
        // Listed after our claim: any other owner from now on took the rollout over.
        else if (s.owner && !sameOwner(s.owner, self)) fatal(new RolloutTakenOver(ownerIdentity(s.owner)));
      },
    },
    ctx.spec.name,
  );
  return async () => {
    await kept.stop();
    await watch.stop();
  };
}

/** The rollout stops here, recorded (Failed or Paused), ownership given back. */
async function stopRun(ctx: RunContext, phase: 'Failed' | 'Paused', message: string, log: string): Promise<RolloutState> {
  ctx.writer.change((st) => {
    st.phase = phase;
    st.message = message;
    delete st.owner;
    delete st.hold;
    appendLog(st, log);
  });
  await ctx.writer.flush().catch(() => {});
  ctx.events.rollout(
    'Warning',
    phase === 'Failed' ? 'RolloutFailed' : 'RolloutPaused',
    `Rollout ${ctx.spec.name} ${phase.toLowerCase()}: ${message}`,
  );
  ctx.notify.send(phase === 'Failed' ? 'failed' : 'paused', { reason: message });
  return structuredClone(ctx.writer.state);
}

/**
 * After an abort seen in the ConfigMap (or a takeover): the runner has stopped (every node's
 * step settled); it gives the ownership back on the fresh state, which keeps its phase
 * Aborted. The abort itself uncordons, once the owner has let go.
 */
async function finishAbortedOrTakenOver(kc: KubeConfig, name: string, self: Self, reason: Error): Promise<RolloutState> {
  const fresh = await readRollout(kc, name);
  if (!fresh) throw reason;
  // Taken over: the new owner drives it now.
  if (reason instanceof RolloutTakenOver) return fresh.state;
  const res = await updateRollout(kc, name, (s) => {
    if (sameOwner(s.owner, self)) delete s.owner;
    appendLog(s, `${self.identity} stopped: ${reason.message}`);
  });
  return res.state;
}

/** How a run that threw ends: a node's stop, an abort or takeover elsewhere, or an interruption (paused, resumable). */
async function endRun(ctx: RunContext, self: Self, err: unknown, interrupted: boolean): Promise<RolloutState> {
  const name = ctx.spec.name;
  if (err instanceof NodeStop) {
    const failed = err.outcome === 'fail';
    const log = failed ? `failed: ${err.message}` : `paused: ${err.message} (fleetdeck rollout resume ${name} retries)`;
    return stopRun(ctx, failed ? 'Failed' : 'Paused', err.message, log);
  }
  const reason = ctx.signal.aborted ? abortReason(ctx.signal) : (err as Error);
  const ended = [reason, ctx.writer.failure].find((e) => e instanceof RolloutAborted || e instanceof RolloutTakenOver);
  if (ended) return finishAbortedOrTakenOver(ctx.kc, name, self, ended);
  // Interrupted here (Ctrl-C, a closed terminal), or a failure of ours (an API server gone for a minute): pause, resumable.
  const message = interrupted
    ? reason.message === 'interrupted'
      ? 'interrupted'
      : `interrupted: ${reason.message}`
    : `stopped: ${describeError(reason)}`;
  return stopRun(ctx, 'Paused', message, `paused: ${message} (fleetdeck rollout resume ${name} continues)`);
}

/** Waits for the Events written so far, at most `ms`. */
async function settleEvents(ctx: RunContext, ms = 5_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ctx.events.flush(), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

/**
 * Drives a rollout until it completes, pauses or fails, or is aborted. `state` is the rollout
 * as created or read (its ConfigMap must exist): the runner takes its Lease — refused (UserError
 * naming the holder) when another live holder has it, unless `forceTakeover` — then claims the
 * record (phase Running, owner = this holder; refused when it is Completed or Aborted), and
 * re-enters every node at its recorded phase. Every change goes to `onState` (a copy) as it
 * happens. The caller's `signal` (Ctrl-C, SIGTERM, a closed terminal) pauses the rollout,
 * resumable. The Lease is given back when the run ends. Resolves with the final state; throws
 * only when the rollout could not be taken (UserError).
 */
export async function runRollout(
  kc: KubeConfig,
  state: RolloutState,
  opts: RunOptions = {},
  onState: (state: RolloutState) => void = () => {},
  signal?: AbortSignal,
): Promise<RolloutState> {
  const self = opts.owner ?? selfHolder();
  const name = state.spec.name;
  const record = await readRollout(kc, name);
  const acquired = await acquireRolloutLease(kc, name, record?.uid, self.identity, opts.forceTakeover === true, opts.context);
  let claimed: Awaited<ReturnType<typeof claimRollout>>;
  try {
    claimed = await claimRollout(kc, name, self, acquired.previous);
  } catch (err) {
    await releaseRolloutLease(kc, name, self.identity, record?.uid).catch(() => {});
    throw err;
  }
  // Everything below stops on the caller's signal, on an abort seen in the ConfigMap, a lost Lease, or on a write that failed for good.
  const stop = new AbortController();
  const onCallerAbort = () => stop.abort(signal?.reason instanceof Error ? signal.reason : new Error('interrupted'));
  if (signal?.aborted) onCallerAbort();
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  const fatal = (err: Error) => {
    if (!stop.signal.aborted) stop.abort(err);
  };
  const ctx = runContext({ kc, state, claimed, self, opts, onState, signal: stop.signal, fatal, recordUid: record?.uid });
  const { writer, notify } = ctx;
  const release = keepOwnership(ctx, self, acquired.lease, opts.renewMs ?? RENEW_MS, fatal);
  const cluster = clusterLeaseOf(ctx, opts.renewMs ?? RENEW_MS, fatal);
  let takenOver = false;
  try {
    return await runAll(ctx, cluster.check);
  } catch (err) {
    const final = await endRun(ctx, self, err, signal?.aborted === true);
    takenOver = [abortReason(stop.signal), ctx.writer.failure].some((e) => e instanceof RolloutTakenOver);
    return final;
  } finally {
    writer.stop();
    signal?.removeEventListener('abort', onCallerAbort);
    await release();
    // Taken over: the cluster's Lease names the rollout, which the new holder runs on.
    if (!takenOver) await cluster.release();
    await settleEvents(ctx);
    await notify.flush();
    notify.close();
    // Taken over: the Lease is the new holder's (release only clears a Lease still ours anyway).
    if (!takenOver) await releaseRolloutLease(kc, name, self.identity, record?.uid).catch(() => {});
  }
}
