import { Table, type Column, type TableFooter } from '../../components/table/index.js';
import type { ColorRole } from '../../components/theme/index.js';
import type { NodeRow } from './rows.js';

export interface NodeTableProps {
  rows: readonly NodeRow[];
  selected: number;
  height: number;
  width: number;
  /** Show the PODS column (Navarchos records the node's pods). */
  pods?: boolean;
}

const TONE: Record<NodeRow['tone'], ColorRole | undefined> = {
  ok: 'ok',
  running: 'running',
  warn: 'warn',
  fail: 'fail',
  pending: undefined,
};

/** One row per node: priority, phase, pod counts, elapsed, completion; the blocking budget or the error on a line under it. */
export function NodeTable({ rows, selected, height, width, pods = false }: NodeTableProps) {
  const columns: Column<NodeRow>[] = [
    { key: 'priority', header: 'PRI', min: 3, max: 5, align: 'right', value: (r) => String(r.priority) },
    { key: 'name', header: 'NODE', min: 8, max: 30, shrink: 2, cut: 'middle', value: (r) => r.name },
    { key: 'phase', header: 'PHASE', min: 8, max: 28, shrink: 1, value: (r) => r.phase, color: (r) => TONE[r.tone] },
    ...(pods ? [{ key: 'pods', header: 'PODS', min: 4, max: 5, align: 'right' as const, value: (r: NodeRow) => r.pods ?? '' }] : []),
    { key: 'evicted', header: 'EVICT', min: 5, max: 5, align: 'right', value: (r) => r.evicted },
    { key: 'ignored', header: 'IGN', min: 3, max: 4, align: 'right', value: (r) => r.ignored },
    {
      key: 'failed',
      header: 'FAIL',
      min: 4,
      max: 4,
      align: 'right',
      value: (r) => r.failed,
      color: (r) => (r.failed !== '' && r.failed !== '0' ? 'fail' : undefined),
    },
    { key: 'elapsed', header: 'ELAPSED', min: 7, max: 7, align: 'right', value: (r) => r.elapsed, drop: 1 },
    { key: 'completed', header: 'DONE AT', min: 8, max: 16, value: (r) => r.completed, drop: 2 },
  ];
  // The footer line only when the rows do not all fit (a footer keeps its line even when empty).
  const overflow = 1 + rows.reduce((sum, r) => sum + (r.note ? 2 : 1), 0) > height;
  return (
    <Table
      columns={columns}
      rows={rows}
      rowKey={(r) => r.name}
      selected={selected}
      height={height}
      width={width}
      note={{ column: 'name', text: (r) => r.note, color: 'warn' }}
      {...(overflow ? { footer: (v: TableFooter) => `nodes ${v.start + 1}–${v.end} of ${v.total} · j/k scroll` } : {})}
    />
  );
}
