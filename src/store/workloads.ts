/**
 * The Workloads tab's slice: every control-plane workload's row as last read (where Nova placed
 * it, its copies, its state), when it was read, the clusters that could not be read, and the
 * placement checklist of the workload opened. Pure; the workloads feed is its only writer.
 */
import type { CheckItem } from '../checklist/checklist.js';
import type { WorkloadRow } from '../placement/rows.js';
import type { FeedStatus } from './types.js';

export interface WorkloadsSlice {
  status: FeedStatus;
  /** The control plane read, or why there is none ("no fleet recorded…"). */
  source?: { context: string } | { error: string };
  rows: WorkloadRow[];
  /** When the rows were read (ms since the epoch). */
  at?: number;
  reading: boolean;
  /** The last read failed: why (the rows before it stay). */
  error?: string;
  /** Workload clusters whose copies could not be read, each with why. */
  unread: string[];
  /** The workload whose placement checklist is open. */
  open?: { key: string; title: string; items: CheckItem[] };
}

export const emptyWorkloads = (): WorkloadsSlice => ({ status: 'off', rows: [], reading: false, unread: [] });

/** A row's key: `Kind/namespace/name`. */
export const workloadKey = (r: Pick<WorkloadRow, 'kind' | 'namespace' | 'name'>) => `${r.kind}/${r.namespace ?? ''}/${r.name}`;

export type WorkloadSort = 'state' | 'name' | 'namespace' | 'clusters';

const STATE_ORDER: Record<WorkloadRow['state'], number> = {
  pending: 0,
  orphaned: 1,
  drifted: 2,
  moving: 3,
  placed: 4,
  divided: 5,
  duplicated: 6,
};

/** The rows matching `filter` (in namespace, kind/name, policy, group, cluster or state), sorted. */
export function visibleWorkloads(rows: readonly WorkloadRow[], filter: string, sort: WorkloadSort): WorkloadRow[] {
  const f = filter.toLowerCase();
  const text = (r: WorkloadRow) =>
    [r.namespace, `${r.kind}/${r.name}`, r.policy, r.group, r.state, ...r.clusters.map((c) => c.cluster)].join(' ').toLowerCase();
  const by = (r: WorkloadRow) => `${r.namespace ?? ''}/${r.kind}/${r.name}`;
  const cmp: Record<WorkloadSort, (a: WorkloadRow, b: WorkloadRow) => number> = {
    state: (a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || by(a).localeCompare(by(b)),
    name: (a, b) => a.name.localeCompare(b.name) || by(a).localeCompare(by(b)),
    namespace: (a, b) => by(a).localeCompare(by(b)),
    clusters: (a, b) => (a.clusters[0]?.cluster ?? '~').localeCompare(b.clusters[0]?.cluster ?? '~') || by(a).localeCompare(by(b)),
  };
  return rows.filter((r) => !f || text(r).includes(f)).sort(cmp[sort]);
}
