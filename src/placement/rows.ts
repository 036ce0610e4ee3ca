/**
 * One row per control-plane workload, from what was read (kube/nova/placement-read.ts): how it
 * is placed (annotation or policy, its ScheduleGroup), on which clusters, the replicas its
 * copies run there, and its state:
 * - pending: no target (the reason from the scheduler's latest Event, else from the policies);
 * - orphaned: a target cluster is not connected or not Ready (nobody keeps its copy);
 * - moving: a target has no copy yet, or a copy is left where it no longer belongs;
 * - drifted: a copy differs from the control plane's object (drift.ts);
 * - divided / duplicated: spread over clusters; placed: on one cluster.
 */
import type { ApiObject } from '../kube/api/api-resources.js';
import type { PlacementRead } from '../kube/nova/placement-read.js';
import { decide } from './decide.js';
import { driftOf } from './drift.js';
import { CLUSTER_ANNOTATION, NO_FIT_REASON } from './semantics.js';
import { avoidedBy, placedOn, spreadOf } from './targets.js';
import { type ClusterView, type PolicyView, refKey, type WorkloadView } from './types.js';
import { controlPlaneUnits, type PlannedUnit } from './units.js';
import { clusterView, eventTime, policyView, workloadView } from './views.js';

export type WorkloadState = 'placed' | 'divided' | 'duplicated' | 'pending' | 'moving' | 'drifted' | 'orphaned';

export interface ClusterShare {
  cluster: string;
  context: string | null;
  /** A target of the scheduler (false: a copy left behind). */
  target: boolean;
  present: boolean;
  desired: number | null;
  ready: number | null;
  drift: string[];
}

export interface WorkloadRow {
  kind: string;
  namespace: string | null;
  name: string;
  by: 'annotation' | 'policy' | null;
  policy: string | null;
  conflicts: string[];
  group: string | null;
  clusters: ClusterShare[];
  desired: number | null;
  ready: number | null;
  state: WorkloadState;
  reason: string | null;
  /** A pod controller's pods, as a label selector (`app=web`): what `l` shows the logs of. */
  selector: string | null;
}

const objKey = (o: { kind: string; metadata: { namespace?: string; name: string } }) =>
  `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

interface Context {
  read: PlacementRead;
  units: Map<string, PlannedUnit>;
  copies: Map<string, Map<string, ApiObject>>;
  contexts: Map<string, string>;
  groups: Map<string, string>;
  /** Every control-plane object's view (its unit's member), by refKey. */
  views: Map<string, WorkloadView>;
  /** The Clusters and policies as placement reads them, made once per read. */
  clusters: Map<string, ClusterView>;
  policies: Map<string, PolicyView>;
}

function contextOf(read: PlacementRead): Context {
  const units = new Map<string, PlannedUnit>();
  const views = new Map<string, WorkloadView>();
  for (const u of controlPlaneUnits(read.cp))
    for (const m of u.members) {
      units.set(refKey(m.ref), u);
      views.set(refKey(m.ref), m);
    }
  const copies = new Map(read.copies.map((c) => [c.clusterName, new Map((c.objects ?? []).map((o) => [objKey(o), o]))]));
  const groups = new Map<string, string>();
  for (const g of read.cp.groups) {
    const refs = ((g.spec as { objectRefs?: { kind: string; namespace?: string; name: string }[] } | undefined)?.objectRefs ?? []) as {
      kind: string;
      namespace?: string;
      name: string;
    }[];
    for (const r of refs) groups.set(`${r.kind}/${r.namespace ? `${r.namespace}/` : ''}${r.name}`, g.metadata.name);
  }
  return {
    read,
    units,
    copies,
    contexts: new Map(read.copies.map((c) => [c.clusterName, c.context])),
    groups,
    views,
    clusters: new Map(read.cp.clusters.map(clusterView).map((c) => [c.name, c])),
    policies: new Map(read.cp.policies.map(policyView).map((p) => [p.name, p])),
  };
}

function readyOf(o: ApiObject | undefined): { desired: number | null; ready: number | null } {
  if (!o) return { desired: null, ready: null };
  const spec = o.spec as { replicas?: number } | undefined;
  const status = o.status as
    | { readyReplicas?: number; numberReady?: number; desiredNumberScheduled?: number; succeeded?: number }
    | undefined;
  if (o.kind === 'DaemonSet') return { desired: status?.desiredNumberScheduled ?? 0, ready: status?.numberReady ?? 0 };
  if (spec?.replicas === undefined) return { desired: null, ready: null };
  return { desired: spec.replicas, ready: status?.readyReplicas ?? 0 };
}

/** The latest Warning NoClusterFits about the object, if any. */
function lastRefusal(events: readonly ApiObject[], w: WorkloadView): string | undefined {
  const about = events.filter((e) => {
    const io = e.involvedObject as { kind?: string; name?: string; namespace?: string } | undefined;
    return (
      e.reason === NO_FIT_REASON && io?.kind === w.ref.kind && io.name === w.ref.name && (io.namespace ?? '') === (w.ref.namespace ?? '')
    );
  });
  return about.sort((a, b) => eventTime(b).localeCompare(eventTime(a)))[0]?.message as string | undefined;
}

function sharesOf(ctx: Context, src: ApiObject, w: WorkloadView, targets: readonly string[]): ClusterShare[] {
  const key = refKey(w.ref);
  const spread = spreadOf(w.annotations);
  const policy = spread ? ctx.policies.get(spread.policy) : undefined;
  const holding = [...ctx.copies.entries()].filter(([, m]) => m.has(key)).map(([c]) => c);
  return [...new Set([...targets, ...holding])].map((cluster) => {
    const copy = ctx.copies.get(cluster)?.get(key);
    const share = spread?.shares.find((s) => s.cluster === cluster);
    return {
      cluster,
      context: ctx.contexts.get(cluster) ?? null,
      target: targets.includes(cluster),
      present: !!copy,
      ...readyOf(copy),
      drift: copy && targets.includes(cluster) ? driftOf(src, copy, share ?? (spread ? {} : undefined), policy) : [],
    };
  });
}

function stateOf(
  ctx: Context,
  row: Omit<WorkloadRow, 'state' | 'reason' | 'selector'>,
  w: WorkloadView,
): { state: WorkloadState; reason: string | null } {
  const targets = row.clusters.filter((c) => c.target);
  if (targets.length === 0) {
    const u = ctx.units.get(refKey(w.ref));
    const why =
      lastRefusal(ctx.read.events, w) ??
      (u ? decide({ ...u, current: [], avoid: avoidedBy(u.members) }, [...ctx.clusters.values()]).pending : undefined);
    return { state: 'pending', reason: why ?? 'not scheduled yet' };
  }
  const clusters = ctx.clusters;
  const lost = targets.find((c) => !clusters.get(c.cluster)?.ready);
  if (lost)
    return {
      state: 'orphaned',
      reason: clusters.has(lost.cluster)
        ? `cluster ${lost.cluster} is not Ready (its agent is not reporting)`
        : `cluster ${lost.cluster} is not connected`,
    };
  const unreadable = targets.find((c) => ctx.read.copies.find((x) => x.clusterName === c.cluster)?.error);
  const missing = targets.find((c) => !c.present && !unreadable);
  if (missing) return { state: 'moving', reason: `no copy in ${missing.cluster} yet` };
  const left = row.clusters.find((c) => !c.target && c.present);
  if (left) return { state: 'moving', reason: `a copy is left in ${left.cluster}` };
  const drifted = targets.find((c) => c.drift.length);
  if (drifted) return { state: 'drifted', reason: `in ${drifted.cluster}: ${drifted.drift.slice(0, 2).join('; ')}` };
  if (unreadable) return { state: 'placed', reason: `cluster ${unreadable.cluster} could not be read` };
  const mode = ctx.units.get(refKey(w.ref))?.policy?.spreadConstraints?.spreadMode;
  if (targets.length > 1 || spreadOf(w.annotations)) return { state: mode === 'Divide' ? 'divided' : 'duplicated', reason: null };
  return { state: 'placed', reason: null };
}

function rowOf(ctx: Context, src: ApiObject): WorkloadRow {
  const w = ctx.views.get(objKey(src)) ?? workloadView(src);
  const u = ctx.units.get(refKey(w.ref));
  const byLabel = placedOn(w.labels, w.annotations);
  const holding = [...ctx.copies.entries()].filter(([, m]) => m.has(refKey(w.ref))).map(([c]) => c);
  const targets = byLabel.length ? byLabel : holding;
  const clusters = sharesOf(ctx, src, w, targets);
  const counted = clusters.filter((c) => c.target && c.desired !== null);
  const base = {
    kind: w.ref.kind,
    namespace: w.ref.namespace ?? null,
    name: w.ref.name,
    by: w.annotations[CLUSTER_ANNOTATION] ? ('annotation' as const) : u?.policy ? ('policy' as const) : null,
    policy: w.annotations[CLUSTER_ANNOTATION] ? null : (u?.policy?.name ?? null),
    conflicts: u?.conflicts[refKey(w.ref)] ?? [],
    group: ctx.groups.get(refKey(w.ref)) ?? null,
    clusters,
    desired: w.ref.kind === 'DaemonSet' && counted.length ? counted.reduce((s, c) => s + (c.desired ?? 0), 0) : (w.replicas ?? null),
    ready: counted.length ? counted.reduce((s, c) => s + (c.ready ?? 0), 0) : w.replicas !== undefined ? 0 : null,
  };
  const match = (src.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels;
  const selector =
    w.podRequests && match
      ? Object.entries(match)
          .map(([k, v]) => `${k}=${v}`)
          .join(',')
      : null;
  return { ...base, ...stateOf(ctx, base, w), selector };
}

const byName = (a: WorkloadRow, b: WorkloadRow) =>
  (a.namespace ?? '').localeCompare(b.namespace ?? '') || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name);

/** Every control-plane workload's row, by namespace, kind and name. */
export function workloadRows(read: PlacementRead): WorkloadRow[] {
  const ctx = contextOf(read);
  return read.cp.objects.map((o) => rowOf(ctx, o)).sort(byName);
}

/** The same rows, worked out `perTurn` at a time with a turn of the event loop between: keys pressed meanwhile are answered. */
export async function workloadRowsInTurns(read: PlacementRead, perTurn = 250): Promise<WorkloadRow[]> {
  const ctx = contextOf(read);
  const rows: WorkloadRow[] = [];
  for (let i = 0; i < read.cp.objects.length; i += perTurn) {
    if (i > 0) await new Promise((r) => setImmediate(r));
    for (const o of read.cp.objects.slice(i, i + perTurn)) rows.push(rowOf(ctx, o));
  }
  return rows.sort(byName);
}

/**
 * How bad a pending reason is, lowest first: no cluster can take it (room, taints), then nothing
 * it may go to (no cluster selected, an unknown cluster named), then no policy at all, then not
 * decided yet.
 */
export function pendingRank(reason: string | null): number {
  if (!reason) return 3;
  if (/^no cluster fits/.test(reason)) return 0;
  if (/^no cluster matches|^the annotation names/.test(reason)) return 1;
  if (/^no SchedulePolicy matches/.test(reason)) return 2;
  return 3;
}
