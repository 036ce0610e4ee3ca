/**
 * Which evictions a PodDisruptionBudget would refuse right now (pure): the dry run's
 * `blocked-pdb` verdicts.
 */
import { pdbRef, pdbSelectsPod, type PdbObject } from '../../kube/pods/pdb.js';
import type { DrainPod, PodClassification } from './filters.js';

/** Whether the eviction API checks budgets for this pod: not for pods that are not running (Pending, finished) or already terminating. */
export function budgetApplies(pod: DrainPod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Pending' || phase === 'Succeeded' || phase === 'Failed') return false;
  return !pod.metadata?.deletionTimestamp;
}

/** The verdict for one pod covered by exactly one budget with `left` evictions still allowed (undefined: evicted). */
function singleBudget(c: PodClassification, pdb: PdbObject, left: Map<PdbObject, number>): PodClassification {
  const ref = pdbRef(pdb);
  const gen = pdb.metadata?.generation;
  if (gen !== undefined && (pdb.status?.observedGeneration ?? 0) < gen) {
    return {
      ...c,
      action: 'blocked-pdb',
      reason: `PodDisruptionBudget ${ref.name} is still being processed by the disruption controller`,
      pdb: ref,
    };
  }
  const n = left.get(pdb) ?? 0;
  if (n > 0) {
    left.set(pdb, n - 1);
    return c;
  }
  const why =
    ref.disruptionsAllowed === 0
      ? `PodDisruptionBudget ${ref.name} allows 0 disruptions now`
      : `PodDisruptionBudget ${ref.name} allows ${ref.disruptionsAllowed} disruption(s) now, used by other pods of this node`;
  return { ...c, action: 'blocked-pdb', reason: why, pdb: ref };
}

/**
 * Marks the pods a PDB would block if they were evicted right now: the eviction API allows a
 * budget's `disruptionsAllowed` evictions, then answers 429 until the controller recounts
 * healthy pods. The first pods (in the given order) use up the allowance; the rest are
 * `blocked-pdb`. A pod covered by more than one PDB is blocked too (the eviction API refuses
 * it), and so is one whose PDB the disruption controller has not processed yet.
 */
export function markPdbBlocked(
  classes: readonly PodClassification[],
  pods: readonly DrainPod[],
  pdbs: readonly PdbObject[],
): PodClassification[] {
  const byUid = new Map(pods.map((p) => [p.metadata?.uid ?? '', p]));
  const left = new Map<PdbObject, number>(pdbs.map((p) => [p, Math.max(0, p.status?.disruptionsAllowed ?? 0)]));
  return classes.map((c) => {
    if (c.action !== 'evict') return c;
    const pod = byUid.get(c.uid);
    if (!pod || !budgetApplies(pod)) return c;
    const matching = pdbs.filter((b) => pdbSelectsPod(b, pod));
    if (matching.length === 0) return c;
    if (matching.length > 1) {
      const names = matching.map((b) => b.metadata?.name).join(', ');
      const reason = `covered by ${matching.length} PodDisruptionBudgets (${names}); the eviction API refuses such pods`;
      return { ...c, action: 'blocked-pdb', reason, pdb: pdbRef(matching[0]!) };
    }
    return singleBudget(c, matching[0]!, left);
  });
}
