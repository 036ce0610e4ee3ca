/**
 * The Status figures on real API servers (`npm run bench -- --clusters`, or
 * FLEETDECK_BENCH_CLUSTERS=1): starts its own sandboxes, fills them, prints figures 1–4 and
 * always stops the sandboxes again (also after an error or Ctrl-C). Figure 5 runs on the fleet
 * sandbox before it stops, so it prints before figure 4.
 *
 *  0. drain: `fleetdeck rollout create --node N --replace uncordon --yes` against `kubectl drain N && kubectl uncordon N`;
 *  1. one-shot `fleetdeck status -o json` against the raw floor (curl) and kubectl, 3 contexts × (100 nodes, 2,000 pods),
 *     and on 30 contexts (each API server reached through 10 context names);
 *  2. LIST requests while idle with `watchFleet` running, against a baseline without it;
 *  3. pod status change → first dashboard frame showing it, 100 times;
 *  4. 5,000 nodes / 50,000 pods on one context: process start → first full frame, RSS (fresh process);
 *  5. `fleetdeck logs -f` of a pod writing 1,000 lines/s: lines a second, lines lost, CPU, RSS, exit on SIGINT;
 *  workloads: the Workloads tab on 5,000 control-plane objects over 3 workload clusters: first full frame, RSS;
 *  fleet: the dashboard on N contexts (default 30) over the 3 clusters of figure 1: first full frame,
 *  idle CPU and RSS (fleet.ts), right after figure 1;
 *  faults: on a sandbox of its own, an API server stopped and started 10 times, then its etcd, under the
 *  status feed and `status --watch`: times to mark unreachable and to recover, memory growth, crashes (faults.ts).
 *
 * `--only drain,oneshot,scale` (or FLEETDECK_BENCH_ONLY) runs only those figures (names in
 * FIGURES) and prepares only what they need.
 */
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { startStatusFeed, type StatusWatch } from '../feeds/status-feed.js';
import { configForContext, contextInfos, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { changeFigure } from './change.js';
import { idleFigure } from './idle.js';
import { logsFollowFigure } from './logs-follow.js';
import { drainFigure } from './drain.js';
import { faultsFigure } from './faults.js';
import { fleetFigure } from './fleet.js';
import { fleetKubeconfig } from './fleet-kubeconfig.js';
import { oneShotFigure } from './oneshot.js';
import { BENCH_NAMESPACE, core, createPods, ensureNamespace, sandboxNodeNames, waitPodsRunning } from './populate.js';
import { startSandbox, stopAllSandboxes, stopSandbox } from './sandbox.js';
import { prepareScale, scaleFigure, type ScaleCluster } from './scale.js';
import { placementFigure, WORKLOADS_OBJECTS } from './placement.js';
import { preparePlacement } from './placement-fill.js';
import { errorLine, figure, progress } from './util.js';

export interface ClusterBenchOptions {
  workloads: number;
  nodesPerCluster: number;
  podsPerCluster: number;
  rounds: number;
  idleWindowMs: number;
  changes: number;
  scaleNodes: number;
  scalePods: number;
  /** How long figure 5 follows the pod. */
  followSeconds: number;
  /** Contexts of the fleet one-shot figure (several per sandbox API server). */
  fleetContexts: number;
  /** The fleet figure's idle window (FLEETDECK_BENCH_FLEET_IDLE_SECONDS). */
  fleetIdleMs: number;
  /** Control-plane objects of the Workloads figure. */
  workloadObjects: number;
  /** API server stop/start cycles of the fault figure (FLEETDECK_BENCH_FAULT_CYCLES). */
  faultCycles: number;
  /** Only these figures (all when undefined). */
  only?: ReadonlySet<Figure>;
}

/** The figures by name, for `--only`. */
export const FIGURES = ['drain', 'oneshot', 'fleet', 'idle', 'change', 'scale', 'logs', 'workloads', 'faults'] as const;
export type Figure = (typeof FIGURES)[number];

/** Goals of the one-shot: fleetdeck's time at most this many times the raw floor's. */
export const ONESHOT_TARGET = 2.5;
export const FLEET_ONESHOT_TARGET = 2;

/** `--only a,b` or `--only=a,b` on the command line, else FLEETDECK_BENCH_ONLY; undefined: every figure. */
export function onlyFigures(argv: readonly string[] = process.argv, env = process.env): ReadonlySet<Figure> | undefined {
  const i = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  const value = i < 0 ? env.FLEETDECK_BENCH_ONLY : argv[i]!.startsWith('--only=') ? argv[i]!.slice('--only='.length) : argv[i + 1];
  if (!value) return undefined;
  const names = value
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(FIGURES as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`--only: unknown figure ${unknown.join(', ')} (figures: ${FIGURES.join(', ')})`);
  return new Set(names as Figure[]);
}

function envInt(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

/** The fleet figure's own node options, for a profile: FLEETDECK_BENCH_FLEET_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p". */
const fleetNodeArgs = () => (process.env.FLEETDECK_BENCH_FLEET_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

export const DEFAULTS: ClusterBenchOptions = {
  workloads: 2,
  nodesPerCluster: 100,
  podsPerCluster: 2000,
  rounds: 5,
  idleWindowMs: 60_000,
  changes: 100,
  scaleNodes: 5000,
  scalePods: 50_000,
  workloadObjects: WORKLOADS_OBJECTS,
  followSeconds: 30,
  fleetContexts: envInt('FLEETDECK_BENCH_FLEET_CONTEXTS', 30),
  fleetIdleMs: envInt('FLEETDECK_BENCH_FLEET_IDLE_SECONDS', 60) * 1000,
  faultCycles: envInt('FLEETDECK_BENCH_FAULT_CYCLES', 10),
};

/** 2,000 Running pods per cluster: pause pods bound to the simulated nodes, which the sandbox's kubelet gives Running/Ready status. */
async function fillFleet(config: KubeConfig, names: string[], o: ClusterBenchOptions, signal: AbortSignal): Promise<void> {
  progress(`fleet: creating ${o.podsPerCluster} pause pods in each of ${names.join(', ')}`);
  await Promise.all(
    names.map(async (name) => {
      const api = core(configForContext(config, name));
      await ensureNamespace(api, BENCH_NAMESPACE);
      const nodes = await sandboxNodeNames(api);
      await createPods(api, BENCH_NAMESPACE, 'pause', o.podsPerCluster, nodes, {
        concurrency: 12,
        deadline: performance.now() + 6 * 60_000,
        label: name,
      });
      await waitPodsRunning(api, BENCH_NAMESPACE, o.podsPerCluster, name, 6 * 60_000, signal);
      progress(`${name}: ${o.podsPerCluster} pods Running`);
    }),
  );
}

/** Ctrl-C, SIGTERM or a crash outside the figures: stop every sandbox, then exit. */
function onSignals(): () => void {
  let stopping = false;
  const stop = (why: string, code: number) => {
    if (stopping) {
      progress(`${why}: still stopping the sandboxes`);
      return;
    }
    stopping = true;
    progress(`${why}: stopping the sandboxes`);
    void stopAllSandboxes().finally(() => process.exit(code));
  };
  const onSignal = (sig: NodeJS.Signals) => stop(sig, 130);
  const onCrash = (err: unknown) => stop(`unexpected error: ${errorLine(err)}`, 1);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  };
}

/** Figure 1: the one-shot on the sandbox's contexts, then on the fleet of many context names over the same API servers. */
async function oneShotFigures(kubeconfig: string, names: string[], o: ClusterBenchOptions): Promise<void> {
  const per = `${o.nodesPerCluster} nodes and ${o.podsPerCluster} running pods each`;
  await guarded('figure 1', () =>
    oneShotFigure(kubeconfig, names, { rounds: o.rounds, target: ONESHOT_TARGET, what: `${names.length} API servers, ${per}` }),
  );
  await guarded('figure 1 (fleet)', async () => {
    const file = await fleetKubeconfig(kubeconfig, o.fleetContexts);
    try {
      const many = contextInfos(loadKubeconfig({ kubeconfig: file }).config).map((c) => c.name);
      await oneShotFigure(file, many, {
        rounds: o.rounds,
        target: FLEET_ONESHOT_TARGET,
        kubectl: false,
        what: `${names.length} API servers reached through ${Math.round(o.fleetContexts / names.length)} context names each, ${per}`,
      });
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
}

/** Starts the scale cluster and its filling, to be awaited later (a failure is reported then). */
function startScale(o: ClusterBenchOptions, signal: AbortSignal): Promise<ScaleCluster> {
  const scale = prepareScale(o.scaleNodes, o.scalePods, signal);
  scale.catch(() => {}); // awaited by scaleFilled
  return scale;
}

/** The scale cluster once filled; undefined (figure 4 not measured, and why) when preparing it failed. */
async function scaleFilled(scale: Promise<ScaleCluster>): Promise<ScaleCluster | undefined> {
  progress('waiting for the scale cluster to be filled');
  try {
    return await scale;
  } catch (err) {
    figure('at scale', `not measured: preparing the cluster failed: ${errorLine(err)}`, '≤ 2 s, ≤ 150 MiB', undefined);
    return undefined;
  }
}

export async function runClusterFigures(o: ClusterBenchOptions = DEFAULTS): Promise<void> {
  const t0 = performance.now();
  const offSignals = onSignals();
  const abort = new AbortController();
  const want = (f: Figure) => !o.only || o.only.has(f);
  let fleet: StatusWatch | undefined;
  let scale: Promise<ScaleCluster> | undefined;
  try {
    // The scale cluster starts and fills meanwhile when only figure 4 runs; else after figure 1.
    const needFleet = (['drain', 'oneshot', 'fleet', 'idle', 'change', 'logs'] as const).some(want);
    const onlyScale = want('scale') && !needFleet;
    if (onlyScale) scale = startScale(o, abort.signal);
    const sb = needFleet ? await startSandbox('fleet', o.workloads, o.nodesPerCluster) : undefined;
    const config = sb ? loadKubeconfig({ kubeconfig: sb.kubeconfig }).config : new KubeConfig();
    const contexts = sb ? contextInfos(config) : [];
    const names = contexts.map((c) => c.name);

    // Before the pause pods fill the nodes: the drained node needs room for 100 more pods.
    if (sb && want('drain')) await guarded('drain', () => drainFigure(sb.kubeconfig, names[1] ?? names[0]!));

    if (sb && (['oneshot', 'fleet', 'idle', 'change', 'logs'] as const).some(want)) await fillFleet(config, names, o, abort.signal);

    if (sb && want('oneshot')) await oneShotFigures(sb.kubeconfig, names, o);

    if (sb && want('fleet')) {
      await guarded('fleet', () =>
        fleetFigure(sb.kubeconfig, {
          contexts: o.fleetContexts,
          idleMs: o.fleetIdleMs,
          nodeArgs: fleetNodeArgs(),
          cli: process.env.FLEETDECK_BENCH_FLEET_CLI,
        }),
      );
    }

    // The scale cluster starts and fills meanwhile: figure 2 counts requests, not time.
    if (!onlyScale && want('scale')) scale = startScale(o, abort.signal);

    if (sb && want('idle')) {
      await guarded('figure 2', async () => {
        fleet = await idleFigure(config, contexts, o.idleWindowMs);
      });
    }

    const prepared = scale ? await scaleFilled(scale) : undefined;

    if (sb && want('change')) {
      await guarded('figure 3', async () => {
        fleet ??= startStatusFeed(config, contexts);
        const target = names.find((n) => n !== names[0]) ?? names[0]!;
        await changeFigure(fleet, config, target, sb.kubeconfig, o.changes);
      });
    }
    await fleet?.stop();
    fleet = undefined;
    // Figure 5 on this sandbox before it stops (figure 4 runs alone on the scale cluster).
    if (sb && want('logs')) await guarded('figure 5', () => logsFollowFigure(sb.kubeconfig, names.at(-1)!, o.followSeconds));
    if (sb) await stopSandbox(sb); // its CPU and memory are not figure 4's

    if (prepared) await guarded('figure 4', () => scaleFigure(prepared));
    if (prepared) await stopSandbox(prepared.sandbox);

    if (want('workloads'))
      await guarded('workloads', async () => {
        const placed = await preparePlacement(o.workloadObjects, abort.signal);
        await placementFigure(placed);
        await stopSandbox(placed.sandbox);
      });
    if (want('faults')) await guarded('faults', () => faultsFigure(o.faultCycles));
  } finally {
    abort.abort();
    await fleet?.stop().catch(() => {});
    await scale?.catch(() => {});
    await stopAllSandboxes();
    offSignals();
    progress(`cluster figures done in ${((performance.now() - t0) / 60_000).toFixed(1)} min`);
  }
}

/** A figure that fails prints why and lets the others run. */
async function guarded(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    figure(name, `not measured: ${errorLine(err)}`, 'see above', undefined);
  }
}
