/**
 * The run's loop: batch after batch until every node is finished (phase Completed). Before a new
 * batch, the holds (hold.ts) — another rollout in the cluster, the window, the soak, the budget,
 * blocking pods, alerts — and the PreferNoSchedule taint on the nodes about to go; after it, the
 * soak before the next one. A batch a resume picked up (nodes under way) runs at once: a window
 * that closed, or a budget used up meanwhile, never leaves a node half-drained.
 */
import { formatDuration } from '../../duration.js';
import { FINISHED_PHASES, type RolloutState } from '../types.js';
import { runBatch } from './batch.js';
import type { RunContext } from './context.js';
import { appendLog, nextBatch } from './decide.js';
import { awaitClearance } from './hold.js';
import type { HoldVerdict } from './hold-checks.js';
import { taintUpcoming } from './marks.js';

/** The soak before the batch after `priority`'s: longer when the next is of a lower priority. */
function soakAfter(ctx: RunContext, priority: number): number {
  const next = nextBatch(ctx.writer.state);
  if (next.kind !== 'batch') return 0;
  const g = ctx.guards;
  return next.priority < priority ? Math.max(g.soakMs, g.prioritySoakMs) : g.soakMs;
}

/** The nodes after `batch` in plan order, as many as a batch takes: they go next. */
function following(state: RolloutState, batch: readonly string[]): string[] {
  const waiting = state.nodes.filter((n) => n.phase === 'waiting' && !batch.includes(n.name)).map((n) => n.name);
  return waiting.slice(0, Math.max(1, state.spec.maxUnavailable));
}

export async function runAll(ctx: RunContext, clusterLease: () => Promise<HoldVerdict | undefined>): Promise<RolloutState> {
  const { writer } = ctx;
  for (;;) {
    ctx.signal.throwIfAborted();
    const step = nextBatch(writer.state);
    if (step.kind === 'batch') {
      const fresh = step.nodes.every((n) => writer.node(n).phase === 'waiting');
      let nodes = step.nodes;
      if (fresh) {
        nodes = await awaitClearance(ctx, step.nodes, clusterLease);
        await taintUpcoming(ctx, [...nodes, ...following(writer.state, nodes)]);
      } else {
        // A batch under way holds the cluster's Lease if it can, and goes on in any case.
        await clusterLease();
      }
      await runBatch(ctx, nodes);
      const soak = soakAfter(ctx, step.priority);
      if (soak > 0) {
        const until = new Date(Date.now() + soak).toISOString();
        writer.change((st) => {
          st.soakUntil = until;
          appendLog(st, `soaking for ${formatDuration(soak, 'span')} before the next node`);
        });
        await writer.flush();
      }
      continue;
    }
    const done = writer.state.nodes.filter((n) => n.phase === 'done').length;
    const skipped = writer.state.nodes.filter((n) => FINISHED_PHASES.includes(n.phase) && n.phase !== 'done').length;
    const what = `${done} node${done === 1 ? '' : 's'} done${skipped ? `, ${skipped} skipped` : ''}`;
    writer.change((st) => {
      st.phase = 'Completed';
      delete st.message;
      delete st.owner;
      delete st.hold;
      delete st.soakUntil;
      appendLog(st, `completed: ${what}`);
    });
    await writer.flush();
    ctx.events.rollout('Normal', 'RolloutCompleted', `Rollout ${ctx.spec.name} completed: ${what}`);
    ctx.notify.send('completed', { done, total: writer.state.nodes.length });
    return structuredClone(writer.state);
  }
}
