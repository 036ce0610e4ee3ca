/**
 * What may hold a rollout before it takes its next batch, checked in this order: the maintenance
 * window, the soak after the last batch, the disruption budget, pods matching a blocking selector,
 * firing alerts, and last another rollout running in the cluster (so that a rollout waiting for
 * its window keeps no other from running). The first that holds is the verdict; the budget also
 * caps how many nodes the batch may take.
 */
import { describeError } from '../../kube/transport/client.js';
import { listLabeledNodes } from '../../kube/nodes/nodes.js';
import { listPods } from '../../kube/pods/pod-ops.js';
import { formatDuration } from '../../duration.js';
import { checkAlerts } from '../guards/alerts.js';
import { budgetVerdict, maxTakeNow, type BudgetInput } from '../guards/budget.js';
import { tryClusterLease } from '../guards/cluster-lease.js';
import type { HoldKind } from '../guards/types.js';
import { windowVerdict } from '../guards/windows.js';
import { isoMs } from '../types.js';
import type { RunContext } from './context.js';

export interface HoldVerdict {
  kind: HoldKind;
  reason: string;
  /** When the hold ends by itself (a window opens, a soak ends). */
  until?: Date;
}

/** Held, or the nodes of the batch that may be taken now (the budget may allow fewer), in the order to take them. */
export type Clearance = { hold: HoldVerdict } | { hold?: undefined; take: string[] };

/** Pods that block, as kured lists them: not Succeeded, Failed or Unknown. */
const LIVE_PODS = 'status.phase!=Succeeded,status.phase!=Failed,status.phase!=Unknown';

async function blockingPods(ctx: RunContext): Promise<HoldVerdict | undefined> {
  for (const selector of ctx.guards.blockingPods) {
    let pods: string[];
    try {
      pods = await listPods(
        ctx.kc,
        { labelSelector: selector, fieldSelector: LIVE_PODS },
        (p) => `${p.metadata?.namespace}/${p.metadata?.name}`,
      );
    } catch (err) {
      return { kind: 'pods', reason: `cannot list the pods matching ${selector}: ${describeError(err)}` };
    }
    if (pods.length) {
      const few = pods.length > 3 ? `${pods.slice(0, 3).join(', ')} and ${pods.length - 3} more` : pods.join(', ');
      return { kind: 'pods', reason: `held by ${pods.length} pod${pods.length === 1 ? '' : 's'} matching ${selector}: ${few}` };
    }
  }
  return undefined;
}

/**
 * The budget's verdict on the batch (pure). A node of the batch already cordoned or NotReady is
 * counted as unavailable already: taking it costs nothing, and it is taken first.
 */
export function budgetTake(batch: readonly string[], input: Omit<BudgetInput, 'taking'>): Clearance {
  const down = new Set(input.nodes.filter((n) => n.unschedulable || !n.ready).map((n) => n.name));
  const ordered = [...batch.filter((n) => down.has(n)), ...batch.filter((n) => !down.has(n))];
  const free = maxTakeNow(input) + ordered.filter((n) => down.has(n)).length;
  if (free < 1) return { hold: { kind: 'budget', reason: budgetVerdict({ ...input, taking: 1 }).text } };
  return { take: ordered.slice(0, free) };
}

async function budget(ctx: RunContext, batch: readonly string[], now: Date): Promise<Clearance> {
  const b = ctx.guards.budget;
  if (!b) return { take: [...batch] };
  try {
    const nodes = await listLabeledNodes(ctx.kc);
    return budgetTake(batch, { budget: b, now, nodes, selected: new Set(ctx.writer.state.nodes.map((n) => n.name)) });
  } catch (err) {
    return { hold: { kind: 'budget', reason: `cannot list the nodes for the disruption budget: ${describeError(err)}` } };
  }
}

/** The first hold that applies now, or how many of the batch's nodes may be taken. */
export async function checkHolds(
  ctx: RunContext,
  batch: readonly string[],
  now: Date,
  clusterLease: () => Promise<HoldVerdict | undefined>,
): Promise<Clearance> {
  const g = ctx.guards;
  const w = windowVerdict(g.windows, now);
  if (!w.open) return { hold: { kind: 'window', reason: w.text, until: w.opensAt } };
  const soakUntil = isoMs(ctx.writer.state.soakUntil);
  if (Number.isFinite(soakUntil) && soakUntil > now.getTime()) {
    const left = formatDuration(soakUntil - now.getTime(), 'span');
    return { hold: { kind: 'soak', reason: `soaking before the next node: ${left} left`, until: new Date(soakUntil) } };
  }
  const b = await budget(ctx, batch, now);
  if (b.hold) return b;
  const pods = await blockingPods(ctx);
  if (pods) return { hold: pods };
  if (g.alerts) {
    const a = await checkAlerts(g.alerts, ctx.signal);
    if (!a.ok) return { hold: { kind: 'alerts', reason: a.text } };
  }
  // Last: a rollout waiting for its window (or a gate) does not keep the cluster from others.
  const cluster = await clusterLease();
  if (cluster) return { hold: cluster };
  return b;
}

/** The cluster's Lease as a hold: undefined once this rollout holds it (or may run beside others). */
export function clusterLeaseCheck(ctx: RunContext, onHeld: () => void): () => Promise<HoldVerdict | undefined> {
  let held = false;
  return async () => {
    if (ctx.guards.concurrent || held) return undefined;
    try {
      const v = await tryClusterLease(ctx.kc, ctx.spec.name);
      if (v.held) {
        held = true;
        onHeld();
        return undefined;
      }
      const since = v.since ? ` since ${new Date(v.since).toISOString().slice(11, 16)} UTC` : '';
      // Checked again when its Lease would run out (a runner killed renews nothing), or sooner.
      return {
        kind: 'cluster',
        reason: `another rollout runs in this cluster: ${v.holder}${since} (one at a time; this one waits)`,
        until: new Date(v.expires + 1_000),
      };
    } catch (err) {
      return { kind: 'cluster', reason: `cannot take the cluster's rollout Lease: ${describeError(err)}` };
    }
  };
}
