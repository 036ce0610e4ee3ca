/**
 * The fleet-wide tables: the nodes of every context and the pods needing attention of every
 * context, as rows built from the summaries the store keeps (no list of their own). The
 * dashboard's Fleet nodes/pods views and `fleetdeck get nodes|pods` both read these rows and
 * these columns, so the two cannot disagree.
 */
import type { StatusSlice } from '../store/status.js';
import { reachabilityLine } from '../store/selectors.js';
import type { ContextState } from '../store/types.js';
import type { PodPhase } from '../kube/pods/pods.js';
import { ago } from './relative-time.js';

export type FleetKind = 'nodes' | 'pods';

/** One node of one context. */
export interface FleetNodeRow {
  context: string;
  name: string;
  roles: readonly string[];
  zone?: string | undefined;
  ready: boolean;
  notReadyReason?: string | undefined;
  cordoned: boolean;
  kubelet?: string | undefined;
  /** Epoch ms. */
  createdAt?: number | undefined;
}

/** One pod needing attention in one context. */
export interface FleetPodRow {
  context: string;
  namespace: string;
  name: string;
  phase: PodPhase;
  reason: string;
  restarts: number;
  node?: string | undefined;
  /** Epoch ms. */
  createdAt?: number | undefined;
}

export type FleetRow<K extends FleetKind> = K extends 'nodes' ? FleetNodeRow : FleetPodRow;

/** A column of a fleet table: its header, its cell as text, and how rows compare on it. */
export interface FleetColumn<Row> {
  key: string;
  header: string;
  text: (row: Row, now: number) => string;
  compare: (a: Row, b: Row) => number;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** An unknown number sorts as the smallest. */
const byNumber = (a: number | undefined, b: number | undefined) => (a ?? -Infinity) - (b ?? -Infinity);
/** Youngest first: a smaller age is a later creation. */
const byAge = (a: { createdAt?: number | undefined }, b: { createdAt?: number | undefined }) => byNumber(b.createdAt, a.createdAt);
const age = (r: { createdAt?: number | undefined }, now: number) => (r.createdAt !== undefined ? ago(r.createdAt, now) : '-');

export const nodeRole = (r: FleetNodeRow) => r.roles.join(',') || '-';
export const nodeStatus = (r: FleetNodeRow) => (r.ready ? 'Ready' : 'NotReady');
export const nodeCordoned = (r: FleetNodeRow) => (r.cordoned ? 'yes' : 'no');

/** CONTEXT, NAME, ROLE, ZONE, STATUS, CORDONED, KUBELET, AGE. */
export const FLEET_NODE_COLUMNS: readonly FleetColumn<FleetNodeRow>[] = [
  { key: 'context', header: 'CONTEXT', text: (r) => r.context, compare: (a, b) => byText(a.context, b.context) },
  { key: 'name', header: 'NAME', text: (r) => r.name, compare: (a, b) => byText(a.name, b.name) },
  { key: 'role', header: 'ROLE', text: nodeRole, compare: (a, b) => byText(nodeRole(a), nodeRole(b)) },
  { key: 'zone', header: 'ZONE', text: (r) => r.zone ?? '-', compare: (a, b) => byText(a.zone ?? '', b.zone ?? '') },
  { key: 'status', header: 'STATUS', text: nodeStatus, compare: (a, b) => byText(nodeStatus(a), nodeStatus(b)) },
  { key: 'cordoned', header: 'CORDONED', text: nodeCordoned, compare: (a, b) => Number(b.cordoned) - Number(a.cordoned) },
  { key: 'kubelet', header: 'KUBELET', text: (r) => r.kubelet ?? '-', compare: (a, b) => byText(a.kubelet ?? '', b.kubelet ?? '') },
  { key: 'age', header: 'AGE', text: age, compare: byAge },
];

/** CONTEXT, NAMESPACE, POD, REASON, RESTARTS, AGE. */
export const FLEET_POD_COLUMNS: readonly FleetColumn<FleetPodRow>[] = [
  { key: 'context', header: 'CONTEXT', text: (r) => r.context, compare: (a, b) => byText(a.context, b.context) },
  { key: 'namespace', header: 'NAMESPACE', text: (r) => r.namespace, compare: (a, b) => byText(a.namespace, b.namespace) },
  { key: 'pod', header: 'POD', text: (r) => r.name, compare: (a, b) => byText(a.name, b.name) },
  { key: 'reason', header: 'REASON', text: (r) => r.reason, compare: (a, b) => byText(a.reason, b.reason) },
  { key: 'restarts', header: 'RESTARTS', text: (r) => String(r.restarts), compare: (a, b) => b.restarts - a.restarts },
  { key: 'age', header: 'AGE', text: age, compare: byAge },
];

export function fleetColumns<K extends FleetKind>(kind: K): readonly FleetColumn<FleetRow<K>>[] {
  return (kind === 'nodes' ? FLEET_NODE_COLUMNS : FLEET_POD_COLUMNS) as readonly FleetColumn<FleetRow<K>>[];
}

// Rows per context, made once per summary: the store replaces a context's nodes or pods object
// when (and only when) they changed, so a summary seen before gives back the same rows.
const nodeCache = new WeakMap<ContextState['nodes'], FleetNodeRow[]>();
const podCache = new WeakMap<ContextState['pods'], FleetPodRow[]>();

/** A context's nodes as rows, by name. */
export function contextNodeRows(ctx: ContextState): FleetNodeRow[] {
  let rows = nodeCache.get(ctx.nodes);
  if (!rows) {
    rows = Object.values(ctx.nodes.items)
      .map((n) => ({
        context: ctx.name,
        name: n.name,
        roles: n.roles,
        zone: n.zone,
        ready: n.ready,
        notReadyReason: n.notReadyReason,
        cordoned: n.unschedulable,
        kubelet: n.kubeletVersion,
        createdAt: n.createdAt,
      }))
      .sort((a, b) => byText(a.name, b.name));
    nodeCache.set(ctx.nodes, rows);
  }
  return rows;
}

/** A context's pods needing attention as rows, worst first (as the summary lists them). */
export function contextPodRows(ctx: ContextState): FleetPodRow[] {
  let rows = podCache.get(ctx.pods);
  if (!rows) {
    rows = ctx.pods.problems.map((p) => ({
      context: ctx.name,
      namespace: p.namespace,
      name: p.name,
      phase: p.phase,
      reason: p.reason,
      restarts: p.restarts,
      node: p.node,
      createdAt: p.createdAt,
    }));
    podCache.set(ctx.pods, rows);
  }
  return rows;
}

type Contexts = { status: Pick<StatusSlice, 'order' | 'contexts'> };

/**
 * A memoized selector of every context's rows, in context order: the same array back while no
 * context's summary of that kind changed (a probe's latency, another kind's update), so what is
 * derived from it (filter, sort) is not done again.
 */
export function fleetRowsSelector<K extends FleetKind>(kind: K): (state: Contexts) => readonly FleetRow<K>[] {
  const perContext = (kind === 'nodes' ? contextNodeRows : contextPodRows) as (ctx: ContextState) => FleetRow<K>[];
  let parts: FleetRow<K>[][] = [];
  let rows: FleetRow<K>[] = [];
  return ({ status: { order, contexts } }) => {
    const next = order.flatMap((n) => (contexts[n] ? [perContext(contexts[n])] : []));
    if (next.length !== parts.length || next.some((p, i) => p !== parts[i])) {
      parts = next;
      rows = next.flat();
    }
    return rows;
  };
}

/** What the / filter looks through: every cell, and a node's NotReady reason or a pod's phase and node. */
export function rowText<K extends FleetKind>(kind: K, row: FleetRow<K>): string {
  if (kind === 'nodes') {
    const r = row as FleetNodeRow;
    return `${r.context} ${r.name} ${nodeRole(r)} ${r.zone ?? ''} ${nodeStatus(r)} ${r.notReadyReason ?? ''} ${r.cordoned ? 'cordoned' : ''} ${r.kubelet ?? ''}`;
  }
  const r = row as FleetPodRow;
  return `${r.context} ${r.namespace}/${r.name} ${r.phase} ${r.reason} ${r.node ?? ''}`;
}

/** Rows whose text holds the filter (ignoring case); all of them for an empty filter. */
export function filterFleetRows<K extends FleetKind>(kind: K, rows: readonly FleetRow<K>[], filter: string): readonly FleetRow<K>[] {
  const f = filter.trim().toLowerCase();
  return f ? rows.filter((r) => rowText(kind, r).toLowerCase().includes(f)) : rows;
}

/** Which column the rows are sorted by (an index into the kind's columns), and which way. */
export interface FleetSort {
  column: number;
  desc: boolean;
}

export const DEFAULT_SORT: FleetSort = { column: 0, desc: false };

/**
 * Rows sorted by a column, ties by context, then in their given order (the sort is stable: a
 * context's nodes stay by name, its pods worst first).
 */
export function sortFleetRows<K extends FleetKind>(kind: K, rows: readonly FleetRow<K>[], sort: FleetSort): readonly FleetRow<K>[] {
  const columns = fleetColumns(kind);
  const column = columns[sort.column] ?? columns[0]!;
  const context = columns[0]!;
  const sign = sort.desc ? -1 : 1;
  return [...rows].sort((a, b) => sign * column.compare(a, b) || context.compare(a, b));
}

/** The header of a column, with the sort's arrow when the rows are sorted by it. */
export function sortedHeader(header: string, sorted: boolean, desc: boolean, ascii: boolean): string {
  if (!sorted) return header;
  return `${header}${ascii ? (desc ? 'v' : '^') : desc ? '▼' : '▲'}`;
}

/**
 * Why a context's rows of this kind are not there: it is not reached yet or cannot be, its
 * credentials cannot be loaded, its API server cannot serve, listing is forbidden, or no list
 * has answered yet. Undefined when they were read.
 */
export function unreadable(ctx: ContextState, kind: FleetKind): string | undefined {
  if (ctx.reachability !== 'reachable' || ctx.notReady !== undefined) return reachabilityLine(ctx);
  const slice = kind === 'nodes' ? ctx.nodes : ctx.pods;
  if (slice.forbidden !== undefined) return slice.forbidden;
  if (!slice.synced) return `${kind} not listed yet`;
  return undefined;
}

/** How many of a context's pods needing attention its summary leaves out (it keeps the worst). */
export function podsLeftOut(ctx: ContextState): number {
  return ctx.pods.synced ? Math.max(0, ctx.pods.problemCount - ctx.pods.problems.length) : 0;
}
