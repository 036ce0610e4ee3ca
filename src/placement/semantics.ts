/**
 * Where Nova's documentation is silent, the choices this project makes — in one place, so they
 * can change together (docs/placement.md, "The choices made where Nova's documentation is silent"):
 * - Several policies match one object: the oldest policy wins (creation time, then name); the
 *   others are reported as a conflict.
 * - The annotation `nova.elotl.co/cluster` wins over any policy.
 * - Fit: every pod of the unit (replicas × requests) must fit on one node each, packed
 *   first-fit onto the nodes with the most room, onto nodes whose NoSchedule/NoExecute taints
 *   the pods tolerate; a cluster not Ready or in standby is never picked.
 * - clusterSelector with several fitting clusters: a cluster already holding the unit keeps
 *   it; otherwise the one with the most free CPU (then name).
 * - No cluster fits: the unit stays pending (no target), with a Warning Event NO_FIT_REASON (`NoClusterFits`)
 *   naming each candidate and why it was refused.
 * - Rescheduling: an agent whose copy of a policy-placed pod controller has a pod Pending
 *   (Unschedulable) for RESCHEDULE_AFTER_MS records its cluster in RESCHEDULE_ANNOTATION with the
 *   hash of the object's spec and says `ReschedulingTriggered`; the scheduler then avoids that cluster
 *   for that spec (a changed spec may go there again). Annotation-placed workloads stay.
 * - Divide with percentageSplit rounds each share down (as observed); an even split gives the
 *   remainder to the first domains. Duplicate and Divide need every share to fit.
 * - The sandbox's scheduler tells its agents where spread shares go in the annotation
 *   SPREAD_ANNOTATION (`cluster=replicas,…`); the agents mark their copies with COPY_LABEL and
 *   report a copy's status to the control plane in `STATUS_ANNOTATION_PREFIX<cluster>`.
 */
export { NO_FIT_REASON } from '../kube/nova/placement-watch.js';
export const CLUSTER_ANNOTATION = 'nova.elotl.co/cluster';
export const TARGET_LABEL = 'nova.elotl.co/target-cluster';
export const MATCHING_POLICY_LABEL = 'nova.elotl.co/matching-policy';
export const SPREAD_ANNOTATION = 'nova.elotl.co/spread-targets';
export const COPY_LABEL = 'nova.elotl.co/managed-by-agent';
export const STATUS_ANNOTATION_PREFIX = 'status.nova.elotl.co/';
export const NAME_LABEL = 'kubernetes.io/metadata.name';
/** Where the sandbox's agents record the clusters a workload's pods stayed Pending in (JSON: cluster → a hash of the spec). */
export const RESCHEDULE_AFTER_MS = 20_000;
export const RESCHEDULE_ANNOTATION = 'nova.elotl.co/rescheduled-from';

/** The policy used when several match: the oldest, then by name. */
export function precedence<T extends { name: string; created: string }>(policies: readonly T[]): T[] {
  return [...policies].sort((a, b) => a.created.localeCompare(b.created) || a.name.localeCompare(b.name));
}

/** Replica shares of a Divide: rounded down for a percentage split, an even split otherwise. */
export function divideShares(replicas: number, percentages: readonly number[] | undefined, domains: number): number[] {
  if (percentages) return percentages.map((p) => Math.floor((replicas * p) / 100));
  const base = Math.floor(replicas / domains);
  return Array.from({ length: domains }, (_, i) => base + (i < replicas % domains ? 1 : 0));
}
