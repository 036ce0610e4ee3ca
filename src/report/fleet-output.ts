/**
 * `fleetdeck get nodes|pods` output: the fleet rows (src/report/fleet-rows.ts) as a kubectl-like
 * table, or as JSON / YAML objects of one shape (docs/commands/status.md), and why a context's
 * rows could not be read.
 */
import { document, type OutputFormat } from '../output/format.js';
import type { FleetState } from '../store/fleet-store.js';
import {
  fleetColumns,
  fleetRowsSelector,
  type FleetKind,
  type FleetNodeRow,
  type FleetPodRow,
  type FleetRow,
  nodeStatus,
  unreadable,
} from './fleet-rows.js';
import { formatTable } from './status.js';
import { ago } from './relative-time.js';

/** A node in `get nodes -o json|yaml`. */
export interface NodeRowJson {
  context: string;
  name: string;
  roles: string[];
  zone: string | null;
  status: 'Ready' | 'NotReady';
  notReadyReason: string | null;
  cordoned: boolean;
  kubeletVersion: string | null;
  createdAt: string | null;
  age: string | null;
}

/** A pod needing attention in `get pods -o json|yaml`: its row, with times as text and null for none. */
export type PodRowJson = Omit<FleetPodRow, 'node' | 'createdAt'> & { node: string | null; createdAt: string | null; age: string | null };

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
const ageOf = (ms: number | undefined, now: number) => (ms === undefined ? null : ago(ms, now));

export function nodeRowJson(r: FleetNodeRow, now: number): NodeRowJson {
  return {
    context: r.context,
    name: r.name,
    roles: [...r.roles],
    zone: r.zone ?? null,
    status: nodeStatus(r) as NodeRowJson['status'],
    notReadyReason: r.notReadyReason ?? null,
    cordoned: r.cordoned,
    kubeletVersion: r.kubelet ?? null,
    createdAt: iso(r.createdAt),
    age: ageOf(r.createdAt, now),
  };
}

export function podRowJson(r: FleetPodRow, now: number): PodRowJson {
  return { ...r, node: r.node ?? null, createdAt: iso(r.createdAt), age: ageOf(r.createdAt, now) };
}

/** The rows of the contexts that were read, in context order. */
export function fleetRows<K extends FleetKind>(kind: K, state: Pick<FleetState, 'status'>): readonly FleetRow<K>[] {
  const { order, contexts } = state.status;
  const readable = order.filter((n) => contexts[n] && unreadable(contexts[n], kind) === undefined);
  return fleetRowsSelector(kind)({ status: { order: readable, contexts } });
}

/** The rows as a table with the dashboard's columns, three spaces apart as kubectl prints them. */
export function fleetText<K extends FleetKind>(kind: K, rows: readonly FleetRow<K>[], now: number): string {
  const columns = fleetColumns(kind);
  return formatTable([columns.map((c) => c.header), ...rows.map((r) => columns.map((c) => c.text(r, now)))]);
}

export function fleetJson<K extends FleetKind>(kind: K, rows: readonly FleetRow<K>[], now: number): (NodeRowJson | PodRowJson)[] {
  return kind === 'nodes'
    ? (rows as readonly FleetNodeRow[]).map((r) => nodeRowJson(r, now))
    : (rows as readonly FleetPodRow[]).map((r) => podRowJson(r, now));
}

/** The rows in one of the output formats; text ends without a newline. */
export function formatFleetRows<K extends FleetKind>(
  kind: K,
  rows: readonly FleetRow<K>[],
  output: OutputFormat,
  now: number = Date.now(),
): string {
  if (output === 'text') return fleetText(kind, rows, now);
  const objects = fleetJson(kind, rows, now);
  return document(output, objects);
}
