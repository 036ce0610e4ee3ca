/**
 * The placement checklist of one workload (`fleetdeck explain`, Enter on a Workloads row): is a
 * policy matching it (and which others match too)? which clusters does it select, which are
 * Ready? does it fit each, and if not by how much, or which taint repels it? which cluster was
 * picked and when? is the copy there, how many replicas ready, does it match the control
 * plane's object? Each ✗ has a hint.
 */
import type { CheckItem } from '../checklist/checklist.js';
import type { ApiObject } from '../kube/api/api-resources.js';
import type { PlacementRead } from '../kube/nova/placement-read.js';
import { decide } from './decide.js';
import type { Candidate } from './decision.js';
import { type WorkloadRow, workloadRows } from './rows.js';
import { avoidedBy, placedOn } from './targets.js';
import { refKey } from './types.js';
import { controlPlaneUnits } from './units.js';
import { clusterView, eventTime, workloadView } from './views.js';

export interface WorkloadRef {
  kind: string;
  namespace?: string;
  name: string;
}

const same = (o: ApiObject, ref: WorkloadRef) =>
  o.kind.toLowerCase() === ref.kind.toLowerCase() && o.metadata.name === ref.name && (o.metadata.namespace ?? '') === (ref.namespace ?? '');

function policyItems(row: WorkloadRow, policies: number): CheckItem[] {
  if (row.by === 'annotation')
    return [{ id: 'policy', label: 'Placed by its annotation nova.elotl.co/cluster (policies do not apply)', state: 'ok' }];
  if (!row.policy)
    return [
      {
        id: 'policy',
        label: 'No SchedulePolicy matches it',
        state: 'fail',
        detail: `${policies} polic${policies === 1 ? 'y' : 'ies'} defined`,
        hint: "give it labels a policy's resourceSelectors select (in a namespace its namespaceSelector selects), or annotate it nova.elotl.co/cluster=<cluster>",
      },
    ];
  const items: CheckItem[] = [
    {
      id: 'policy',
      label: `SchedulePolicy ${row.policy} matches it`,
      state: 'ok',
      ...(row.group ? { detail: `ScheduleGroup ${row.group}` } : {}),
    },
  ];
  if (row.conflicts.length)
    items.push({
      id: 'conflict',
      label: `Also matched by ${row.conflicts.join(', ')}`,
      state: 'warn',
      hint: `${row.policy} is used (the oldest); narrow the others' selectors so one policy matches`,
    });
  return items;
}

function candidateItem(c: Candidate): CheckItem {
  if (c.verdict === 'picked' || c.verdict === 'fits')
    return {
      id: `cluster/${c.cluster}`,
      label: `Cluster ${c.cluster}`,
      state: 'ok',
      detail: `${c.verdict === 'picked' ? 'picked: ' : ''}${c.why ?? ''}`,
    };
  const taint = c.taint;
  const hint = taint
    ? `add a toleration for ${taint} to its pod template, or pick another cluster`
    : c.down
      ? `check the nova-agent of cluster ${c.cluster} (fleetdeck status shows it)`
      : `free room in cluster ${c.cluster} or lower the requests`;
  return { id: `cluster/${c.cluster}`, label: `Cluster ${c.cluster}`, state: 'fail', detail: c.why ?? 'skipped', hint };
}

function copyItems(row: WorkloadRow): CheckItem[] {
  return row.clusters.map((c): CheckItem => {
    const id = `copy/${c.cluster}`;
    const label = `Copy in ${c.cluster}${c.context ? ` (${c.context})` : ''}`;
    if (!c.target)
      return {
        id,
        label,
        state: 'warn',
        detail: 'left behind: it is no longer placed there',
        hint: "the cluster's agent removes it; if it stays, check that agent",
      };
    if (!c.present)
      return { id, label, state: 'fail', detail: 'not there yet', hint: `check the nova-agent of cluster ${c.cluster}: it makes the copy` };
    if (c.drift.length)
      return {
        id,
        label,
        state: 'warn',
        detail: `drifted: ${c.drift.slice(0, 3).join('; ')}`,
        hint: `it was edited in ${c.cluster}; edit the control plane's object instead, or put it back`,
      };
    const ready = c.desired === null ? 'present' : `${c.ready}/${c.desired} ready`;
    return { id, label, state: c.desired !== null && (c.ready ?? 0) < c.desired ? 'warn' : 'ok', detail: ready };
  });
}

/** The scheduler's latest Event about the object or its ScheduleGroup. */
function lastScheduling(events: readonly ApiObject[], src: ApiObject, group: string | null): { time: string; message: string } | undefined {
  const about = events.filter((e) => {
    const io = e.involvedObject as { kind?: string; name?: string; namespace?: string } | undefined;
    const source = (e.source as { component?: string } | undefined)?.component ?? e.reportingComponent;
    if (source !== 'nova-scheduler') return false;
    if (io?.kind === 'ScheduleGroup') return io.name === group;
    return io?.kind === src.kind && io.name === src.metadata.name && (io.namespace ?? '') === (src.metadata.namespace ?? '');
  });
  const last = about
    .filter((e) => e.reason !== 'SchedulePolicyMatched' && e.reason !== 'AddedToScheduleGroup')
    .sort((a, b) => eventTime(b).localeCompare(eventTime(a)))[0];
  return last ? { time: eventTime(last), message: `${last.reason}: ${last.message}` } : undefined;
}

/** The checklist, or undefined when the control plane has no such object. */
export function explainWorkload(read: PlacementRead, ref: WorkloadRef): { row: WorkloadRow; items: CheckItem[] } | undefined {
  const src = read.cp.objects.find((o) => same(o, ref));
  if (!src) return undefined;
  const row = workloadRows({ ...read, cp: { ...read.cp, objects: [src] } })[0]!;
  const w = workloadView(src);
  const unit = controlPlaneUnits(read.cp).find((u) => u.members.some((m) => refKey(m.ref) === refKey(w.ref)));
  const items = policyItems(row, read.cp.policies.length);
  if (unit && row.by !== 'annotation') {
    const d = decide(
      { ...unit, current: placedOn(w.labels, w.annotations), avoid: avoidedBy(unit.members) },
      read.cp.clusters.map(clusterView),
    );
    const selected = d.candidates.filter((c) => c.verdict !== 'not selected');
    if (unit.policy)
      items.push(
        selected.length
          ? {
              id: 'selects',
              label: `The policy selects ${selected.length} of ${read.cp.clusters.length} cluster(s)`,
              state: 'ok',
              children: selected.map(candidateItem),
            }
          : {
              id: 'selects',
              label: 'The policy selects no cluster',
              state: 'fail',
              hint: "its clusterSelector matches no Cluster's labels (kubectl get clusters --show-labels)",
            },
      );
  }
  const said = lastScheduling(read.events, src, row.group);
  if (said) items.push({ id: 'event', label: `nova-scheduler ${said.time}`, state: 'info', detail: said.message });
  const targets = row.clusters.filter((c) => c.target).map((c) => c.cluster);
  items.push(
    targets.length
      ? {
          id: 'placed',
          label: `Placed on ${targets.join(', ')}`,
          state: row.state === 'orphaned' ? 'fail' : 'ok',
          detail: row.state,
          ...(row.reason ? { hint: row.reason } : {}),
        }
      : { id: 'placed', label: 'Not scheduled', state: 'fail', detail: 'pending', hint: row.reason ?? 'not scheduled yet' },
  );
  return { row, items: [...items, ...copyItems(row)] };
}
