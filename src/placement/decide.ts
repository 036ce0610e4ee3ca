/**
 * Where one unit (an object alone, or the objects of one ScheduleGroup) goes: by the annotation,
 * else by its policy — one cluster that fits (fill-and-spill in the policy's order, or the best
 * of those selected), or shares over the spread's domains. Every cluster looked at is listed
 * with its verdict; the Event message says which were skipped and why, and which was picked.
 */
import { type Candidate, candidateOf, type Decision, demandsOf, judge, type Unit } from './decision.js';
import { selectedClusters } from './policy-match.js';
import { spreadTargets } from './spread.js';
import type { ClusterView, PolicyView } from './types.js';

export type { Candidate, Decision, Target, Unit } from './decision.js';

const skippedText = (c: Candidate) => `Cluster ${c.cluster} skipped, ${c.why}`;

function byAnnotation(unit: Unit, clusters: readonly ClusterView[]): Decision {
  const name = unit.annotation!;
  const c = clusters.find((x) => x.name === name);
  if (!c) {
    const why = `the annotation names cluster ${name}, which is not connected`;
    return { by: 'annotation', mode: 'single', targets: [], candidates: [], pending: why, message: why };
  }
  return {
    by: 'annotation',
    mode: 'single',
    targets: [{ cluster: name }],
    candidates: [{ cluster: name, verdict: 'picked', why: 'named by the annotation' }],
    message: `Picked cluster ${name} because the annotation nova.elotl.co/cluster names it`,
  };
}

function onePick(unit: Unit, policy: PolicyView, clusters: readonly ClusterView[]): Decision {
  const selected = selectedClusters(policy, clusters);
  const ordered = !!policy.orderedClusterSelector;
  const demands = demandsOf(unit.members);
  const judged = selected.map((c) => ({
    c,
    fit: judge(c, demands, unit.current.includes(c.name) && !unit.avoid?.includes(c.name), unit.avoid?.includes(c.name)),
  }));
  const fitting = judged.filter((j) => j.fit.fits);
  const keep = fitting.find((j) => unit.current.includes(j.c.name));
  const best = ordered ? fitting[0] : [...fitting].sort((a, b) => b.fit.freeCpu - a.fit.freeCpu || a.c.name.localeCompare(b.c.name))[0];
  const pick = keep ?? best;
  const candidates: Candidate[] = judged.map(({ c, fit }) => candidateOf(c.name, fit, c === pick?.c));
  for (const c of clusters)
    if (!selected.includes(c)) candidates.push({ cluster: c.name, verdict: 'not selected', why: 'its labels do not match the policy' });
  const looked = ordered ? candidates.slice(0, pick ? selected.indexOf(pick.c) + 1 : selected.length) : candidates;
  const skipped = looked.filter((c) => c.verdict === 'skipped').map(skippedText);
  if (!pick) {
    const pending = selected.length === 0 ? `no cluster matches the policy ${policy.name}` : `no cluster fits: ${skipped.join('; ')}`;
    return { by: 'policy', mode: 'single', targets: [], candidates, pending, message: pending };
  }
  const why = keep ? 'it already runs the workload' : 'it has enough resources';
  return {
    by: 'policy',
    mode: 'single',
    targets: [{ cluster: pick.c.name }],
    candidates,
    message: [...skipped, `Picked cluster ${pick.c.name} because ${why}`].join('; '),
  };
}

/** The decision for `unit` over the connected `clusters`. */
export function decide(unit: Unit, clusters: readonly ClusterView[]): Decision {
  if (unit.annotation) return byAnnotation(unit, clusters);
  const policy = unit.policy;
  if (!policy) {
    const why = 'no SchedulePolicy matches it and it has no nova.elotl.co/cluster annotation';
    return { by: 'policy', mode: 'single', targets: [], candidates: [], pending: why, message: why };
  }
  if (policy.spreadConstraints?.spreadMode) return spreadTargets(unit, policy, clusters);
  return onePick(unit, policy, clusters);
}
