/**
 * Which SchedulePolicies catch an object: its namespace's labels match the namespaceSelector
 * (a namespace's name counts as its `kubernetes.io/metadata.name` label, as current API
 * servers set it; cluster-scoped objects are matched by their labels alone) AND one of the
 * resourceSelectors' labelSelectors matches the object's labels. The first of the list is the
 * one used (see semantics.ts).
 */
import { labelSelectorMatches } from '../kube/api/selector.js';
import { NAME_LABEL, precedence } from './semantics.js';
import type { PolicyView, WorkloadView } from './types.js';

export function namespaceLabels(name: string, labels: Record<string, string> | undefined): Record<string, string> {
  return { ...labels, [NAME_LABEL]: name };
}

export function policyCatches(p: PolicyView, w: WorkloadView, nsLabels: Record<string, string> | undefined): boolean {
  if (w.ref.namespace && p.namespaceSelector && !labelSelectorMatches(p.namespaceSelector, namespaceLabels(w.ref.namespace, nsLabels)))
    return false;
  const selectors = p.resourceSelectors?.labelSelectors;
  if (!selectors || selectors.length === 0) return true;
  return selectors.some((s) => labelSelectorMatches(s, w.labels));
}

/** The policies catching `w`, the one used first. */
export function matchingPolicies(
  policies: readonly PolicyView[],
  w: WorkloadView,
  nsLabels: Record<string, string> | undefined,
): PolicyView[] {
  return precedence(policies.filter((p) => policyCatches(p, w, nsLabels)));
}

/** The clusters a policy may use, in its order: orderedClusterSelector's values first to last, else clusterSelector (absent: all). */
export function selectedClusters<C extends { name: string; labels: Record<string, string> }>(p: PolicyView, clusters: readonly C[]): C[] {
  const ordered = p.orderedClusterSelector?.matchExpressions?.find((e) => e.operator === 'In');
  if (ordered) {
    const out: C[] = [];
    for (const v of ordered.values ?? []) for (const c of clusters) if (c.labels[ordered.key] === v && !out.includes(c)) out.push(c);
    return out;
  }
  if (!p.clusterSelector) return [...clusters];
  return clusters.filter((c) => labelSelectorMatches(p.clusterSelector, c.labels));
}
