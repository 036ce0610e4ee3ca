/**
 * The Workloads figure's measurement, in its own process (placement-child.ts) so that its RSS is
 * the dashboard's alone: the dashboard as `fleetdeck` starts it on the bench fleet (every feed of
 * the registry, the fleet file's contexts), drawn to a virtual terminal, with 5 pressed at once —
 * the Workloads tab asked for at start. The first full frame is the first one whose header counts
 * every object, read, and whose table shows rows. Prints one JSON line.
 */
import { feedsOf, registry } from '../dashboard/registry.js';
import { createFeeds } from '../feeds/feeds.js';
import { loadScreens, WORKLOADS_READ } from '../commands/dashboard.js';
import { openSession } from '../session/session.js';
import { createFleetStore, type FleetStore } from '../store/fleet-store.js';
import { visibleWorkloads } from '../store/workloads.js';
import { benchDashboard } from './dashboard.js';
import { KeyStdin, VirtualTerminal } from './vterm.js';
import { arg, printResult, stopWithin } from './measuring.js';

export interface PlacementResult {
  /** ms since process start: the first frame with every object read and rows shown. */
  frameMs: number;
  /** ms since process start: the read landed in the store. */
  storeMs: number;
  rows: number;
  /** The tab's header line in that frame. */
  header: string;
  rssAfterFrame: number;
  heapAfterFrame: number;
  /** 5 s later (the status feed and the next read settled). */
  rssAfter5s: number;
  /** G and g pressed in turn: each key to the frame showing the list's last (first) row. */
  scrollMs: number[];
  error?: string;
}

/** Presses G and g in turn: for each, the time until a frame shows the last (first) row of the list as sorted. */
async function scrolling(vt: VirtualTerminal, stdin: KeyStdin, store: FleetStore, times: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const rows = visibleWorkloads(store.getState().workloads.rows, '', 'state');
    const end = i % 2 === 0 ? rows.at(-1) : rows[0];
    if (!end) break;
    const name = `/${end.name}`;
    const shows = (screen: string[]) => screen.some((l) => l.includes(`${name} `) || l.endsWith(name));
    const t0 = performance.now();
    stdin.press(i % 2 === 0 ? 'G' : 'g');
    const at = await vt.waitForScreen(shows, 10_000);
    if (at === undefined) throw new Error(`no frame showed ${end.kind} ${end.name} within 10 s of ${i % 2 === 0 ? 'G' : 'g'}`);
    out.push(at - t0);
  }
  return out;
}

async function main(): Promise<PlacementResult> {
  const kubeconfig = arg('--kubeconfig');
  const objects = Number(arg('--objects'));
  const session = openSession({ kubeconfig }, { useFleetFile: true });
  const store = createFleetStore(session.contexts, session.fleet);
  const tabs = registry({ workloads: WORKLOADS_READ });
  const feeds = createFeeds(store, session, feedsOf(tabs));
  const { renderApp } = await loadScreens();
  const vt = new VirtualTerminal(160, 40);
  const stdin = new KeyStdin();
  const app = benchDashboard(renderApp, { store, stdout: vt, stdin, kubeconfigFiles: session.files, tabs, actions: feeds.actions });
  stdin.press('5');
  let storeMs = 0;
  const unsubscribe = store.subscribe((s) => {
    if (!storeMs && s.workloads.rows.length >= objects) storeMs = performance.now();
  });
  const header = (screen: string[]) => screen.find((l) => l.includes(`${objects} objects`) && /read \d\d:/.test(l));
  const frameMs = await vt.waitForScreen((screen) => header(screen) !== undefined && screen.some((l) => /\/obj-\d+/.test(l)), 180_000);
  unsubscribe();
  if (frameMs === undefined) throw new Error(`no frame showed ${objects} objects read within 180 s`);
  const mem = process.memoryUsage();
  const result: PlacementResult = {
    frameMs,
    storeMs,
    rows: store.getState().workloads.rows.length,
    header: header(vt.screen())!.trim(),
    rssAfterFrame: mem.rss,
    heapAfterFrame: mem.heapUsed,
    rssAfter5s: 0,
    scrollMs: [],
  };
  await new Promise((r) => setTimeout(r, 5000));
  result.rssAfter5s = process.memoryUsage().rss;
  result.scrollMs = await scrolling(vt, stdin, store, 10);
  app.unmount();
  await stopWithin(feeds.stop());
  return result;
}

printResult(main);
