import { layoutColumns, visibleColumns } from '../../../components/table/index.js';
import { fitCell } from '../../../components/theme/index.js';
import { checklistLines, toAscii, type CheckItem } from '../../../checklist/checklist.js';
import { checkLines, type DetailLine, type DetailOptions } from '../detail-lines.js';

/** Columns of the Clusters table a narrow window leaves out, first to go highest. */
const DROP: Record<string, number> = { ZONE: 8, REGION: 7, IDLE: 6, 'K8S-CLUSTER': 5, STANDBY: 4, 'MEM-FREE': 3, 'K8S-VERSION': 2 };

/**
 * The fleet view as lines that fit `width`: every check (long details continued
 * on the next lines, hints under them), then the clusters the control plane
 * knows, as `kubectl get clusters` prints them with their room and workloads
 * (the least telling columns left out when they do not fit).
 */
export function fleetLines(
  items: readonly CheckItem[],
  clusters: readonly (readonly string[])[],
  width: number,
  opts: DetailOptions,
): DetailLine[] {
  const lines: DetailLine[] = [];
  for (const line of checklistLines(items)) lines.push(...checkLines(line, width, opts));
  const [header, ...rows] = clusters;
  if (header && rows.length > 0) {
    const text = (s: string) => (opts.ascii ? toAscii(s) : s);
    const all = header.map((h) => ({
      header: h,
      min: Math.min(h.length, 5),
      shrink: h === 'NAME' || h === 'K8S-CLUSTER' ? 2 : 1,
      drop: DROP[h],
    }));
    const allCells = rows.map((r) => r.map((c) => text(c || '-')));
    const kept = visibleColumns(all, allCells, width);
    const specs = kept.map((i) => all[i]!);
    const cells = allCells.map((r) => kept.map((i) => r[i] ?? ''));
    const { widths, gap } = layoutColumns(specs, cells, width);
    const format = (cellsOfRow: readonly string[]) =>
      cellsOfRow
        .map((c, i) => fitCell(c, widths[i] ?? 0, opts.ascii ? '~' : '…'))
        .join(' '.repeat(gap))
        .trimEnd();
    lines.push({ kind: 'blank' });
    lines.push({ kind: 'heading', text: `Clusters registered with the control plane (${rows.length})` });
    lines.push({ kind: 'text', text: format(specs.map((s) => s.header)), bold: true });
    cells.forEach((row, i) => {
      lines.push({ kind: 'text', text: format(row), id: `cluster/${rows[i]?.[0] ?? ''}` });
    });
  }
  return lines;
}
