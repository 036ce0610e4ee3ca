/**
 * Placement in the fleet overview: how many workloads each Cluster runs, and the workloads still
 * pending with the worst reason among them — worked out by the Workloads tab's own rules
 * (placement/rows.ts) from what the status watches in the control plane. No copy in a workload
 * cluster is read here: only where each workload goes, and whether it goes anywhere.
 */
import type { CheckItem } from '../../checklist/checklist.js';
import type { ControlPlaneSummary } from '../../kube/fleet/control-plane.js';
import { pendingRank, type WorkloadRow, workloadRows } from '../../placement/rows.js';
import { deniedLists, forbiddenGate, gated } from './gates.js';

const memo = new WeakMap<object, WorkloadRow[]>();

/** Every control-plane workload's row, once its lists are in (undefined before, or without the Cluster CRD). */
export function placementRows(cp: ControlPlaneSummary | undefined): WorkloadRow[] | undefined {
  const p = cp?.placement;
  if (!p?.synced) return undefined;
  let rows = memo.get(p);
  if (!rows) {
    const objects = { clusters: p.clusters, policies: p.policies, groups: [], namespaces: p.namespaces, objects: p.objects };
    rows = workloadRows({ cp: objects, events: p.refusals, copies: [] });
    memo.set(p, rows);
  }
  return rows;
}

/** How many workloads each cluster is a target of. */
export function placedCounts(rows: readonly WorkloadRow[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of rows) for (const c of r.clusters) if (c.target) counts.set(c.cluster, (counts.get(c.cluster) ?? 0) + 1);
  return counts;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const refText = (r: WorkloadRow) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

/** The pending workload whose reason is worst (then by namespace, kind, name, as the rows come). */
export function worstPending(rows: readonly WorkloadRow[]): WorkloadRow | undefined {
  let worst: WorkloadRow | undefined;
  for (const r of rows) if (r.state === 'pending' && (!worst || pendingRank(r.reason) < pendingRank(worst.reason))) worst = r;
  return worst;
}

/** "Checking workload placement": the workloads placed, and those pending with the worst reason. */
export function placementItems(cp: ControlPlaneSummary, context: string): CheckItem[] {
  const items: CheckItem[] = [{ id: 'placement/title', label: 'Checking workload placement', state: 'info' }];
  const p = cp.placement;
  if (!p) return [];
  if (p.forbidden) return [...items, gated('placement/workloads', 'Workloads', forbiddenGate(deniedLists(p.forbidden), context), true)];
  const rows = placementRows(cp);
  if (!rows) return [...items, { id: 'placement/workloads', label: 'Workloads', state: 'pending', detail: 'loading…' }];
  if (rows.length === 0) return [...items, { id: 'placement/workloads', label: '0 workloads in the control plane', state: 'ok' }];
  const counts = placedCounts(rows);
  const placed = rows.filter((r) => r.clusters.some((c) => c.target)).length;
  items.push({
    id: 'placement/workloads',
    label: `${plural(placed, 'workload')} placed on ${plural(counts.size, 'cluster')}`,
    bullet: true,
    state: 'ok',
    ...(p.leftOut ? { detail: `${p.leftOut.join(', ')} not counted: the user may not list them` } : {}),
  });
  const pending = rows.filter((r) => r.state === 'pending');
  const worst = worstPending(rows);
  if (worst) {
    const ns = worst.namespace ? ` -n ${worst.namespace}` : '';
    items.push({
      id: 'placement/pending',
      label: `${plural(pending.length, 'workload')} pending`,
      bullet: true,
      state: 'warn',
      detail: `worst: ${refText(worst)}: ${worst.reason ?? 'not scheduled yet'}`,
      hint: `see why: fleetdeck explain ${worst.kind.toLowerCase()}/${worst.name}${ns}; all of them: fleetdeck workloads --pending`,
    });
  }
  return items;
}
