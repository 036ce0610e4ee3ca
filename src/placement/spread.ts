/**
 * spreadConstraints: one share per topology domain (the values of `topologyKey` among the
 * selected clusters; `kubernetes.io/metadata.name` makes each cluster a domain). Duplicate
 * sends the whole unit to each domain; Divide splits each pod controller's replicas by
 * percentageSplit (rounded down) or evenly. In each domain the share goes to one cluster that
 * fits it; when a domain has none the unit stays pending, with the domain and the reason.
 */
import { type Candidate, candidateOf, type Decision, demandsOf, judge, type Target, type Unit } from './decision.js';
import { selectedClusters } from './policy-match.js';
import { divideShares, NAME_LABEL } from './semantics.js';
import type { ClusterView, PolicyView } from './types.js';
import { isPodController, refKey } from './types.js';

const domainValue = (c: ClusterView, key: string) => (key === NAME_LABEL ? (c.labels[key] ?? c.name) : c.labels[key]);

function domainsOf(policy: PolicyView, selected: readonly ClusterView[], key: string): { value: string; percentage?: number }[] {
  const split = policy.spreadConstraints?.percentageSplit;
  if (split?.length) return split.map((s) => ({ value: s.topologyValue, percentage: s.percentage }));
  const values = [...new Set(selected.map((c) => domainValue(c, key)).filter((v): v is string => !!v))].sort();
  return values.map((value) => ({ value }));
}

function shareOf(unit: Unit, divide: boolean, domains: readonly { percentage?: number }[], i: number): Record<string, number> | undefined {
  if (!divide) return undefined;
  const pct = domains.every((d) => d.percentage !== undefined) ? domains.map((d) => d.percentage!) : undefined;
  const out: Record<string, number> = {};
  for (const w of unit.members.filter(isPodController)) out[refKey(w.ref)] = divideShares(w.replicas ?? 1, pct, domains.length)[i]!;
  return out;
}

export function spreadTargets(unit: Unit, policy: PolicyView, clusters: readonly ClusterView[]): Decision {
  const mode = policy.spreadConstraints?.spreadMode === 'Divide' ? 'Divide' : 'Duplicate';
  const key = policy.spreadConstraints?.topologyKey || NAME_LABEL;
  const selected = selectedClusters(policy, clusters);
  const domains = domainsOf(policy, selected, key);
  const targets: Target[] = [];
  const candidates: Candidate[] = [];
  const short: string[] = [];
  for (const [i, d] of domains.entries()) {
    const replicas = shareOf(unit, mode === 'Divide', domains, i);
    const demands = demandsOf(unit.members, replicas);
    const judged = selected
      .filter((c) => domainValue(c, key) === d.value)
      .map((c) => ({
        c,
        fit: judge(c, demands, unit.current.includes(c.name) && !unit.avoid?.includes(c.name), unit.avoid?.includes(c.name)),
      }));
    const fitting = judged.filter((j) => j.fit.fits).sort((a, b) => b.fit.freeCpu - a.fit.freeCpu);
    const pick = fitting.find((j) => unit.current.includes(j.c.name)) ?? fitting[0];
    for (const { c, fit } of judged) candidates.push(candidateOf(c.name, fit, c === pick?.c));
    if (pick) targets.push({ cluster: pick.c.name, topologyValue: d.value, ...(replicas ? { replicas } : {}) });
    else
      short.push(
        judged.length
          ? `${key}=${d.value}: ${judged.map((j) => `${j.c.name} ${j.fit.why}`).join('; ')}`
          : `${key}=${d.value}: no selected cluster`,
      );
  }
  for (const c of clusters)
    if (!selected.includes(c)) candidates.push({ cluster: c.name, verdict: 'not selected', why: 'its labels do not match the policy' });
  if (domains.length === 0 || short.length) {
    const pending =
      domains.length === 0 ? `no cluster matches the policy ${policy.name}` : `no cluster fits the share of ${short.join(' | ')}`;
    return { by: 'policy', mode, targets: [], candidates, pending, message: pending };
  }
  const parts = targets.map((t) => (t.replicas ? `${t.cluster} ${Object.values(t.replicas).join('+')}` : t.cluster));
  const message =
    mode === 'Divide' ? `Divided over ${targets.length} cluster(s): ${parts.join(', ')}` : `Duplicated to ${parts.join(', ')}`;
  return { by: 'policy', mode, targets, candidates, message };
}
