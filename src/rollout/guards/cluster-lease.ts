/**
 * One rollout per cluster at a time (system-upgrade-controller's exclusive plans): the Lease
 * `kube-system/fleetdeck-rollouts`, whose holder is the running rollout's name. A rollout takes
 * it before its first node when it is free, expired, or already its own (a runner that took the
 * rollout over), renews it while it runs, and gives it back when the run ends; a rollout whose
 * spec says `concurrent` never takes it. Another rollout holding it holds this one.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { statusCode } from '../../kube/transport/client.js';
import { createLease, readLease, replaceLease, type LeaseHold, type LeaseSummary } from '../../kube/records/lease.js';
import { MANAGED_BY_LABEL, OWNER_STALE_MS, ROLLOUT_NAMESPACE } from '../types.js';

export const CLUSTER_LEASE = { namespace: ROLLOUT_NAMESPACE, name: 'fleetdeck-rollouts' } as const;
const LABELS = { [MANAGED_BY_LABEL]: 'fleetdeck' };
const DURATION_S = OWNER_STALE_MS / 1000;
const CONFLICT_RETRIES = 8;

export type ClusterLeaseVerdict =
  | { held: true; lease: LeaseSummary }
  /** `expires`: when the holder's Lease runs out unless it renews it (epoch ms). */
  | { held: false; holder: string; since?: string; expires: number };

/**
 * When this process first saw each holder's latest renewal: a holder is live while its renewTime
 * has changed within the Lease's duration by this process's own clock, as client-go's leader
 * election judges it — never by comparing another machine's clock with this one's.
 */
export class RenewalClock {
  private seen: { key: string; at: number } | undefined;

  /** Until when (epoch ms, this process's clock) the holder of `l` is live, from its renewal as seen now. */
  liveUntil(l: LeaseHold, now: number): number {
    const key = `${l.holderIdentity ?? ''}@${l.renewTime ?? l.acquireTime ?? ''}`;
    if (this.seen?.key !== key) this.seen = { key, at: now };
    return this.seen.at + l.leaseDurationSeconds * 1000;
  }
}

const clock = new RenewalClock();

/** Whether a Lease as read is held by someone live other than `rollout` (by `seen`, this process's record of its renewals). */
export function heldElsewhere(l: LeaseHold | undefined, rollout: string, now: number, seen: RenewalClock = clock): boolean {
  if (!l?.holderIdentity || l.holderIdentity === rollout) return false;
  return now < seen.liveUntil(l, now);
}

/** Takes the cluster's rollout Lease for `rollout`, or says who holds it. */
export async function tryClusterLease(kc: KubeConfig, rollout: string): Promise<ClusterLeaseVerdict> {
  for (let attempt = 0; ; attempt++) {
    const current = await readLease(kc, CLUSTER_LEASE);
    const now = Date.now();
    if (current && heldElsewhere(current, rollout, now)) {
      const expires = clock.liveUntil(current, now);
      return { held: false, holder: current.holderIdentity!, ...(current.acquireTime ? { since: current.acquireTime } : {}), expires };
    }
    const iso = new Date(now).toISOString();
    const mine = current?.holderIdentity === rollout;
    const hold: LeaseHold = {
      holderIdentity: rollout,
      leaseDurationSeconds: DURATION_S,
      acquireTime: mine && current?.acquireTime ? current.acquireTime : iso,
      renewTime: iso,
      leaseTransitions: (current?.leaseTransitions ?? 0) + (mine ? 0 : 1),
    };
    try {
      const lease = current
        ? await replaceLease(kc, CLUSTER_LEASE, LABELS, undefined, hold, current.resourceVersion)
        : await createLease(kc, CLUSTER_LEASE, LABELS, undefined, hold);
      return { held: true, lease };
    } catch (err) {
      if (statusCode(err) === 409 && attempt < CONFLICT_RETRIES) continue;
      throw err;
    }
  }
}

/**
 * Renews the held Lease every `renewMs`; `lost` is called once when another rollout holds it
 * (it expired while the API server could not be reached, and was taken).
 */
export function keepClusterLease(
  kc: KubeConfig,
  rollout: string,
  renewMs: number,
  lost: (holder: string) => void,
): { stop(): Promise<void> } {
  let over = false;
  let renewing: Promise<void> | undefined;
  const renew = async () => {
    try {
      const v = await tryClusterLease(kc, rollout);
      if (!v.held && !over) {
        over = true;
        lost(v.holder);
      }
    } catch {
      // Unreachable for now: the next renewal tries again; the rollout's own Lease decides whether it goes on.
    }
  };
  const timer = setInterval(() => {
    renewing ??= renew().finally(() => {
      renewing = undefined;
    });
  }, renewMs);
  timer.unref();
  return {
    async stop() {
      over = true;
      clearInterval(timer);
      await renewing;
    },
  };
}

/** Gives the Lease back if `rollout` holds it. */
export async function releaseClusterLease(kc: KubeConfig, rollout: string): Promise<void> {
  for (let attempt = 0; attempt < CONFLICT_RETRIES; attempt++) {
    const current = await readLease(kc, CLUSTER_LEASE);
    if (!current || current.holderIdentity !== rollout) return;
    const { holderIdentity: _h, renewTime: _r, namespace: _n, name: _m, labels: _l, resourceVersion, ...rest } = current;
    try {
      await replaceLease(kc, CLUSTER_LEASE, LABELS, undefined, rest, resourceVersion);
      return;
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
    }
  }
}
