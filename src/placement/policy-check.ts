/**
 * `fleetdeck policy check FILE` as data: for a SchedulePolicy not yet applied, the objects of the
 * control plane it would catch (and, for each already caught by another policy, which one would
 * still be used), the clusters it would select, and where each unit it would make would go (or
 * why it would stay pending) — computed as if it were applied now, newest of all. Nothing changes.
 */
import { parseAllDocuments } from 'yaml';
import { UsageError } from '../errors.js';
import type { ApiObject } from '../kube/api/api-resources.js';
import type { PlacementRead } from '../kube/nova/placement-read.js';
import { decide } from './decide.js';
import { matchingPolicies, policyCatches, selectedClusters } from './policy-match.js';
import { CLUSTER_ANNOTATION } from './semantics.js';
import { refKey } from './types.js';
import { unitsOf } from './units.js';
import { clusterView, namespaceLabelsOf, policyView, workloadView } from './views.js';

export interface PolicyCheck {
  policy: string;
  /** The file's own workloads, counted as if applied with the policy (refs). */
  fromFile?: string[];
  catches: { ref: string; usedPolicy: string; overlaps: string[] }[];
  clusters: { name: string; ready: boolean }[];
  units: {
    members: string[];
    group: string | null;
    targets: { cluster: string; replicas: Record<string, number> | null }[];
    pending: string | null;
  }[];
}

/** The one SchedulePolicy in the file's text; one line saying what is wrong otherwise. */
export function policyFromText(text: string, file: string): ApiObject {
  let docs: unknown[];
  try {
    docs = parseAllDocuments(text).map((d) => {
      if (d.errors.length) throw new Error(d.errors[0]!.message.split('\n')[0]);
      return d.toJS() as unknown;
    });
  } catch (err) {
    throw new UsageError(`${file} is not YAML: ${(err as Error).message}`);
  }
  const policies = docs.filter((d): d is ApiObject => (d as ApiObject | null)?.kind === 'SchedulePolicy');
  if (policies.length !== 1 || !policies[0]!.metadata?.name)
    throw new UsageError(
      `${file} holds ${policies.length} SchedulePolicy objects${policies.length === 1 ? ' without a name' : ''}; give a file with one named SchedulePolicy`,
    );
  return policies[0]!;
}

export function checkPolicy(read: PlacementRead, candidate: ApiObject): PolicyCheck {
  const fresh = policyView({ ...candidate, metadata: { ...candidate.metadata, creationTimestamp: '9999-12-31T23:59:59Z' } });
  const others = read.cp.policies.map(policyView).filter((p) => p.name !== fresh.name);
  const all = [...others, fresh];
  const labelsOf = namespaceLabelsOf(read.cp.namespaces);
  const objects = read.cp.objects.map(workloadView).filter((w) => !w.annotations[CLUSTER_ANNOTATION]);
  const catches = objects
    .filter((w) => policyCatches(fresh, w, w.ref.namespace ? labelsOf(w.ref.namespace) : undefined))
    .map((w) => {
      const matching = matchingPolicies(all, w, w.ref.namespace ? labelsOf(w.ref.namespace) : undefined);
      return {
        ref: refKey(w.ref),
        usedPolicy: matching[0]!.name,
        overlaps: matching.filter((p) => p.name !== fresh.name).map((p) => p.name),
      };
    });
  const clusters = read.cp.clusters.map(clusterView);
  const units = unitsOf(objects, all, labelsOf)
    .filter((u) => u.policy?.name === fresh.name)
    .map((u) => {
      const d = decide({ ...u, current: [] }, clusters);
      return {
        members: u.members.map((m) => refKey(m.ref)),
        group: u.group?.name ?? null,
        targets: d.targets.map((t) => ({ cluster: t.cluster, replicas: t.replicas ?? null })),
        pending: d.pending ?? null,
      };
    });
  return {
    policy: fresh.name,
    catches,
    clusters: selectedClusters(fresh, clusters).map((c) => ({ name: c.name, ready: c.ready && !c.standby })),
    units,
  };
}

export function policyCheckText(c: PolicyCheck): string {
  const lines = [`SchedulePolicy ${c.policy} (not applied; as if applied now):`];
  if (c.fromFile?.length) lines.push(`  with the file's ${c.fromFile.length} workload(s) as if applied too: ${c.fromFile.join(', ')}`);
  lines.push(
    `  selects ${c.clusters.length} cluster(s): ${c.clusters.map((x) => `${x.name}${x.ready ? '' : ' (not Ready)'}`).join(', ') || 'none'}`,
  );
  lines.push(`  catches ${c.catches.length} object(s)${c.catches.length ? ':' : ''}`);
  for (const x of c.catches)
    lines.push(
      `    ${x.ref}${x.overlaps.length ? ` — also matched by ${x.overlaps.join(', ')}: ${x.usedPolicy === c.policy ? 'this policy' : x.usedPolicy} would be used` : ''}`,
    );
  for (const u of c.units) {
    const where = u.pending
      ? `would stay pending: ${u.pending}`
      : `would go to ${u.targets.map((t) => (t.replicas ? `${t.cluster} (${Object.values(t.replicas).join('+')})` : t.cluster)).join(', ')}`;
    lines.push(`  ${u.group ? `group ${u.group} (${u.members.join(', ')})` : u.members.join(', ')} ${where}`);
  }
  return lines.join('\n');
}
