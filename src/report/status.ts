import { formatChecklist, toAscii, type CheckItem, type SymbolOptions } from '../checklist/checklist.js';
import type { FleetState } from '../store/fleet-store.js';
import {
  clock,
  compareNames,
  credentialsHint,
  kubeletSkew,
  kubeletVersions,
  nodeCounts,
  nodesCheck,
  reachabilityLine,
  type KubeletSkew,
} from '../store/selectors.js';
import type { ContextState, NodeCounts } from '../store/types.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import type { NodeSummary } from '../kube/nodes/nodes.js';
import type { PodPhase, PodProblem } from '../kube/pods/pods.js';
import type { WarningEvent } from '../kube/events/events.js';
import { type ClusterOverview, fleetChecklist, novaClusters, novaClustersTable } from './fleet-checklist.js';

/** The JSON shape of `fleetdeck status -o json` (docs/commands/status.md, docs/schemas/status.schema.json). */
export interface StatusJson {
  /** The fleet watched, or null when none is defined. */
  fleet: FleetConfig | null;
  /** The fleet checklist (control plane, CRDs, clusters, agents); without a fleet, how to define one. */
  checklist: CheckItem[];
  /** The Cluster objects of the control plane (`kubectl get clusters`), their room and the workloads placed on each. */
  clusters: ClusterOverview[];
  contexts: ContextJson[];
}

export interface ContextJson {
  name: string;
  cluster: string;
  server: string;
  /** The kubeconfig user of the context. */
  user: string;
  reachable: boolean;
  /** `reachable`, `unreachable`, `credentials` (its user's credentials cannot be loaded: nothing was sent) or `unknown` (not answered yet). */
  reachability: ContextState['reachability'];
  version: string | null;
  latencyMs: number | null;
  error: string | null;
  lastSuccessAt: string | null;
  unreachableSince: string | null;
  /** Why the API server says it cannot serve (its /readyz failed, e.g. "etcd failed"); null while ready. */
  serverNotReady: string | null;
  serverNotReadySince: string | null;
  evictionVersion: string | null;
  /** Counts, and every node as the Nodes view shows it (sorted by name). */
  nodes: (NodeCounts & { forbidden: string | null; items: NodeSummary[] }) | null;
  /** Null until pods were listed (or found forbidden). */
  pods: { total: number; byPhase: Record<PodPhase, number>; problemCount: number; problems: PodProblem[]; forbidden: string | null } | null;
  /** Null until events were listed (or found forbidden). */
  events: { warnings: WarningEvent[]; forbidden: string | null } | null;
  kubeletVersions: { version: string; count: number }[];
  /** Kubelets outside the supported skew against the API server. */
  kubeletSkew: KubeletSkew[];
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export function contextJson(c: ContextState): ContextJson {
  return {
    name: c.name,
    cluster: c.cluster,
    server: c.server,
    user: c.user,
    reachable: c.reachability === 'reachable',
    reachability: c.reachability,
    version: c.version ?? null,
    latencyMs: c.latencyMs ?? null,
    error: c.lastError ?? null,
    lastSuccessAt: iso(c.lastSuccessAt),
    unreachableSince: iso(c.unreachableSince),
    serverNotReady: c.notReady ?? null,
    serverNotReadySince: iso(c.notReadySince),
    evictionVersion: c.evictionVersion ?? null,
    nodes:
      c.nodes.synced || c.nodes.forbidden
        ? {
            ...nodeCounts(c),
            forbidden: c.nodes.forbidden ?? null,
            items: Object.values(c.nodes.items).sort((a, b) => compareNames(a.name, b.name)),
          }
        : null,
    pods:
      c.pods.synced || c.pods.forbidden
        ? {
            total: c.pods.total,
            byPhase: { ...c.pods.byPhase },
            problemCount: c.pods.problemCount,
            problems: c.pods.problems,
            forbidden: c.pods.forbidden ?? null,
          }
        : null,
    events: c.events.synced || c.events.forbidden ? { warnings: c.events.warnings, forbidden: c.events.forbidden ?? null } : null,
    kubeletVersions: kubeletVersions(c),
    kubeletSkew: kubeletSkew(c),
  };
}

export function statusJson(state: FleetState, now: number = Date.now()): StatusJson {
  return {
    fleet: state.fleet ?? null,
    checklist: fleetChecklist(state, now),
    clusters: novaClusters(state),
    contexts: state.status.order.flatMap((n) => (state.status.contexts[n] ? [contextJson(state.status.contexts[n])] : [])),
  };
}

/** What the context line says about its nodes: "nodes forbidden", "nodes loading", "5/6 nodes Ready, 1 cordoned". */
function nodesPart(c: ContextState): string {
  if (c.nodes.forbidden) return 'nodes forbidden';
  if (!c.nodes.synced) return 'nodes loading';
  const counts = nodeCounts(c);
  return `${counts.ready}/${counts.total} nodes Ready${counts.cordoned ? `, ${counts.cordoned} cordoned` : ''}`;
}

/**
 * One checklist item per context: reachability, version, latency and its nodes. The nodes'
 * verdict is the detail screen's ({@link nodesCheck}): a node problem makes the line a warning,
 * with the NotReady nodes named in the hint; `fleet` tells the control plane's own context.
 */
export function contextCheck(c: ContextState, fleet?: FleetConfig): CheckItem {
  if (c.reachability !== 'reachable') {
    return {
      id: c.name,
      label: `Context ${c.name} (${c.server})`,
      state: c.reachability === 'unknown' ? 'pending' : 'fail',
      detail: reachabilityLine(c),
      hint:
        c.reachability === 'unreachable'
          ? `check that the API server is up and reachable from here: kubectl --context ${c.name} get --raw /readyz`
          : c.reachability === 'credentials'
            ? credentialsHint(c)
            : undefined,
    };
  }
  if (c.notReady !== undefined) {
    return {
      id: c.name,
      label: `Context ${c.name} (${c.server})`,
      state: 'fail',
      detail: reachabilityLine(c),
      hint: `the API server answers but cannot serve requests (its data is stale here): check its log and its etcd; kubectl --context ${c.name} get --raw '/readyz?verbose'`,
    };
  }
  const nodes = nodesCheck(c, fleet);
  const problem = nodes.state === 'warn' || nodes.state === 'fail';
  const notReady = nodes.children ?? [];
  const hint = !problem
    ? undefined
    : notReady.length
      ? `NotReady: ${notReady.map((n) => `${n.label} (${n.detail})`).join(', ')}`
      : nodes.hint;
  const parts = [c.version ?? 'version unknown', `${c.latencyMs ?? '?'} ms`, nodesPart(c)];
  return { id: c.name, label: `Context ${c.name}`, state: problem ? 'warn' : 'ok', detail: `reachable, ${parts.join(', ')}`, hint };
}

/** One item per context, then how many are reachable. */
export function contextsChecklist(state: FleetState): CheckItem[] {
  const contexts = state.status.order.flatMap((n) => (state.status.contexts[n] ? [state.status.contexts[n]] : []));
  const items = contexts.map((c) => contextCheck(c, state.fleet));
  const reachable = contexts.filter((c) => c.reachability === 'reachable').length;
  const notReady = contexts.filter((c) => c.reachability === 'reachable' && c.notReady !== undefined).length;
  return [
    { id: 'title', label: 'Checking contexts', state: 'info' },
    ...items,
    {
      id: 'summary',
      label: `${reachable} of ${items.length} contexts reachable${notReady ? ` (${notReady} not ready)` : ''} at ${clock(Date.now())}`,
      state: items.every((i) => i.state === 'ok' || i.state === 'warn') ? 'ok' : 'fail',
    },
  ];
}

/** The fleet checklist first (when a fleet is defined), then one item per context. */
export function statusChecks(state: FleetState, now: number = Date.now()): CheckItem[] {
  return [...(state.fleet ? fleetChecklist(state, now) : []), ...contextsChecklist(state)];
}

/** Columns padded and separated by `gap` (three spaces, as kubectl prints them); the last one not padded; trailing blanks trimmed. */
export function formatTable(rows: readonly (readonly string[])[], gap = '   '): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join(gap)
        .trimEnd(),
    )
    .join('\n');
}

/**
 * `fleetdeck status -o text`: the fleet checklist (when a fleet is defined), the Cluster
 * table (when there are Clusters), then the per-context checklist; sections apart by a blank line.
 */
export function statusText(state: FleetState, opts: SymbolOptions = { ascii: false }, now: number = Date.now()): string {
  const sections: string[] = [];
  if (state.fleet) sections.push(formatChecklist(fleetChecklist(state, now), opts));
  const table = novaClustersTable(state);
  if (table.length > 1) sections.push(opts.ascii ? toAscii(formatTable(table)) : formatTable(table));
  sections.push(formatChecklist(contextsChecklist(state), opts));
  return sections.join('\n\n');
}

/**
 * The exit status of `status`: every context reachable and ready and, with a fleet, no item of its
 * checklist failed, still pending, or unknown (a check that could not be made, e.g. a list the
 * user may not read). Other warnings (‼: degraded, expiring soon, none defined) do not make it
 * unhealthy.
 */
export function fleetHealthy(state: FleetState, now: number = Date.now()): boolean {
  const serving = state.status.order.every(
    (n) => state.status.contexts[n]?.reachability === 'reachable' && state.status.contexts[n].notReady === undefined,
  );
  if (!serving) return false;
  if (!state.fleet) return true;
  const settled = (i: CheckItem): boolean =>
    i.state !== 'fail' && i.state !== 'pending' && i.state !== 'running' && !i.unknown && (i.children ?? []).every(settled);
  return fleetChecklist(state, now).every(settled);
}
