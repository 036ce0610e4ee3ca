/**
 * Figure 2: LIST requests the API servers receive while nothing changes, read from their own
 * counters (`apiserver_request_total{verb="LIST"}`): first a window without fleetdeck (the
 * controllers' and the sandbox simulators' own traffic), then the same window with
 * `watchFleet` running on every context after its initial sync.
 *
 * The controllers list on timers (the 1.20 CronJob controller lists CronJobs and Jobs every
 * 10 s), so the two windows can differ by a tick on resources fleetdeck never touches. The
 * share attributable to fleetdeck is the server-side difference on the resources fleetdeck's
 * own HTTP client lists (seen through undici's diagnostics channel), and that client's count.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { KubeConfig } from '@kubernetes/client-node';
import { startStatusFeed, type StatusWatch } from '../feeds/status-feed.js';
import { configForContext } from '../kube/config/kubeconfig.js';
import type { FleetState } from '../store/fleet-store.js';
import { statusRow } from '../store/selectors.js';
import type { ContextInfo } from '../kube/config/kubeconfig.js';
import { addInto, describeCounts, difference, fetchMetrics, listedResource, listRequestsByResource, sum } from './metrics.js';
import { figure, note, progress, sleep, waitFor } from './util.js';

async function listCounts(kcs: readonly KubeConfig[]): Promise<Map<string, number>[]> {
  return Promise.all(kcs.map(async (kc) => listRequestsByResource(await fetchMetrics(kc))));
}

/** LIST requests per resource during `windowMs` (summed over the clusters), and how long the window really was. */
async function countWindow(kcs: readonly KubeConfig[], windowMs: number): Promise<{ counts: Map<string, number>; ms: number }> {
  const before = await listCounts(kcs);
  const t0 = performance.now();
  await sleep(windowMs);
  const after = await listCounts(kcs);
  const ms = performance.now() - t0;
  const counts = new Map<string, number>();
  for (const [i, a] of after.entries()) addInto(counts, difference(a, before[i]!));
  return { counts, ms };
}

function synced(s: FleetState, name: string, slice: 'nodes' | 'pods' | 'events'): boolean {
  const c = s.status.contexts[name];
  if (!c) return false;
  if (slice === 'nodes') return c.nodes.synced || c.nodes.forbidden !== undefined;
  const sl = c[slice] as { synced?: boolean; forbidden?: string } | undefined;
  return !!sl && (sl.synced === true || sl.forbidden !== undefined);
}

/** What the contexts table shows of every context (status row, pod and warning counts). */
function tableSignature(s: FleetState): string {
  return s.status.order
    .map((n) => {
      const c = s.status.contexts[n];
      if (!c) return '';
      return [...Object.values(statusRow(c)), c.pods.total, c.pods.problemCount, c.events.warnings.length].join('|');
    })
    .join('\n');
}

/** LIST requests this process sends, by resource, from now until `stop()`. */
function clientLists(): { counts: Map<string, number>; stop: () => void } {
  const counts = new Map<string, number>();
  const onCreate = (msg: unknown) => {
    const req = (msg as { request?: { method?: string; path?: string } }).request;
    const key = listedResource(req?.method ?? '', req?.path ?? '');
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  subscribe('undici:request:create', onCreate);
  return { counts, stop: () => unsubscribe('undici:request:create', onCreate) };
}

/**
 * Waits until every context is reachable with its nodes listed (or throws), then for its pods
 * and events; returns the slices not listed on every context within 60 s.
 */
async function initialSync(fleet: StatusWatch, names: readonly string[]): Promise<string[]> {
  const unsynced: string[] = [];
  await waitFor('every context reachable with its nodes listed', () => names.every((n) => synced(fleet.store.getState(), n, 'nodes')), {
    timeoutMs: 120_000,
  });
  for (const slice of ['pods', 'events'] as const) {
    try {
      await waitFor(`${slice} listed on every context`, () => names.every((n) => synced(fleet.store.getState(), n, slice)), {
        timeoutMs: 60_000,
      });
    } catch {
      unsynced.push(slice);
    }
  }
  return unsynced;
}

/**
 * Runs the figure and returns the fleet watcher, still running (the next figure renders the
 * dashboard on its store). The caller stops it.
 */
export async function idleFigure(config: KubeConfig, contexts: ContextInfo[], windowMs = 60_000): Promise<StatusWatch> {
  const kcs = contexts.map((c) => configForContext(config, c.name));
  const secs = Math.round(windowMs / 1000);
  progress(`figure 2: counting LIST requests for ${secs} s without fleetdeck (baseline)`);
  const baseline = await countWindow(kcs, windowMs);

  progress('figure 2: starting watchFleet on every context and waiting for its initial sync');
  const startupClient = clientLists();
  const t0 = performance.now();
  const fleet = startStatusFeed(config, contexts);
  const names = contexts.map((c) => c.name);
  let unsynced: string[];
  try {
    unsynced = await initialSync(fleet, names);
  } catch (err) {
    startupClient.stop();
    await fleet.stop();
    throw err;
  }
  const syncMs = performance.now() - t0;
  // Let the last summaries and probes land before the window opens.
  await sleep(3_000);
  startupClient.stop();

  progress(`figure 2: counting LIST requests for ${secs} s with fleetdeck watching`);
  const idleClient = clientLists();
  let storeUpdates = 0;
  let unchanged = 0;
  let lastSig = tableSignature(fleet.store.getState());
  const unsubscribeStore = fleet.store.subscribe((state) => {
    storeUpdates++;
    const sig = tableSignature(state);
    if (sig === lastSig) unchanged++;
    lastSig = sig;
  });
  const withFleet = await countWindow(kcs, windowMs);
  unsubscribeStore();
  idleClient.stop();

  const b = sum(baseline.counts);
  const w = sum(withFleet.counts);
  const delta = difference(withFleet.counts, baseline.counts);
  const fleetdeckResources = new Set([...startupClient.counts.keys(), ...idleClient.counts.keys()]);
  let attributable = 0;
  const ours = new Map<string, number>();
  const others = new Map<string, number>();
  for (const [k, v] of delta) {
    if (fleetdeckResources.has(k)) {
      attributable += v;
      ours.set(k, v);
    } else others.set(k, v);
  }
  const sent = sum(idleClient.counts);
  figure(
    `live mode idle, ${contexts.length} contexts, ${secs} s with nothing changing: LIST requests received by the API servers`,
    `${w} with fleetdeck watching, ${b} without (controllers, simulators); difference ${w - b}, attributable to fleetdeck ${attributable} (its client sent ${sent})`,
    '0 attributable',
    attributable <= 0 && sent === 0,
  );
  note(`without fleetdeck (${(baseline.ms / 1000).toFixed(1)} s), by resource: ${describeCounts(baseline.counts)}`);
  note(`with fleetdeck (${(withFleet.ms / 1000).toFixed(1)} s), by resource: ${describeCounts(withFleet.counts)}`);
  note(`resources fleetdeck lists: ${[...fleetdeckResources].sort().join(', ') || 'none seen'}; their difference: ${describeCounts(ours)}`);
  if (others.size) note(`difference on resources fleetdeck never lists (controller timers): ${describeCounts(others)}`);
  if (sent) note(`LIST requests fleetdeck sent while idle: ${describeCounts(idleClient.counts)}`);
  note(
    `store updates (each one a render of the dashboard) during the idle window: ${storeUpdates} (${(storeUpdates / (withFleet.ms / 1000)).toFixed(1)}/s), ${unchanged} of them changing nothing the contexts table shows (the simulated kubelets renew every Node's status every 10 s; the probes measure latency every 5 s)`,
  );
  note(
    `initial sync took ${(syncMs / 1000).toFixed(1)} s with ${sum(startupClient.counts)} LIST requests (${describeCounts(startupClient.counts)})`,
  );
  if (unsynced.length) note(`never synced within 60 s: ${unsynced.join(', ')} (not watched by this build?)`);
  return fleet;
}
