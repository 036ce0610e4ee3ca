/**
 * Figure 4's measurement, in its own process (scale-child.ts, started by scale.ts, so that its
 * RSS is the dashboard's alone): the dashboard on one context, rendered in-process to a virtual
 * terminal, exactly as `fleetdeck` starts it. Prints one JSON line with the timings and memory.
 */
import { benchDashboard } from './dashboard.js';
import { subscribe } from 'node:diagnostics_channel';
import v8 from 'node:v8';
import vm from 'node:vm';
import { loadScreens } from '../commands/dashboard.js';
import { startStatusFeed } from '../feeds/status-feed.js';
import { loadKubeconfig, selectContexts } from '../kube/config/kubeconfig.js';
import { createFleetStore, type FleetStore } from '../store/fleet-store.js';
import { IdleStdin, tableCell, VirtualTerminal } from './vterm.js';
import { arg, printResult, stopWithin } from './measuring.js';

export interface ScaleResult {
  /** ms since process start: modules loaded, the dashboard starting. */
  startMs: number;
  /** ms since process start: the last initial node/pod list response received. */
  listsReceivedMs: number;
  /** ms since process start: the store holds both lists. */
  storeMs: number;
  /** ms since process start: the first frame showing every node and pod. */
  frameMs: number;
  nodes: number;
  pods: number;
  /** Whether the contexts table has a PODS column (else only nodes were checked on screen). */
  podsOnScreen: boolean;
  nodesCell?: string;
  podsCell?: string;
  listRequests: number;
  rssAfterFrame: number;
  heapAfterFrame: number;
  maxRss: number;
  rssAfter5s: number;
  /** RSS when the modules were loaded, before any request. */
  rssAtStart: number;
  /** V8 heap committed, and memory outside it (buffers, native), after the first frame. */
  heapTotalAfterFrame: number;
  externalAfterFrame: number;
  /** After a full garbage collection, 5 s after the first frame: what is really held. */
  heapUsedAfterGc: number;
  rssAfterGc: number;
  /** V8 heap spaces after the first frame: committed and used bytes of each. */
  spacesAfterFrame: { name: string; size: number; used: number }[];
  error?: string;
}

const digits = (n: number) => new RegExp(`(^|[^0-9])${n}([^0-9]|$)`);

function gcFunction(): () => void {
  if (global.gc) return global.gc;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

/** The initial node and pod lists as the HTTP client sees them: how many, and when the last was read. */
function listTimes(): { requests: number; lastDone: number } {
  const seen = { requests: 0, lastDone: 0 };
  subscribe('undici:request:trailers', (msg) => {
    const req = (msg as { request?: { path?: string; method?: string } }).request;
    const p = req?.path ?? '';
    if (req?.method === 'GET' && /^\/api\/v1\/(nodes|pods)(\?|$)/.test(p) && !/[?&]watch=(true|1)/.test(p)) {
      seen.requests++;
      seen.lastDone = performance.now();
    }
  });
  return seen;
}

/** Waits (5 minutes at most) until the store holds the context's node and pod lists: when, and how many of each. */
function listsInStore(
  store: FleetStore,
  context: string,
  lists: { lastDone: number },
): Promise<Pick<ScaleResult, 'storeMs' | 'listsReceivedMs' | 'nodes' | 'pods'>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the lists did not reach the store within 5 minutes')), 300_000);
    const check = () => {
      const c = store.getState().status.contexts[context];
      if (!c?.nodes.synced || !c.pods.synced) return;
      const seen = {
        storeMs: performance.now(),
        listsReceivedMs: lists.lastDone,
        nodes: Object.keys(c.nodes.items).length,
        pods: c.pods.total,
      };
      clearTimeout(timer);
      unsubscribe();
      resolve(seen);
    };
    const unsubscribe = store.subscribe(check);
    check();
  });
}

async function main(): Promise<ScaleResult> {
  const startMs = performance.now();
  const rssAtStart = process.memoryUsage().rss;
  const kubeconfig = arg('--kubeconfig');
  const context = arg('--context');

  const lists = listTimes();
  const { config } = loadKubeconfig({ kubeconfig });
  const contexts = selectContexts(config, [context]);
  const vt = new VirtualTerminal(160, 40);
  const store = createFleetStore(contexts);
  const fleet = startStatusFeed(config, contexts, { store });
  // The screens load as the dashboard loads them: after the first requests are on the wire.
  const { renderApp } = await loadScreens();
  const app = benchDashboard(renderApp, { store, stdout: vt, stdin: new IdleStdin(), kubeconfigFiles: [kubeconfig] });

  const { storeMs, listsReceivedMs, nodes, pods } = await listsInStore(store, context, lists);

  const hasPods = () => tableCell(vt.screen(), 'PODS', context) !== undefined;
  const shows = () => {
    const screen = vt.screen();
    const n = tableCell(screen, 'NODES', context);
    const p = tableCell(screen, 'PODS', context);
    return n !== undefined && digits(nodes).test(n) && (p === undefined || digits(pods).test(p));
  };
  const frameAt = await vt.waitForScreen(shows, 60_000);
  if (frameAt === undefined) throw new Error(`no frame showed ${nodes} nodes and ${pods} pods within 60 s of the store having them`);
  const mem = process.memoryUsage();
  const screen = vt.screen();
  const result: ScaleResult = {
    startMs,
    listsReceivedMs,
    storeMs,
    frameMs: frameAt,
    nodes,
    pods,
    podsOnScreen: hasPods(),
    listRequests: lists.requests,
    rssAfterFrame: mem.rss,
    heapAfterFrame: mem.heapUsed,
    maxRss: 0,
    rssAfter5s: 0,
    rssAtStart,
    heapTotalAfterFrame: mem.heapTotal,
    externalAfterFrame: mem.external,
    heapUsedAfterGc: 0,
    rssAfterGc: 0,
    spacesAfterFrame: v8.getHeapSpaceStatistics().map((sp) => ({ name: sp.space_name, size: sp.space_size, used: sp.space_used_size })),
  };
  const nodesCell = tableCell(screen, 'NODES', context);
  const podsCell = tableCell(screen, 'PODS', context);
  if (nodesCell !== undefined) result.nodesCell = nodesCell;
  if (podsCell !== undefined) result.podsCell = podsCell;
  await new Promise((r) => setTimeout(r, 5000));
  result.rssAfter5s = process.memoryUsage().rss;
  result.maxRss = process.resourceUsage().maxRSS * 1024;
  gcFunction()();
  const afterGc = process.memoryUsage();
  result.heapUsedAfterGc = afterGc.heapUsed;
  result.rssAfterGc = afterGc.rss;
  app.unmount();
  await stopWithin(fleet.stop());
  return result;
}

printResult(main);
