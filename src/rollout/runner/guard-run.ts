/** A run's guard rails that live as long as the run: the metrics kept up to date, and the cluster's rollout Lease held and given back. */
import type { RolloutMetrics } from '../guards/metrics.js';
import { keepClusterLease, releaseClusterLease } from '../guards/cluster-lease.js';
import type { NodePhase, RolloutState } from '../types.js';
import type { RunContext } from './context.js';
import { clusterLeaseCheck, type HoldVerdict } from './hold-checks.js';

/** `onState`, with the metrics (nodes by state, the phase, the hold) set from every state first. */
export function guarded(rollout: string, metrics: RolloutMetrics | undefined, onState: (s: RolloutState) => void) {
  return {
    onState: (s: RolloutState) => {
      if (metrics) {
        const counts: Partial<Record<NodePhase, number>> = {};
        for (const n of s.nodes) counts[n.phase] = (counts[n.phase] ?? 0) + 1;
        metrics.setNodes(rollout, counts);
        metrics.setPhase(rollout, s.phase);
        metrics.setHeld(rollout, s.phase === 'Running' ? s.hold?.kind : undefined);
      }
      onState(s);
    },
  };
}

/** The cluster's rollout Lease: taken by the first check that finds it free, renewed from then on, given back by `release`. */
export function clusterLeaseOf(
  ctx: RunContext,
  renewMs: number,
  fatal: (err: Error) => void,
): { check: () => Promise<HoldVerdict | undefined>; release(): Promise<void> } {
  let keeper: { stop(): Promise<void> } | undefined;
  const check = clusterLeaseCheck(ctx, () => {
    keeper = keepClusterLease(ctx.kc, ctx.spec.name, renewMs, (holder) =>
      fatal(new Error(`rollout ${holder} took the cluster's rollout Lease (this one could not renew it)`)),
    );
  });
  return {
    check,
    async release() {
      if (!keeper) return;
      await keeper.stop();
      await releaseClusterLease(ctx.kc, ctx.spec.name).catch(() => {});
    },
  };
}
