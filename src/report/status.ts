import type { KubeConfig } from '@kubernetes/client-node';
import { watchFleet } from '../kube/fleet.js';
import type { CheckItem } from '../store/checklist.js';
import type { FleetState } from '../store/fleet-store.js';
import { clock, nodeCounts, reachabilityLine } from '../store/selectors.js';
import type { ContextInfo, ContextState, NodeCounts } from '../store/types.js';

/** The JSON shape of `fleetdeck status -o json` (documented in the README). */
export interface StatusJson {
  contexts: ContextJson[];
}

export interface ContextJson {
  name: string;
  cluster: string;
  server: string;
  reachable: boolean;
  version: string | null;
  latencyMs: number | null;
  error: string | null;
  lastSuccessAt: string | null;
  unreachableSince: string | null;
  evictionVersion: string | null;
  nodes: (NodeCounts & { forbidden: string | null }) | null;
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export function contextJson(c: ContextState): ContextJson {
  return {
    name: c.name,
    cluster: c.cluster,
    server: c.server,
    reachable: c.reachability === 'reachable',
    version: c.version ?? null,
    latencyMs: c.latencyMs ?? null,
    error: c.lastError ?? null,
    lastSuccessAt: iso(c.lastSuccessAt),
    unreachableSince: iso(c.unreachableSince),
    evictionVersion: c.evictionVersion ?? null,
    nodes: c.nodes.synced || c.nodes.forbidden ? { ...nodeCounts(c), forbidden: c.nodes.forbidden ?? null } : null,
  };
}

export function statusJson(state: FleetState): StatusJson {
  return { contexts: state.order.flatMap((n) => (state.contexts[n] ? [contextJson(state.contexts[n])] : [])) };
}

/** One checklist item per context, with its nodes as a child when something needs attention. */
export function contextCheck(c: ContextState): CheckItem {
  if (c.reachability !== 'reachable') {
    return {
      id: c.name,
      label: `Context ${c.name} (${c.server})`,
      state: c.reachability === 'unknown' ? 'pending' : 'fail',
      detail: reachabilityLine(c),
      hint:
        c.reachability === 'unreachable'
          ? `check that the API server is up and reachable from here: kubectl --context ${c.name} get --raw /readyz`
          : undefined,
    };
  }
  const counts = nodeCounts(c);
  const parts = [c.version ?? 'version unknown', `${c.latencyMs ?? '?'} ms`];
  let state: CheckItem['state'] = 'ok';
  let hint: string | undefined;
  if (c.nodes.forbidden) {
    parts.push('nodes forbidden');
    state = 'warn';
    hint = c.nodes.forbidden;
  } else if (!c.nodes.synced) {
    parts.push('nodes loading');
  } else {
    parts.push(`${counts.ready}/${counts.total} nodes Ready${counts.cordoned ? `, ${counts.cordoned} cordoned` : ''}`);
    if (counts.total === 0) {
      state = 'warn';
      hint = 'the cluster has no nodes: nothing can be scheduled on it';
    } else if (counts.notReady.length > 0) {
      state = 'warn';
      hint = `NotReady: ${counts.notReady.map((n) => `${n.name} (${n.reason})`).join(', ')}`;
    }
  }
  return { id: c.name, label: `Context ${c.name}`, state, detail: `reachable, ${parts.join(', ')}`, hint };
}

export function statusChecks(state: FleetState): CheckItem[] {
  const items = state.order.flatMap((n) => (state.contexts[n] ? [contextCheck(state.contexts[n])] : []));
  const reachable = items.filter((i) => i.state === 'ok' || i.state === 'warn').length;
  return [
    { id: 'title', label: 'Checking contexts', state: 'info' },
    ...items,
    {
      id: 'summary',
      label: `${reachable} of ${items.length} contexts reachable at ${clock(Date.now())}`,
      state: reachable === items.length ? 'ok' : 'fail',
    },
  ];
}

function settled(c: ContextState): boolean {
  if (c.reachability === 'unknown') return false;
  if (c.reachability === 'unreachable') return true;
  return c.nodes.synced || c.nodes.forbidden !== undefined;
}

/**
 * Watches every context until each has answered (or failed), then returns one snapshot.
 * The same monitors the dashboard uses; `timeoutMs` bounds the whole wait.
 */
export async function collectStatus(kc: KubeConfig, contexts: ContextInfo[], timeoutMs = 15_000): Promise<FleetState> {
  const fleet = watchFleet(kc, contexts, { probeTimeoutMs: Math.min(5000, timeoutMs), batchIntervalMs: 20 });
  try {
    await new Promise<void>((resolve) => {
      const deadline = setTimeout(done, timeoutMs);
      const unsubscribe = fleet.store.subscribe(check);
      function check() {
        const s = fleet.store.getState();
        if (s.order.every((n) => s.contexts[n] && settled(s.contexts[n]))) done();
      }
      function done() {
        clearTimeout(deadline);
        unsubscribe();
        resolve();
      }
      check();
    });
    fleet.flush();
    return fleet.store.getState();
  } finally {
    await fleet.stop();
  }
}
