/**
 * Runs a rollout when no Navarchos controller does: per node, in plan order, `maxUnavailable`
 * at a time within a priority: cordon → drain → replacement (wait / delete-node / uncordon) →
 * health gate before the next batch (batch.ts and the phase handlers beside it). Every
 * transition is written to the rollout's ConfigMap before the next action, so a fleetdeck killed
 * at any point resumes where it stopped; drain progress is written at most every second. The
 * owner writes a heartbeat every 10 s and watches its ConfigMap: a phase Aborted written by
 * `fleetdeck rollout abort` elsewhere stops it.
 */
import os from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError } from '../../kube/client.js';
import { abortReason } from '../abortable.js';
import { updateRollout, readRollout, watchRollouts } from '../state.js';
import { DEFAULT_REPLACE_TIMEOUT_MS, HEARTBEAT_MS, type RolloutState } from '../types.js';
import { runBatch } from './batch.js';
import { NodeStop, type RunContext } from './context.js';
import { appendLog, nextBatch } from './decide.js';
import { claimRollout, RolloutAborted, RolloutTakenOver, sameOwner, type Self } from './owner.js';
import { StateWriter } from './writer.js';

export interface RunOptions {
  /** Who drives the rollout (default: this host and process). */
  owner?: Self;
  /** Take over from a live owner (`resume --force-takeover`). */
  forceTakeover?: boolean;
  /** `wait` replacement: how long to wait for the node to go and a new one to join (default 30 min). */
  replaceTimeoutMs?: number;
  heartbeatMs?: number;
}

/** The owner's heartbeat, and the ConfigMap watched for an abort or a takeover; both call `fatal`. */
function keepOwnership(ctx: RunContext, self: Self, heartbeatMs: number, fatal: (err: Error) => void) {
  const { writer } = ctx;
  const heartbeat = setInterval(() => {
    writer.change((s) => {
      if (s.owner) s.owner.heartbeat = new Date().toISOString();
    });
    writer.flush().catch((err: unknown) => fatal(err as Error));
  }, heartbeatMs);
  heartbeat.unref();
  const watch = watchRollouts(
    ctx.kc,
    {
      onState: (s) => {
        if (s.phase === 'Aborted') fatal(new RolloutAborted(s.message ?? 'the rollout was aborted'));
        // Listed after our claim: any other owner from now on took the rollout over.
        else if (s.owner && !sameOwner(s.owner, self)) fatal(new RolloutTakenOver(s.owner));
      },
    },
    ctx.spec.name,
  );
  return async () => {
    clearInterval(heartbeat);
    await watch.stop();
  };
}

/** Batch after batch until every node is done: phase Completed. */
async function runAll(ctx: RunContext): Promise<RolloutState> {
  const { writer } = ctx;
  for (;;) {
    ctx.signal.throwIfAborted();
    const step = nextBatch(writer.state);
    if (step.kind === 'batch') {
      await runBatch(ctx, step.nodes);
      continue;
    }
    writer.change((st) => {
      st.phase = 'Completed';
      delete st.message;
      delete st.owner;
      appendLog(st, `completed: ${st.nodes.length} node${st.nodes.length === 1 ? '' : 's'} done`);
    });
    await writer.flush();
    return structuredClone(writer.state);
  }
}

/** The rollout stops here, recorded (Failed or Paused), ownership given back. */
async function stopRun(ctx: RunContext, phase: 'Failed' | 'Paused', message: string, log: string): Promise<RolloutState> {
  ctx.writer.change((st) => {
    st.phase = phase;
    st.message = message;
    delete st.owner;
    appendLog(st, log);
  });
  await ctx.writer.flush().catch(() => {});
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
    appendLog(s, `fleetdeck pid ${self.pid} on ${self.host} stopped: ${reason.message}`);
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
  // Interrupted here (Ctrl-C), or a failure of ours (an API server gone for a minute): pause, resumable.
  const message = interrupted
    ? reason.message === 'interrupted'
      ? 'interrupted'
      : `interrupted: ${reason.message}`
    : `stopped: ${describeError(reason)}`;
  return stopRun(ctx, 'Paused', message, `paused: ${message} (fleetdeck rollout resume ${name} continues)`);
}

/**
 * Drives a rollout until it completes, pauses or fails, or is aborted. `state` is the rollout
 * as created or read (its ConfigMap must exist): the runner claims it (phase Running, owner =
 * this process) — refused when it is Completed or Aborted, or when another live fleetdeck
 * owns it (unless `forceTakeover`) — and re-enters every node at its recorded phase. Every
 * change goes to `onState` (a copy) as it happens. The caller's `signal` (Ctrl-C) pauses the
 * rollout, resumable. Resolves with the final state; throws only when the rollout could not
 * be claimed (UserError).
 */
export async function runRollout(
  kc: KubeConfig,
  state: RolloutState,
  opts: RunOptions = {},
  onState: (state: RolloutState) => void = () => {},
  signal?: AbortSignal,
): Promise<RolloutState> {
  const self = opts.owner ?? { host: os.hostname(), pid: process.pid };
  const claimed = await claimRollout(kc, state.spec.name, self, opts.forceTakeover === true);
  // Everything below stops on the caller's signal, on an abort seen in the ConfigMap, or on a write that failed for good.
  const stop = new AbortController();
  const onCallerAbort = () => stop.abort(signal?.reason instanceof Error ? signal.reason : new Error('interrupted'));
  if (signal?.aborted) onCallerAbort();
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  const fatal = (err: Error) => {
    if (!stop.signal.aborted) stop.abort(err);
  };
  const writer = new StateWriter(kc, claimed, self, onState, fatal);
  onState(structuredClone(writer.state));
  const replaceTimeoutMs = opts.replaceTimeoutMs ?? DEFAULT_REPLACE_TIMEOUT_MS;
  const ctx: RunContext = { kc, spec: writer.state.spec, writer, signal: stop.signal, replaceTimeoutMs };
  const release = keepOwnership(ctx, self, opts.heartbeatMs ?? HEARTBEAT_MS, fatal);
  try {
    return await runAll(ctx);
  } catch (err) {
    return await endRun(ctx, self, err, signal?.aborted === true);
  } finally {
    writer.stop();
    signal?.removeEventListener('abort', onCallerAbort);
    await release();
  }
}
