/**
 * A move by annotation, as data: where the workload is and where it is going (the plan line),
 * and from each read after the annotation is set, the lines of what changed and whether it is
 * done — its copy ready in the target cluster and gone from every other.
 */
import type { WorkloadRow } from './rows.js';

export function movePlan(row: WorkloadRow, to: string): string {
  const from = row.clusters.filter((c) => c.present).map((c) => c.cluster);
  const placed = row.by === 'annotation' ? 'its annotation' : row.policy ? `policy ${row.policy}` : 'nothing (pending)';
  return `Move ${row.kind.toLowerCase()}/${row.name}${row.namespace ? ` in ${row.namespace}` : ''} from ${from.join(', ') || 'nowhere'} (placed by ${placed}) to ${to}: sets the annotation nova.elotl.co/cluster=${to} on the control plane's object; from then on no policy moves it.`;
}

/** One line per cluster of the row, as it stands: `w2: 2/2 ready`, `w1: copy still there`. */
export function moveLines(row: WorkloadRow, to: string): string[] {
  const target = row.clusters.find((c) => c.cluster === to);
  const lines = [
    !target?.present
      ? `${to}: no copy yet`
      : target.desired === null
        ? `${to}: copy there`
        : `${to}: ${target.ready}/${target.desired} ready`,
  ];
  for (const c of row.clusters.filter((x) => x.cluster !== to && x.present)) lines.push(`${c.cluster}: copy still there`);
  return lines;
}

export function moveDone(row: WorkloadRow, to: string): boolean {
  const target = row.clusters.find((c) => c.cluster === to);
  const ready = !!target?.present && (target.desired === null || (target.ready ?? 0) >= target.desired);
  return ready && row.clusters.every((c) => c.cluster === to || !c.present);
}
