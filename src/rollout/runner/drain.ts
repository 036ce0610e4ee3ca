/** The drain phase of a node: cordoned (or an interrupted drain) → drained, progress written at most every second. */
import { describeError } from '../../kube/transport/client.js';
import { describePdb } from '../../kube/pods/pdb.js';
import { abortReason } from '../abortable.js';
import { drainNode } from '../drain/drain.js';
import { DrainError } from '../drain/errors.js';
import type { DrainProgress } from '../drain/tracker.js';
import type { NodeStatus } from '../types.js';
import { uncordon } from '../../kube/nodes/nodes.js';
import { NodeStop, type RunContext } from './context.js';
import { markFinished } from './marks.js';
import { appendLog } from './decide.js';

function applyProgress(x: NodeStatus, p: DrainProgress): void {
  x.total = p.total;
  x.evicted = p.evicted + p.deleted;
  x.ignored = p.ignored;
  x.failed = p.failed;
  if (p.blockingPdb) x.blockingPdb = { ...p.blockingPdb, ...(p.blockedPod ? { pod: p.blockedPod } : {}) };
  else delete x.blockingPdb;
}

/** The node is draining (counts reset), recorded; the replacement's "after" time taken if the cordon's write did not give one. */
async function startDrain(ctx: RunContext, name: string): Promise<void> {
  const { writer } = ctx;
  writer.changeNode(name, (x, st) => {
    x.startedAt ??= new Date().toISOString();
    x.phase = 'draining';
    x.total = 0;
    x.evicted = 0;
    x.ignored = 0;
    x.failed = 0;
    delete x.blockingPdb;
    delete x.error;
    appendLog(st, `${name}: draining`);
  });
  await writer.flush();
  ctx.events.node(name, writer.node(name).uid, 'Normal', 'DrainStarted', `Draining node ${name} for rollout ${ctx.spec.name}`);
  // Resumed from a kill right after the cordon: the server time now is still before any replacement.
  const after = writer.serverTime;
  if (after && !writer.node(name).replaceAfter)
    writer.changeNode(name, (x) => {
      x.replaceAfter = after;
    });
}

/** The drain's progress into the state (written soon), with a log line when a new budget blocks it. */
const onProgress = (ctx: RunContext, name: string) => {
  let refusals = 0;
  return (p: DrainProgress) => {
    const before = ctx.writer.node(name).blockingPdb?.name;
    // Every refusal by a budget is one DrainBlocked (identical ones aggregated into its count).
    if (p.blockingPdb && (p.refusals ?? 0) > refusals) {
      const pod = p.blockedPod ? `pod ${p.blockedPod}` : 'a pod';
      ctx.events.node(
        name,
        ctx.writer.node(name).uid,
        'Warning',
        'DrainBlocked',
        `Eviction of ${pod} refused by PodDisruptionBudget ${p.blockingPdb.namespace}/${p.blockingPdb.name} (${p.blockingPdb.disruptionsAllowed} disruptions allowed); retrying`,
      );
    }
    refusals = p.refusals ?? refusals;
    ctx.writer.changeSoon((st) => {
      applyProgress(st.nodes.find((y) => y.name === name)!, p);
      if (p.blockingPdb && p.blockingPdb.name !== before) appendLog(st, `${name}: eviction blocked by ${describePdb(p.blockingPdb)}`);
    });
  };
};

/** The drain timed out and the spec says skip: the node uncordoned (if the rollout cordoned it), its marks off, left for later. */
async function skipNode(ctx: RunContext, name: string, err: DrainError): Promise<void> {
  const x = ctx.writer.node(name);
  let uncordoned = '';
  if (x.cordonedByUs) {
    uncordoned = await uncordon(ctx.kc, name).then(
      () => ', uncordoned',
      (e: unknown) => `; could not uncordon it (${describeError(e)}): abort uncordons it`,
    );
  }
  await markFinished(ctx, name, undefined, false);
  const message = `${err.message}; skipped (drainTimeout: skip)${uncordoned}`;
  ctx.writer.changeNode(name, (n, st) => {
    if (err.progress) applyProgress(n, err.progress);
    delete n.blockingPdb;
    n.phase = 'skipped';
    n.cordonedByUs = uncordoned.startsWith(';');
    n.completedAt = new Date().toISOString();
    n.error = message;
    appendLog(st, `${name}: ${message}`);
  });
  await ctx.writer.flush();
  ctx.events.node(name, x.uid, 'Warning', 'NodeSkipped', message);
  ctx.metrics?.failure(ctx.spec.name, 'drain');
}

/** The drain timed out and the spec says force: the pods left deleted without eviction (PodDisruptionBudgets bypassed, kubectl drain --disable-eviction). */
async function forceDrain(ctx: RunContext, name: string, err: DrainError): Promise<void> {
  const { spec, writer } = ctx;
  const message = `${err.message}; deleting the pods left without eviction (drainTimeout: force: PodDisruptionBudgets bypassed)`;
  writer.changeNode(name, (x, st) => {
    delete x.blockingPdb;
    appendLog(st, `${name}: ${message}`);
  });
  await writer.flush();
  ctx.events.node(name, writer.node(name).uid, 'Warning', 'DrainForced', message);
  const { force, deleteEmptyDirData, timeoutMs } = spec.drain;
  const result = await drainNode(
    ctx.kc,
    name,
    { force, deleteEmptyDirData, timeoutMs, evictionVersion: 'none' },
    onProgress(ctx, name),
    ctx.signal,
  );
  drained(ctx, name, result.progress);
}

/** The drain failed: recorded; refused (a flag is needed) fails the rollout, anything else pauses it. */
async function drainFailed(ctx: RunContext, name: string, err: unknown): Promise<never> {
  const refused = err instanceof DrainError && err.kind === 'refused';
  const message = err instanceof DrainError ? err.message : `drain of node ${name}: ${describeError(err)}`;
  ctx.writer.changeNode(name, (x, st) => {
    if (err instanceof DrainError && err.progress) applyProgress(x, err.progress);
    // The message names the budget that held it up.
    delete x.blockingPdb;
    x.phase = 'failed';
    x.error = message;
    appendLog(st, `${name}: ${message}`);
  });
  await ctx.writer.flush();
  ctx.events.node(name, ctx.writer.node(name).uid, 'Warning', 'DrainFailed', message);
  throw new NodeStop(refused ? 'fail' : 'pause', message);
}

/** cordoned/draining → replacing: the node drained (kubectl's semantics, src/rollout/drain). */
export async function drainPhase(ctx: RunContext, name: string): Promise<void> {
  const { spec, writer } = ctx;
  await startDrain(ctx, name);
  const { force, deleteEmptyDirData, timeoutMs } = spec.drain;
  const started = Date.now();
  try {
    const result = await drainNode(ctx.kc, name, { force, deleteEmptyDirData, timeoutMs }, onProgress(ctx, name), ctx.signal);
    drained(ctx, name, result.progress);
  } catch (err) {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    const policy = ctx.guards.onDrainTimeout;
    const timedOut = err instanceof DrainError && err.kind === 'timeout';
    if (timedOut && policy === 'skip') return skipNode(ctx, name, err);
    try {
      if (!(timedOut && policy === 'force')) throw err;
      await forceDrain(ctx, name, err);
    } catch (e) {
      if (ctx.signal.aborted) throw abortReason(ctx.signal);
      await drainFailed(ctx, name, e);
    }
  }
  await writer.flush();
  const x = writer.node(name);
  ctx.events.node(name, x.uid, 'Normal', 'Drained', `Node ${name} drained: ${x.evicted} pods evicted, ${x.ignored} ignored`);
  ctx.notify.send('drained', { node: name });
  ctx.metrics?.observeNode(spec.name, 'drain', (Date.now() - started) / 1000);
}

/** The drain's end recorded: the node goes on to its replacement. */
function drained(ctx: RunContext, name: string, progress: DrainProgress): void {
  ctx.writer.changeNode(name, (x, st) => {
    applyProgress(x, progress);
    delete x.blockingPdb;
    x.phase = 'replacing';
    appendLog(st, `${name}: drained (${x.evicted} evicted, ${x.ignored} ignored); replacement: ${ctx.spec.replace}`);
  });
}
