/**
 * `fleetdeck workloads` as text: one row per control-plane workload (kubectl's column style),
 * then one line per workload that needs a look, saying why. The JSON and YAML shape is the
 * rows themselves (placement/rows.ts, docs/commands/workloads.md).
 */
import type { WorkloadRow } from '../placement/rows.js';
import { formatTable } from './status.js';

const HEADER = ['NAMESPACE', 'NAME', 'PLACED BY', 'GROUP', 'CLUSTERS', 'READY', 'STATE'];

/** `w1 3/3, w2 6/7`: each cluster with the replicas its copy has ready (no count: not a pod controller). */
export function clustersCell(r: WorkloadRow): string {
  const cells = r.clusters.map((c) => {
    const mark = c.target ? '' : ' (left)';
    if (!c.present) return `${c.cluster} (no copy)${mark}`;
    return c.desired === null ? `${c.cluster}${mark}` : `${c.cluster} ${c.ready}/${c.desired}${mark}`;
  });
  return cells.join(', ') || '-';
}

export const placedBy = (r: WorkloadRow) => (r.by === 'annotation' ? 'annotation' : r.policy ? `policy ${r.policy}` : '-');

const needsLook = (r: WorkloadRow) =>
  r.state === 'pending' || r.state === 'drifted' || r.state === 'orphaned' || r.state === 'moving' || r.conflicts.length > 0;

export function workloadsText(rows: readonly WorkloadRow[]): string {
  const table = rows.map((r) => [
    r.namespace ?? '',
    `${r.kind.toLowerCase()}/${r.name}`,
    placedBy(r),
    r.group ?? '-',
    clustersCell(r),
    r.desired === null ? '-' : `${r.ready}/${r.desired}`,
    r.state,
  ]);
  const lines = [formatTable([HEADER, ...table])];
  const notes = rows.filter(needsLook).flatMap((r) => {
    const ref = `${r.kind.toLowerCase()}/${r.name}${r.namespace ? ` -n ${r.namespace}` : ''}`;
    const out = r.reason ? [`${ref}: ${r.state}: ${r.reason}`] : [];
    if (r.conflicts.length) out.push(`${ref}: also matched by ${r.conflicts.join(', ')} (policy ${r.policy} is used)`);
    return out;
  });
  if (notes.length) lines.push('', ...notes);
  return lines.join('\n');
}
