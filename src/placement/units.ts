/**
 * The units placement decides for: an object with the annotation is alone; an object caught by
 * a policy without groupBy is alone; objects caught by a policy with `groupBy.labelKey` that
 * share that label's value form one ScheduleGroup and land together. Objects no policy catches
 * form units with no policy (pending).
 */
import { createHash } from 'node:crypto';
import { matchingPolicies } from './policy-match.js';
import { CLUSTER_ANNOTATION } from './semantics.js';
import type { PolicyView, WorkloadView } from './types.js';
import { refKey } from './types.js';
import { namespaceLabelsOf, policyView, workloadView } from './views.js';
import type { ControlPlaneObjects } from '../kube/nova/read.js';

export interface GroupOf {
  name: string;
  labelKey: string;
  value: string;
}

export interface PlannedUnit {
  id: string;
  members: WorkloadView[];
  policy?: PolicyView;
  annotation?: string;
  group?: GroupOf;
  /** Per member: the other policies that also catch it. */
  conflicts: Record<string, string[]>;
}

/** A ScheduleGroup's name: the policy's name and 8 hex digits of the group's label pair. */
export function groupName(policy: string, labelKey: string, value: string): string {
  return `${policy}-${createHash('sha256').update(`${labelKey}=${value}`).digest('hex').slice(0, 8)}`;
}

/** The ScheduleGroup of an object a policy places alone: the policy's name and 8 hex digits of the object. */
export function loneGroupName(policy: string, ref: string): string {
  return `${policy}-${createHash('sha256').update(ref).digest('hex').slice(0, 8)}`;
}

export function unitsOf(
  objects: readonly WorkloadView[],
  policies: readonly PolicyView[],
  nsLabels: (ns: string) => Record<string, string> | undefined,
): PlannedUnit[] {
  const units = new Map<string, PlannedUnit>();
  for (const w of objects) {
    const key = refKey(w.ref);
    const annotation = w.annotations[CLUSTER_ANNOTATION];
    if (annotation) {
      units.set(key, { id: key, members: [w], annotation, conflicts: {} });
      continue;
    }
    const [policy, ...others] = matchingPolicies(policies, w, w.ref.namespace ? nsLabels(w.ref.namespace) : undefined);
    const conflicts = others.length ? { [key]: others.map((p) => p.name) } : {};
    const labelKey = policy?.groupBy?.labelKey;
    const value = labelKey ? w.labels[labelKey] : undefined;
    if (!policy || !labelKey || value === undefined) {
      units.set(key, { id: key, members: [w], ...(policy ? { policy } : {}), conflicts });
      continue;
    }
    const name = groupName(policy.name, labelKey, value);
    const id = `group/${name}`;
    const unit = units.get(id) ?? { id, members: [], policy, group: { name, labelKey, value }, conflicts: {} };
    unit.members.push(w);
    Object.assign(unit.conflicts, conflicts);
    units.set(id, unit);
  }
  return [...units.values()];
}

/** The units of a control plane's objects under its own policies. */
export function controlPlaneUnits(cp: Pick<ControlPlaneObjects, 'objects' | 'policies' | 'namespaces'>): PlannedUnit[] {
  return unitsOf(cp.objects.map(workloadView), cp.policies.map(policyView), namespaceLabelsOf(cp.namespaces));
}
