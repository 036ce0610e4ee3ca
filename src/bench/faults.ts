/**
 * The fault figure (`npm run bench -- --only faults`): on a sandbox of its own (the hosting
 * cluster and one workload cluster, 2 simulated nodes each), the workload context's API server
 * stopped and started N times (FLEETDECK_BENCH_FAULT_CYCLES, default 10), then its etcd stopped
 * and started once, while the dashboard's store (the status feed, in this process) and `fleetdeck
 * status --watch -o json` (the built CLI, a child) watch. Figures, each beside its goal: the
 * longest time from a stop to the context marked unreachable, and from a start to it reachable
 * with a cordon made after the start, in the store and on status --watch (≤ 5 s each); this
 * process's heap after a full GC and status --watch's RSS after the last cycle against after the
 * first (at most max(16 MiB, 25 %) more); with etcd stopped, the time to show the context not
 * ready (etcd failed) and to recover (no goal set); crashes of status --watch (0). The fault suite
 * (test/faults/) runs the same drills and asserts what needs no clock.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { startStatusFeed, type StatusWatch } from '../feeds/status-feed.js';
import { configForContext, contextInfos, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { describeError, makeClient } from '../kube/transport/client.js';
import type { ContextState } from '../store/types.js';
import { type RunningCli, spawnCli, stopCli } from './running-cli.js';
import { type BenchSandbox, CLI, childEnv, sandboxDrill, startSandbox, stopSandbox } from './sandbox.js';
import { figure, note, progress, waitFor } from './util.js';

/** Goals: each stop marked unreachable, each start recovered, within this (store and status --watch alike). */
export const FAULT_MARK_GOAL_MS = 5_000;
export const FAULT_RECOVER_GOAL_MS = 5_000;
/** Memory after the last cycle may exceed its level after the first by at most this much, or this share of it. */
export const FAULT_GROWTH = { bytes: 16 * 2 ** 20, share: 0.25 };
export const allowedGrowth = (first: number) => first + Math.max(FAULT_GROWTH.bytes, first * FAULT_GROWTH.share);

const CONTEXT = 'kind-workload-1';
const NODE = 'workload-1-node-2';
/** A slow mark or recovery is measured (and misses its goal); only a state not reached within this stops the figure. */
const WAIT = { timeoutMs: 60_000, intervalMs: 20 };

interface Drill {
  sb: BenchSandbox;
  state: () => ContextState;
  watch: RunningCli;
  /** Cordons NODE (true) or uncordons it; rejects when the API server does not take it. */
  cordon: (on: boolean) => Promise<unknown>;
}

/** Milliseconds until the store, and until status --watch, showed it. */
interface Pair {
  store: number;
  watch: number;
}

type WatchLine = { id: string; state: string; detail?: string | null };

/** A `status --watch -o json` line about CONTEXT passing `test`. */
function contextLine(text: string, test: (l: WatchLine, detail: string) => boolean): boolean {
  try {
    const l = JSON.parse(text) as WatchLine;
    return l.id === CONTEXT && test(l, l.detail ?? '');
  } catch {
    return false;
  }
}

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const pair = (p: Pair) => `${secs(p.store)} / ${secs(p.watch)}`;
const maxOf = (ps: readonly Pair[]): Pair => ({ store: Math.max(...ps.map((p) => p.store)), watch: Math.max(...ps.map((p) => p.watch)) });
const within = (p: Pair, goalMs: number) => p.store <= goalMs && p.watch <= goalMs;

/** This process's heap in use after a full garbage collection (the bench runs with --expose-gc). */
function heapAfterGc(): number {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage().heapUsed;
}

/** The first status --watch line from index `from` on passing `test`; throws when status --watch has ended. */
function watchLine(d: Drill, from: number, test: (l: WatchLine, detail: string) => boolean) {
  if (!d.watch.alive()) throw new Error(`status --watch ended: ${d.watch.stderr().trim().split('\n')[0] ?? ''}`);
  return d.watch.findFrom(from, (t) => contextLine(t, test));
}

/** One stop and start of the API server: how long until each watcher marked it, and until each recovered. */
async function apiServerCycle(d: Drill, n: number): Promise<{ mark: Pair; recover: Pair }> {
  // status --watch may print the outage while the server shuts down: its lines are read from before the stop.
  const beforeStop = d.watch.lines.length;
  await sandboxDrill(d.sb, 'stop', 'apiserver', CONTEXT);
  const stopped = Date.now();
  await waitFor(`cycle ${n}: the store marks ${CONTEXT} unreachable`, () => d.state().reachability === 'unreachable', WAIT);
  const storeMarked = Date.now();
  const down = await waitFor(
    `cycle ${n}: status --watch prints ${CONTEXT} unreachable`,
    () => watchLine(d, beforeStop, (l, detail) => l.state === 'fail' && /unreachable since/.test(detail)),
    WAIT,
  );
  // Marked while the server was still shutting down counts as 0.
  const mark = { store: Math.max(0, storeMarked - stopped), watch: Math.max(0, down.at - stopped) };

  await sandboxDrill(d.sb, 'start', 'apiserver', CONTEXT);
  const started = Date.now();
  const afterStart = d.watch.lines.length;
  const cordoned = n % 2 === 1;
  await d.cordon(cordoned);
  await waitFor(
    `cycle ${n}: the store has ${CONTEXT} reachable with the cordon made after the start`,
    () => d.state().reachability === 'reachable' && d.state().nodes.items[NODE]?.unschedulable === cordoned,
    WAIT,
  );
  const storeBack = Date.now();
  const back = await waitFor(
    `cycle ${n}: status --watch prints ${CONTEXT} reachable with the cordon`,
    () => watchLine(d, afterStart, (_, detail) => /^reachable,/.test(detail) && /1 cordoned/.test(detail) === cordoned),
    WAIT,
  );
  return { mark, recover: { store: storeBack - started, watch: back.at - started } };
}

/** The API server stopped and started `cycles` times: the longest times to mark and to recover, memory after the first and the last cycle. */
async function apiServerCycles(d: Drill, cycles: number): Promise<void> {
  const marks: Pair[] = [];
  const recoveries: Pair[] = [];
  let first = { heap: 0, rss: 0 };
  for (let n = 1; n <= cycles; n++) {
    const { mark, recover } = await apiServerCycle(d, n);
    marks.push(mark);
    recoveries.push(recover);
    if (n === 1) first = { heap: heapAfterGc(), rss: d.watch.rss() };
    progress(`faults: cycle ${n}/${cycles}: marked after ${pair(mark)}, recovered after ${pair(recover)}`);
  }
  await d.cordon(false);
  const last = { heap: heapAfterGc(), rss: d.watch.rss() };
  const mark = maxOf(marks);
  const recover = maxOf(recoveries);
  const label = `faults: API server stopped and started ${cycles} times`;
  figure(
    `${label}: max time to mark unreachable (store / status --watch)`,
    pair(mark),
    `≤ ${secs(FAULT_MARK_GOAL_MS)} each`,
    within(mark, FAULT_MARK_GOAL_MS),
  );
  figure(
    `${label}: max time to recover (store / status --watch)`,
    pair(recover),
    `≤ ${secs(FAULT_RECOVER_GOAL_MS)} each`,
    within(recover, FAULT_RECOVER_GOAL_MS),
  );
  note(`per cycle, mark: ${marks.map(pair).join(', ')}`);
  note(`per cycle, recover: ${recoveries.map(pair).join(', ')}`);
  const growth = `cycle 1 + max(${mib(FAULT_GROWTH.bytes)}, ${FAULT_GROWTH.share * 100} %)`;
  for (const [what, before, after] of [
    ['heap after GC (bench process: store and status feed)', first.heap, last.heap],
    ['status --watch RSS', first.rss, last.rss],
  ] as const) {
    const allowed = allowedGrowth(before);
    figure(
      `${label}: ${what} after cycle 1 / ${cycles}`,
      `${mib(before)} / ${mib(after)}`,
      `≤ ${mib(allowed)}, ${growth}`,
      after <= allowed,
    );
  }
}

/** etcd stopped, then started: how long until each watcher showed the context not ready (etcd failed), and until each recovered. */
async function etcdOutage(d: Drill, core: CoreV1Api): Promise<void> {
  const beforeStop = d.watch.lines.length;
  await sandboxDrill(d.sb, 'stop', 'etcd', CONTEXT);
  const stopped = Date.now();
  try {
    // The API server itself still answers, with an error or not in time.
    const answered = core.listNamespace().then(
      () => 'answered',
      (err: unknown) => describeError(err),
    );
    await waitFor('etcd stopped: the store says not ready (etcd failed)', () => d.state().notReady === 'etcd failed', WAIT);
    const storeShown = Date.now();
    const shown = await waitFor(
      'etcd stopped: status --watch prints it not ready (etcd failed)',
      () => watchLine(d, beforeStop, (l, detail) => l.state === 'fail' && /not ready since .*\(etcd failed\)/.test(detail)),
      WAIT,
    );
    figure(
      `faults: etcd stopped: not ready (etcd failed) shown after (store / status --watch)`,
      pair({ store: storeShown - stopped, watch: shown.at - stopped }),
      'none set',
      undefined,
    );
    note(`a list meanwhile: ${await answered}`);
  } finally {
    await sandboxDrill(d.sb, 'start', 'etcd', CONTEXT);
  }
  const started = Date.now();
  const afterStart = d.watch.lines.length;
  // Right after etcd comes back the API server may still time out a write: retried until it takes it.
  const takes = (on: boolean) => () =>
    d.cordon(on).then(
      () => true,
      () => false,
    );
  await waitFor('etcd started: the API server takes a cordon again', takes(true), { timeoutMs: 60_000, intervalMs: 500 });
  await waitFor(
    'etcd started: the store has it ready with the cordon',
    () => d.state().notReady === undefined && d.state().nodes.items[NODE]?.unschedulable === true,
    WAIT,
  );
  const storeBack = Date.now();
  const back = await waitFor(
    'etcd started: status --watch prints it reachable with the cordon',
    () => watchLine(d, afterStart, (_, detail) => /^reachable,.*1 cordoned/.test(detail)),
    WAIT,
  );
  figure(
    'faults: etcd started again: recovered, with a cordon made after the start, after (store / status --watch)',
    pair({ store: storeBack - started, watch: back.at - started }),
    'none set',
    undefined,
  );
  await waitFor('the API server takes the uncordon', takes(false), { timeoutMs: 60_000, intervalMs: 500 });
}

export async function faultsFigure(cycles: number): Promise<void> {
  const sb = await startSandbox('faults', 1, 2, true);
  let feed: StatusWatch | undefined;
  let watch: RunningCli | undefined;
  try {
    const { config } = loadKubeconfig({ kubeconfig: sb.kubeconfig });
    const status = startStatusFeed(config, contextInfos(config));
    feed = status;
    watch = spawnCli(CLI, ['status', '--watch', '-o', 'json', '--kubeconfig', sb.kubeconfig], childEnv());
    const core = makeClient(configForContext(config, CONTEXT), CoreV1Api, 10_000);
    const d: Drill = {
      sb,
      watch,
      state: () => status.store.getState().status.contexts[CONTEXT]!,
      cordon: (on) =>
        core.patchNode(
          { name: NODE, body: { spec: { unschedulable: on ? true : null } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
    };
    await waitFor('the store has the nodes', () => d.state().reachability === 'reachable' && d.state().nodes.synced, WAIT);
    await waitFor('status --watch reports the context', () => watchLine(d, 0, (l) => l.state === 'ok'), WAIT);
    progress(`faults: the API server of ${CONTEXT} stopped and started ${cycles} times, then its etcd`);
    await apiServerCycles(d, cycles);
    await etcdOutage(d, core);
  } finally {
    if (watch) {
      const crashes = watch.alive() ? 0 : 1;
      figure('faults: crashes (status --watch ended)', String(crashes), '0', crashes === 0);
      const stderr = watch.stderr().trim();
      if (stderr) note(`status --watch wrote to stderr: ${stderr.split('\n')[0]}`);
    }
    await feed?.stop().catch(() => {});
    if (watch) await stopCli(watch);
    await stopSandbox(sb);
  }
}
