import { parseKubeVersion } from '../kube/api/discovery.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import type { ContextState, NodeCounts } from './types.js';
import type { CheckItem } from '../checklist/checklist.js';

/**
 * Order of Kubernetes names, versions and zones (ASCII, lowercase): by code unit. Not
 * localeCompare, whose first call loads ICU's collation data (tens of ms of a one-shot `status`).
 */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function nodeCounts(ctx: ContextState): NodeCounts {
  const counts: NodeCounts = { ready: 0, total: 0, cordoned: 0, notReady: [], byZone: {} };
  for (const n of Object.values(ctx.nodes.items)) {
    counts.total++;
    if (n.ready) counts.ready++;
    else counts.notReady.push({ name: n.name, reason: n.notReadyReason ?? 'NotReady' });
    if (n.unschedulable) counts.cordoned++;
    const zone = n.zone ?? '(no zone)';
    const z = counts.byZone[zone] ?? { ready: 0, total: 0 };
    counts.byZone[zone] = z;
    z.total++;
    if (n.ready) z.ready++;
  }
  counts.notReady.sort((a, b) => compareNames(a.name, b.name));
  return counts;
}

/** Format an epoch-ms time as HH:MM:SS in local time. */
export function clock(ms: number): string {
  const d = new Date(ms);
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((v) => String(v).padStart(2, '0')).join(':');
}

/**
 * One line describing reachability, e.g. "unreachable since 10:42:07 (connection refused)", or
 * "reachable but not ready since 10:42:07 (etcd failed)" for a server that answers but cannot serve.
 */
export function reachabilityLine(ctx: ContextState): string {
  switch (ctx.reachability) {
    case 'unknown':
      return 'connecting…';
    case 'reachable': {
      if (ctx.notReady === undefined) return 'reachable';
      const since = ctx.notReadySince !== undefined ? ` since ${clock(ctx.notReadySince)}` : '';
      return `reachable but not ready${since} (${ctx.notReady})`;
    }
    case 'unreachable': {
      const since = ctx.unreachableSince !== undefined ? ` since ${clock(ctx.unreachableSince)}` : '';
      return `unreachable${since}${ctx.lastError ? ` (${ctx.lastError})` : ''}`;
    }
    case 'credentials':
      return `credentials${ctx.lastError ? `: ${ctx.lastError}` : ''}`;
  }
}

/** What to do about a context whose credentials cannot be loaded: its kubeconfig user, not the API server. */
export function credentialsHint(ctx: Pick<ContextState, 'name' | 'user' | 'hint'>): string {
  if (ctx.hint) return ctx.hint;
  return `fix user "${ctx.user}" of context ${ctx.name} in the kubeconfig (what it names must exist and be valid); kubectl --context ${ctx.name} get --raw /version fails the same way`;
}

/** One row of the status table, as plain strings. */
export interface StatusRow {
  name: string;
  reachability: ContextState['reachability'];
  /** "reachable", "connecting…", "unreachable since HH:MM:SS", "not ready since HH:MM:SS" or "credentials" (the reason is separate). */
  status: string;
  /** Reachable, but the API server cannot serve (its /readyz failed). */
  notReady?: true;
  /** Why it is unreachable or not ready, or what about its credentials failed, shown under the row. */
  reason?: string;
  /** e.g. "12ms"; "-" while not reachable. */
  latency: string;
  version: string;
  /** "ready/total" plus ", N cordoned"; "-" before the first list; "forbidden" when listing is not allowed. */
  nodes: string;
  /** Some nodes are not ready or cordoned, or they cannot be listed. */
  nodesWarn: boolean;
}

export function statusRow(ctx: ContextState): StatusRow {
  const reachable = ctx.reachability === 'reachable';
  const row: StatusRow = {
    name: ctx.name,
    reachability: ctx.reachability,
    status: reachabilityLine({ ...ctx, lastError: undefined }),
    latency: reachable && ctx.latencyMs !== undefined ? `${Math.round(ctx.latencyMs)}ms` : '-',
    version: ctx.version ?? '-',
    nodes: '-',
    nodesWarn: false,
  };
  if ((ctx.reachability === 'unreachable' || ctx.reachability === 'credentials') && ctx.lastError) row.reason = ctx.lastError;
  if (reachable && ctx.notReady !== undefined) {
    row.notReady = true;
    row.status = `not ready${ctx.notReadySince !== undefined ? ` since ${clock(ctx.notReadySince)}` : ''}`;
    row.reason = ctx.notReady;
  }
  if (ctx.nodes.forbidden !== undefined) {
    row.nodes = 'forbidden';
    row.nodesWarn = true;
  } else if (ctx.nodes.synced) {
    const c = nodeCounts(ctx);
    row.nodes = `${c.ready}/${c.total}${c.cordoned ? `, ${c.cordoned} cordoned` : ''}`;
    row.nodesWarn = c.ready < c.total || c.cordoned > 0;
  }
  return row;
}

/** Kubelet versions with how many nodes run each, most common first. */
export function kubeletVersions(ctx: ContextState): { version: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const n of Object.values(ctx.nodes.items)) {
    const v = n.kubeletVersion ?? 'unknown';
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts]
    .map(([version, count]) => ({ version, count }))
    .sort((a, b) => b.count - a.count || compareNames(a.version, b.version));
}

/** Names of the cordoned (unschedulable) nodes, sorted. */
export function cordonedNodes(ctx: ContextState): string[] {
  return Object.values(ctx.nodes.items)
    .filter((n) => n.unschedulable)
    .map((n) => n.name)
    .sort(compareNames);
}

/** The hint of a cluster that has no nodes (and is not the control plane's own). */
export const NO_NODES_HINT = 'the cluster has no nodes: nothing can be scheduled on it';

/** Is this the control plane's own context? Its cluster has no nodes by design: its workloads run in the workload clusters. */
export function isControlPlaneContext(name: string, fleet: FleetConfig | undefined): boolean {
  return fleet?.controlPlaneContext === name;
}

/**
 * The nodes of one context as one check, for the detail screen and `fleetdeck status` alike:
 * forbidden (‼), listing, or ready/total with the NotReady nodes as children. No nodes is a
 * warning, except in the control plane's own context, where it is how it should be.
 */
export function nodesCheck(ctx: ContextState, fleet?: FleetConfig): CheckItem {
  if (ctx.nodes.forbidden !== undefined) {
    return { id: 'nodes', label: 'Nodes', state: 'warn', detail: 'cannot list', hint: ctx.nodes.forbidden };
  }
  if (!ctx.nodes.synced) {
    return {
      id: 'nodes',
      label: 'Nodes',
      state: ctx.reachability === 'unreachable' || ctx.reachability === 'credentials' ? 'pending' : 'running',
      detail: 'listing…',
    };
  }
  const c = nodeCounts(ctx);
  const none = c.total === 0;
  const expectedEmpty = none && isControlPlaneContext(ctx.name, fleet);
  return {
    id: 'nodes',
    label: 'Nodes ready',
    state: none ? (expectedEmpty ? 'ok' : 'warn') : c.ready === c.total ? 'ok' : c.ready === 0 ? 'fail' : 'warn',
    detail: `${c.ready}/${c.total}`,
    ...(none && !expectedEmpty ? { hint: NO_NODES_HINT } : {}),
    children: c.notReady.map((n) => ({ id: `notready/${n.name}`, label: n.name, state: 'fail', detail: n.reason })),
  };
}

function apiCheck(ctx: ContextState): CheckItem {
  const latency = ctx.latencyMs !== undefined ? ` (${Math.round(ctx.latencyMs)} ms)` : '';
  switch (ctx.reachability) {
    case 'unknown':
      return { id: 'api', label: 'API server', state: 'running', detail: 'connecting…' };
    case 'reachable':
      return { id: 'api', label: 'API server', state: 'ok', detail: `reachable${latency}` };
    case 'unreachable':
      return {
        id: 'api',
        label: 'API server',
        state: 'fail',
        detail: reachabilityLine({ ...ctx, lastError: undefined }),
        hint: 'check the server URL, the network path and the credentials of this context',
      };
    case 'credentials':
      return {
        id: 'api',
        label: 'API server',
        state: 'fail',
        detail: 'not asked: credentials cannot be loaded',
        hint: credentialsHint(ctx),
      };
  }
}

/**
 * The health of one context as checklist items: API server, nodes, zones, cordoned nodes,
 * kubelets. `fleet` tells the control plane's own context (no nodes there is fine).
 */
export function contextChecks(ctx: ContextState, fleet?: FleetConfig): CheckItem[] {
  const nodes = nodesCheck(ctx, fleet);
  const items: CheckItem[] = [apiCheck(ctx), nodes];
  if (!ctx.nodes.synced || ctx.nodes.forbidden !== undefined) return items;
  const c = nodeCounts(ctx);

  const zones = Object.entries(c.byZone).sort(([a], [b]) => compareNames(a, b));
  if (zones.length > 0) {
    items.push({
      id: 'zones',
      label: 'Zones',
      state: 'info',
      detail: String(zones.length),
      children: zones.map(([zone, z]) => ({
        id: `zone/${zone}`,
        label: zone,
        state: z.ready === z.total ? 'ok' : 'warn',
        detail: `${z.ready}/${z.total}`,
      })),
    });
  }

  if (c.cordoned > 0) {
    items.push({
      id: 'cordoned',
      label: 'Cordoned',
      state: 'warn',
      detail: `${c.cordoned} node${c.cordoned === 1 ? '' : 's'}`,
      hint: 'no new pods land there; uncordon them when the maintenance is over',
      children: cordonedNodes(ctx).map((name) => ({ id: `cordoned/${name}`, label: name, state: 'info' })),
    });
  }

  const kubelets = kubeletVersions(ctx);
  if (kubelets.length > 0) {
    items.push({
      id: 'kubelets',
      label: 'Kubelet versions',
      state: 'info',
      detail: kubelets.map((k) => `${k.version} ×${k.count}`).join(', '),
    });
  }
  return items;
}

/** How many minor versions a kubelet may lag behind its API server: 2 before 1.28, 3 from 1.28 on. */
export function supportedKubeletLag(server: { major: number; minor: number }): number {
  return server.major > 1 || server.minor >= 28 ? 3 : 2;
}

export interface KubeletSkew {
  node: string;
  kubelet: string;
  server: string;
  problem: string;
}

/**
 * Nodes whose kubelet is outside the supported version skew: newer (minor) than the API server,
 * or older by more than 2 minor versions (3 when the server is 1.28 or later). Sorted by node.
 * Nothing is reported while the server version is unknown; unparseable kubelet versions are skipped.
 */
export function kubeletSkew(ctx: ContextState): KubeletSkew[] {
  const server = ctx.version;
  const s = server ? parseKubeVersion(server) : undefined;
  if (!server || !s) return [];
  const lag = supportedKubeletLag(s);
  const out: KubeletSkew[] = [];
  for (const n of Object.values(ctx.nodes.items)) {
    const kubelet = n.kubeletVersion;
    const k = kubelet ? parseKubeVersion(kubelet) : undefined;
    if (!kubelet || !k) continue;
    let problem: string | undefined;
    if (k.major !== s.major) problem = `kubelet ${kubelet} and API server ${server} differ in major version`;
    else if (k.minor > s.minor) problem = `kubelet ${kubelet} is newer than the API server ${server}`;
    else if (s.minor - k.minor > lag) {
      const behind = s.minor - k.minor;
      problem = `kubelet ${kubelet} is ${behind} minor versions older than the API server ${server} (at most ${lag} supported)`;
    }
    if (problem) out.push({ node: n.name, kubelet, server, problem });
  }
  return out.sort((a, b) => compareNames(a.node, b.node));
}

/** Which fleet slices a context carries (see watchersFor). */
function fleetSlices(name: string, fleet: FleetConfig | undefined): { namespace: boolean; controlPlane: boolean } {
  if (!fleet) return { namespace: false, controlPlane: false };
  return {
    namespace: name === fleet.hostingContext || fleet.workloads.some((w) => w.context === name),
    controlPlane: name === fleet.controlPlaneContext,
  };
}

/**
 * Has this context answered everything the report needs? Its nodes and, for fleet contexts,
 * the fleet namespace and control-plane slices (listed, or forbidden). Their watchers set
 * `synced` once every list has answered, forbidden ones included (`forbidden` alone may be
 * set while other lists are still loading).
 */
export function settled(c: ContextState, fleet?: FleetConfig): boolean {
  if (c.reachability === 'unknown') return false;
  // Unreachable, credentials not loadable, or not ready (its lists would only time out): the answer is in.
  if (c.reachability === 'unreachable' || c.reachability === 'credentials' || c.notReady !== undefined) return true;
  const answered = (x: { synced: boolean; forbidden?: string }) => x.synced || x.forbidden !== undefined;
  if (!answered(c.nodes) || !answered(c.pods) || !answered(c.events)) return false;
  const slices = fleetSlices(c.name, fleet);
  if (slices.namespace && !c.fleetNamespace?.synced) return false;
  if (slices.controlPlane && !c.controlPlane?.synced) return false;
  return true;
}
