/**
 * Where the sandbox's scheduler wrote that an object goes, as its agents read it: one cluster
 * in the label `nova.elotl.co/target-cluster`, or a spread's shares in SPREAD_ANNOTATION
 * (JSON: the policy and, per cluster, the replicas and topology value).
 */
import type { Decision } from './decide.js';
import { RESCHEDULE_ANNOTATION, SPREAD_ANNOTATION, TARGET_LABEL } from './semantics.js';
import { refKey, type WorkloadView } from './types.js';

export interface Share {
  cluster: string;
  replicas?: number;
  topologyValue?: string;
}

export interface Spread {
  policy: string;
  shares: Share[];
}

export function spreadOf(annotations: Record<string, string> | undefined): Spread | undefined {
  const text = annotations?.[SPREAD_ANNOTATION];
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Spread;
  } catch {
    return undefined;
  }
}

/** The clusters `w`'s pods stayed Pending in, for its current spec. */
export function rescheduledFrom(w: Pick<WorkloadView, 'annotations' | 'specHash'>): string[] {
  const text = w.annotations[RESCHEDULE_ANNOTATION];
  if (!text) return [];
  try {
    const byCluster = JSON.parse(text) as Record<string, string>;
    return Object.entries(byCluster)
      .filter(([, h]) => w.specHash === undefined || h === w.specHash)
      .map(([c]) => c);
  } catch {
    return [];
  }
}

/** The clusters any of `members` was rescheduled away from, for its current spec. */
export const avoidedBy = (members: readonly Pick<WorkloadView, 'annotations' | 'specHash'>[]) => [
  ...new Set(members.flatMap(rescheduledFrom)),
];

/** The clusters an object is placed on now. */
export function placedOn(labels: Record<string, string> | undefined, annotations: Record<string, string> | undefined): string[] {
  const one = labels?.[TARGET_LABEL];
  if (one) return [one];
  return (spreadOf(annotations)?.shares ?? []).map((s) => s.cluster);
}

/** The label and annotation a member of a unit carries for `d` (null: removed). */
export function markingsFor(
  w: WorkloadView,
  d: Decision,
  policy: string | undefined,
): { labels: Record<string, string | null>; annotations: Record<string, string | null> } {
  if (d.targets.length === 0) return { labels: { [TARGET_LABEL]: null }, annotations: { [SPREAD_ANNOTATION]: null } };
  if (d.mode === 'single') return { labels: { [TARGET_LABEL]: d.targets[0]!.cluster }, annotations: { [SPREAD_ANNOTATION]: null } };
  const key = refKey(w.ref);
  const shares = d.targets.map((t) => ({
    cluster: t.cluster,
    ...(t.replicas?.[key] !== undefined ? { replicas: t.replicas[key] } : {}),
    ...(t.topologyValue ? { topologyValue: t.topologyValue } : {}),
  }));
  return { labels: { [TARGET_LABEL]: null }, annotations: { [SPREAD_ANNOTATION]: JSON.stringify({ policy: policy ?? '', shares }) } };
}

/** Whether the object already carries those markings. */
export function marked(w: WorkloadView, m: ReturnType<typeof markingsFor>): boolean {
  const same = (have: Record<string, string>, want: Record<string, string | null>) =>
    Object.entries(want).every(([k, v]) => (v === null ? !(k in have) : have[k] === v));
  return same(w.labels, m.labels) && same(w.annotations, m.annotations);
}
