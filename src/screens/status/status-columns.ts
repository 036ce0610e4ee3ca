import type { Column } from '../../components/table/index.js';
import type { StatusRow } from '../../store/selectors.js';

/**
 * NAME, STATUS, LATENCY, VERSION, NODES, sized to their content. When 80 columns
 * are not enough, VERSION gives way first, then NAME (cut in the middle: the end
 * of "gke_project_region_cluster" is what tells contexts apart), then STATUS.
 */
export const STATUS_COLUMNS: readonly Column<StatusRow>[] = [
  { key: 'name', header: 'NAME', min: 16, max: 40, shrink: 2, cut: 'middle', value: (r) => r.name },
  {
    key: 'status',
    header: 'STATUS',
    min: 12,
    max: 30,
    shrink: 1,
    value: (r) => r.status,
    color: (r) => (r.reachability === 'reachable' ? 'ok' : r.reachability === 'unreachable' ? 'fail' : 'warn'),
  },
  { key: 'latency', header: 'LATENCY', min: 7, max: 8, align: 'right', value: (r) => r.latency },
  { key: 'version', header: 'VERSION', min: 7, max: 14, shrink: 3, value: (r) => r.version },
  { key: 'nodes', header: 'NODES', min: 5, max: 20, shrink: 0, value: (r) => r.nodes, color: (r) => (r.nodesWarn ? 'warn' : undefined) },
];
