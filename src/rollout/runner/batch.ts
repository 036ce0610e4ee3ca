/** One batch of a run: its nodes, each from its recorded phase (cordon → drain → replacement), then the health gate. */
import { formatDuration } from '../../duration.js';
import { isoMs } from '../types.js';
import { NodeStop, type RunContext } from './context.js';
import { cordonPhase } from './cordon.js';
import { appendLog } from './decide.js';
import { drainPhase } from './drain.js';
import { healthGate } from './health-gate.js';
import { markFinished } from './marks.js';
import { replacePhase } from './replace.js';

/** One node from its recorded phase up to `validating` (the gate is the batch's); a skipped node stops at `skipped`. */
async function runNode(ctx: RunContext, name: string): Promise<void> {
  if (ctx.writer.node(name).phase === 'waiting') await cordonPhase(ctx, name);
  const phase = ctx.writer.node(name).phase;
  if (phase === 'cordoned' || phase === 'draining') {
    ctx.signal.throwIfAborted();
    await drainPhase(ctx, name);
  }
  if (ctx.writer.node(name).phase === 'replacing') {
    ctx.signal.throwIfAborted();
    await replacePhase(ctx, name);
  }
}

/** Of the nodes' failures: anything but a NodeStop first, then a `fail`, then the first pause. */
export function batchStop(reasons: readonly unknown[]): unknown {
  const other = reasons.find((e) => !(e instanceof NodeStop));
  if (other) return other;
  return (reasons as NodeStop[]).find((e) => e.outcome === 'fail') ?? reasons[0];
}

/** The gate after the batch's nodes: passed, they are done; failed, the rollout pauses. */
async function gate(ctx: RunContext, names: string[]): Promise<void> {
  const { spec, writer } = ctx;
  const h = spec.health;
  const apart = formatDuration(h.intervalMs, 'span');
  writer.change((st) =>
    appendLog(
      st,
      `health gate for ${names.join(', ')}: every node Ready and no Pending pod, ${h.passes} time${h.passes === 1 ? '' : 's'} in a row, ${apart} apart`,
    ),
  );
  const verdict = await healthGate(ctx.kc, h, ctx.signal);
  ctx.signal.throwIfAborted();
  if (!verdict.ok) {
    const message = `health gate failed within ${formatDuration(h.timeoutMs, 'span')}: ${verdict.detail}`;
    writer.change((st) => {
      for (const x of st.nodes) if (names.includes(x.name)) x.error = message;
    });
    for (const n of names) ctx.events.node(n, writer.node(n).uid, 'Warning', 'HealthGateFailed', message);
    ctx.events.rollout('Warning', 'HealthGateFailed', `${names.join(', ')}: ${message}`);
    ctx.metrics?.failure(spec.name, 'gate');
    throw new NodeStop('pause', message);
  }
  writer.change((st) => {
    const now = new Date().toISOString();
    for (const x of st.nodes) {
      if (!names.includes(x.name)) continue;
      x.phase = 'done';
      x.completedAt = now;
      delete x.error;
    }
    appendLog(st, `health gate passed (${verdict.detail}): ${names.join(', ')} done`);
  });
  await writer.flush();
  const passed = `Health gate passed (${verdict.detail})`;
  for (const n of names) {
    const x = writer.node(n);
    ctx.events.node(n, x.uid, 'Normal', 'HealthGatePassed', passed);
    await markFinished(ctx, n, x.replacement, true);
    ctx.notify.send('replaced', { node: n, replacement: x.replacement });
    const took = (isoMs(x.completedAt) - isoMs(x.startedAt)) / 1000;
    if (Number.isFinite(took)) ctx.metrics?.observeNode(spec.name, 'total', took);
  }
  ctx.events.rollout('Normal', 'HealthGatePassed', `${passed}: ${names.join(', ')} done`);
}

/**
 * The node deadline of the batch, as a signal that aborts with a NodeStop (pause) when the first
 * of its nodes has been worked on longer than the spec allows (counted from its cordon, or from
 * this run's start for a node a resume picked up). Undefined without a node deadline.
 */
function nodeDeadline(ctx: RunContext, names: readonly string[]): { signal: AbortSignal; clear(): void } | undefined {
  const limit = ctx.guards.nodeDeadlineMs;
  if (!limit) return undefined;
  const starts = names.map((n) => Math.max(isoMs(ctx.writer.node(n).startedAt) || Date.now(), ctx.runStart));
  const first = Math.min(...starts);
  const which = names[starts.indexOf(first)]!;
  const stop = new AbortController();
  const message = `node ${which} not done within its deadline of ${formatDuration(limit, 'span')}`;
  const timer = setTimeout(
    () => {
      ctx.writer.changeNode(which, (x, st) => {
        x.error = message;
        appendLog(st, `${which}: ${message}; pausing`);
      });
      ctx.events.node(which, ctx.writer.node(which).uid, 'Warning', 'DeadlineExceeded', message);
      ctx.metrics?.failure(ctx.spec.name, 'deadline');
      stop.abort(new NodeStop('pause', message));
    },
    Math.max(0, first + limit - Date.now()),
  );
  return { signal: AbortSignal.any([ctx.signal, stop.signal]), clear: () => clearTimeout(timer) };
}

/** The batch's nodes, then the health gate for those not skipped; a NodeStop says how the rollout stops. */
export async function runBatch(ctx: RunContext, names: string[]): Promise<void> {
  const deadline = nodeDeadline(ctx, names);
  const c: RunContext = deadline ? { ...ctx, signal: deadline.signal } : ctx;
  try {
    const results = await Promise.allSettled(names.map((n) => runNode(c, n)));
    // A node's failure first: a deadline passing meanwhile only pauses, and must not hide a fail.
    const stops = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
    if (stops.length) throw batchStop(stops);
    c.signal.throwIfAborted();
    const gated = names.filter((n) => ctx.writer.node(n).phase !== 'skipped');
    if (gated.length) await gate(c, gated);
  } finally {
    deadline?.clear();
  }
}
