import { layoutColumns } from '../../../components/table/index.js';
import { fitCell } from '../../../components/theme/index.js';
import { checklistLines, toAscii, type CheckItem } from '../../../checklist/checklist.js';
import { checkLines, type DetailLine, type DetailOptions } from '../detail-lines.js';

/**
 * The fleet view as lines that fit `width`: every check (long details continued
 * on the next lines, hints under them), then the clusters the control plane
 * knows, as `kubectl get clusters` prints them.
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
    const specs = header.map((h) => ({ header: h, min: Math.min(h.length, 5), shrink: h === 'NAME' || h === 'K8S-CLUSTER' ? 2 : 1 }));
    const cells = rows.map((r) => r.map((c) => text(c || '-')));
    const { widths, gap } = layoutColumns(specs, cells, width);
    const format = (cellsOfRow: readonly string[]) =>
      cellsOfRow
        .map((c, i) => fitCell(c, widths[i] ?? 0, opts.ascii ? '~' : '…'))
        .join(' '.repeat(gap))
        .trimEnd();
    lines.push({ kind: 'blank' });
    lines.push({ kind: 'heading', text: `Clusters registered with the control plane (${rows.length})` });
    lines.push({ kind: 'text', text: format(header), bold: true });
    cells.forEach((row, i) => {
      lines.push({ kind: 'text', text: format(row), id: `cluster/${rows[i]?.[0] ?? ''}` });
    });
  }
  return lines;
}
