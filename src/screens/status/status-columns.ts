import type { Column } from '../../components/table/index.js';
import type { ContextRow } from './context-row.js';

const NAME: Column<ContextRow> = { key: 'name', header: 'NAME', min: 14, max: 40, shrink: 2, cut: 'middle', value: (r) => r.name };
const ROLE: Column<ContextRow> = { key: 'role', header: 'ROLE', min: 8, max: 16, shrink: 1, value: (r) => r.role };
const STATUS: Column<ContextRow> = {
  key: 'status',
  header: 'STATUS',
  min: 9,
  max: 30,
  shrink: 1,
  value: (r) => r.status,
  color: (r) => (r.notReady ? 'fail' : r.reachability === 'reachable' ? 'ok' : r.reachability === 'unknown' ? 'warn' : 'fail'),
};
const LATENCY: Column<ContextRow> = { key: 'latency', header: 'LATENCY', min: 7, max: 8, align: 'right', drop: 1, value: (r) => r.latency };
const VERSION: Column<ContextRow> = { key: 'version', header: 'VERSION', min: 7, max: 14, shrink: 3, value: (r) => r.version };
const NODES: Column<ContextRow> = {
  key: 'nodes',
  header: 'NODES',
  min: 5,
  max: 20,
  value: (r) => r.nodes,
  color: (r) => (r.nodesWarn ? 'warn' : undefined),
};
const PODS: Column<ContextRow> = {
  key: 'pods',
  header: 'PODS',
  min: 4,
  max: 16,
  value: (r) => r.pods.map((p) => p.text).join(''),
  parts: (r) => r.pods,
};
const WARN: Column<ContextRow> = {
  key: 'warn',
  header: 'WARN',
  min: 4,
  max: 9,
  align: 'right',
  value: (r) => r.warn,
  color: (r) => r.warnTone,
};

/**
 * NAME, (ROLE with a fleet,) STATUS, LATENCY, VERSION, NODES, PODS, WARN, sized
 * to their content. When 80 columns are not enough, LATENCY is left out (the
 * detail has it), then VERSION gives way, then NAME (cut in the middle: the end of
 * "gke_project_region_cluster" is what tells contexts apart), then STATUS.
 */
export function statusColumns(withRole: boolean): readonly Column<ContextRow>[] {
  return withRole ? [NAME, ROLE, STATUS, LATENCY, VERSION, NODES, PODS, WARN] : [NAME, STATUS, LATENCY, VERSION, NODES, PODS, WARN];
}
