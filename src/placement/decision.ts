/**
 * A placement decision's shape (what every cluster looked at made of the unit, the targets, or
 * why it stays pending) and the two helpers both kinds of decision use: a unit's pod demands
 * and a cluster's verdict on them.
 */
import { type Fit, fitPods, type PodDemand, unavailable } from './fit.js';
import type { ClusterView, PolicyView, WorkloadView } from './types.js';
import { isPodController, refKey } from './types.js';

export interface Candidate {
  cluster: string;
  verdict: 'picked' | 'fits' | 'skipped' | 'not selected';
  why?: string;
  /** Skipped for this taint, or because it is not Ready or in standby (the hint depends on it). */
  taint?: string;
  down?: boolean;
}

export interface Target {
  cluster: string;
  /** Divide: the replicas of each pod controller (by refKey) this cluster runs. */
  replicas?: Record<string, number>;
  topologyValue?: string;
}

export interface Decision {
  by: 'annotation' | 'policy';
  mode: 'single' | 'Duplicate' | 'Divide';
  targets: Target[];
  candidates: Candidate[];
  /** No target: why, in one line. */
  pending?: string;
  message: string;
}

export interface Unit {
  members: WorkloadView[];
  policy?: PolicyView;
  annotation?: string;
  /** Clusters holding the unit now (kept while it still fits). */
  current: readonly string[];
  /** Clusters its pods stayed Pending in (an agent asked to reschedule): not picked again for this spec. */
  avoid?: readonly string[];
}

export function demandsOf(members: readonly WorkloadView[], replicas?: Record<string, number>): PodDemand[] {
  return members.filter(isPodController).map((w) => ({
    count: replicas?.[refKey(w.ref)] ?? w.replicas ?? 1,
    requests: w.podRequests!,
    tolerations: w.tolerations,
  }));
}

/**
 * A cluster's verdict on the demands. A cluster that already runs the unit keeps it without a
 * fit check (its own pods use the room counted), even while not Ready: the scheduler does not
 * move work off a cluster whose agent went silent (the row shows it orphaned).
 */
export function judge(c: ClusterView, demands: readonly PodDemand[], held = false, avoided = false): Fit {
  if (avoided) return { fits: false, why: 'its pods stayed Pending there (rescheduled away)', freeCpu: 0 };
  if (held)
    return {
      fits: true,
      why: c.ready ? 'already runs it' : 'already runs it (not Ready: kept until its agent reports again)',
      freeCpu: Number.MAX_SAFE_INTEGER,
    };
  const down = unavailable(c);
  return down ? { fits: false, why: down, freeCpu: 0, down: true } : fitPods(c, demands);
}

/** A cluster looked at, and what it made of the unit. */
export function candidateOf(cluster: string, fit: Fit, picked: boolean): Candidate {
  return {
    cluster,
    verdict: picked ? 'picked' : fit.fits ? 'fits' : 'skipped',
    why: fit.fits ? (fit.why ?? 'has enough resources') : fit.why,
    ...(fit.taint ? { taint: fit.taint } : {}),
    ...(fit.down ? { down: true } : {}),
  };
}
