/**
 * The Status figures on real API servers (`npm run bench -- --clusters`, or
 * FLEETDECK_BENCH_CLUSTERS=1): starts its own sandboxes, fills them, prints figures 1–4 and
 * always stops the sandboxes again (also after an error or Ctrl-C). Figure 5 runs on the fleet
 * sandbox before it stops, so it prints before figure 4.
 *
 *  1. one-shot `fleetdeck status -o json` against kubectl, 3 contexts × (100 nodes, 2,000 pods);
 *  2. LIST requests while idle with `watchFleet` running, against a baseline without it;
 *  3. pod status change → first dashboard frame showing it, 100 times;
 *  4. 5,000 nodes / 50,000 pods on one context: lists, first frame, RSS (fresh process);
 *  5. `fleetdeck logs -f` of a pod writing 1,000 lines/s: lines a second, lines lost, CPU, RSS, exit on SIGINT;
 *  fleet: the dashboard on N contexts (default 30) over the 3 clusters of figure 1: first full frame,
 *  idle CPU and RSS (fleet.ts), right after figure 1.
 *
 * `only: 'fleet'` (`--only fleet`, FLEETDECK_BENCH_ONLY=fleet) runs the fleet figure alone: the
 * fleet sandbox, its pods, the figure; with FLEETDECK_BENCH_FLEET_KUBECONFIG on clusters already
 * running instead of a new sandbox (their pods created if missing).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { startStatusFeed, type StatusFeed } from '../feeds/status-feed.js';
import { configForContext, contextInfos, loadKubeconfig } from '../kube/kubeconfig.js';
import { changeFigure } from './change.js';
import { idleFigure } from './idle.js';
import { logsFollowFigure } from './logs-follow.js';
import { drainFigure } from './drain.js';
import { fleetFigure } from './fleet.js';
import { oneShotFigure } from './oneshot.js';
import { BENCH_NAMESPACE, core, createPods, ensureNamespace, sandboxNodeNames, waitPodsRunning } from './populate.js';
import { startSandbox, stopAllSandboxes, stopSandbox } from './sandbox.js';
import { prepareScale, scaleFigure, type ScaleCluster } from './scale.js';
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
  /** Contexts of the fleet figure (FLEETDECK_BENCH_FLEET_CONTEXTS) and its idle window (FLEETDECK_BENCH_FLEET_IDLE_SECONDS). */
  fleetContexts: number;
  fleetIdleMs: number;
  /** Run one figure alone (only 'fleet' so far). */
  only?: 'fleet' | undefined;
}

const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

export const DEFAULTS: ClusterBenchOptions = {
  workloads: 2,
  nodesPerCluster: 100,
  podsPerCluster: 2000,
  rounds: 5,
  idleWindowMs: 60_000,
  changes: 100,
  scaleNodes: 5000,
  scalePods: 50_000,
  followSeconds: 30,
  fleetContexts: envInt('FLEETDECK_BENCH_FLEET_CONTEXTS', 30),
  fleetIdleMs: envInt('FLEETDECK_BENCH_FLEET_IDLE_SECONDS', 60) * 1000,
};

/** The fleet figure's own node options, for a profile: FLEETDECK_BENCH_FLEET_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p". */
const fleetNodeArgs = () => (process.env.FLEETDECK_BENCH_FLEET_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

/** 2,000 Running pods per cluster: pause pods bound to the simulated nodes, which the sandbox's kubelet gives Running/Ready status. */
async function fillFleet(config: KubeConfig, names: string[], o: ClusterBenchOptions, signal: AbortSignal): Promise<void> {
  progress(`fleet: creating ${o.podsPerCluster} pause pods in each of ${names.join(', ')}`);
  await Promise.all(
    names.map(async (name) => {
      const api = core(configForContext(config, name));
      await ensureNamespace(api, BENCH_NAMESPACE);
      // Clusters filled by an earlier run (FLEETDECK_BENCH_FLEET_KUBECONFIG): nothing to create.
      const page = await api.listNamespacedPod({ namespace: BENCH_NAMESPACE, limit: 1 });
      const have = page.items.length + (page.metadata?.remainingItemCount ?? 0);
      if (have >= o.podsPerCluster) return waitPodsRunning(api, BENCH_NAMESPACE, have, name, 6 * 60_000, signal);
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

/** The fleet figure alone, on a new fleet sandbox or on FLEETDECK_BENCH_FLEET_KUBECONFIG's clusters. */
async function runFleetOnly(o: ClusterBenchOptions, signal: AbortSignal): Promise<void> {
  const given = process.env.FLEETDECK_BENCH_FLEET_KUBECONFIG;
  const kubeconfig = given ?? (await startSandbox('fleet', o.workloads, o.nodesPerCluster)).kubeconfig;
  const { config } = loadKubeconfig({ kubeconfig });
  await fillFleet(
    config,
    contextInfos(config).map((c) => c.name),
    o,
    signal,
  );
  await guarded('fleet', () =>
    fleetFigure(kubeconfig, {
      contexts: o.fleetContexts,
      idleMs: o.fleetIdleMs,
      nodeArgs: fleetNodeArgs(),
      cli: process.env.FLEETDECK_BENCH_FLEET_CLI,
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

export async function runClusterFigures(o: ClusterBenchOptions = DEFAULTS): Promise<void> {
  const t0 = performance.now();
  const offSignals = onSignals();
  const abort = new AbortController();
  let fleet: StatusFeed | undefined;
  let scale: Promise<ScaleCluster> | undefined;
  try {
    if (o.only === 'fleet') return await runFleetOnly(o, abort.signal);
    const sb = await startSandbox('fleet', o.workloads, o.nodesPerCluster);
    const { config } = loadKubeconfig({ kubeconfig: sb.kubeconfig });
    const contexts = contextInfos(config);
    const names = contexts.map((c) => c.name);

    // Before the pause pods fill the nodes: the drained node needs room for 100 more pods.
    await guarded('drain', () => drainFigure(sb.kubeconfig, names[1] ?? names[0]!));

    await fillFleet(config, names, o, abort.signal);

    await guarded('figure 1', () => oneShotFigure(sb.kubeconfig, names, o.rounds));
    await guarded('fleet', () =>
      fleetFigure(sb.kubeconfig, {
        contexts: o.fleetContexts,
        idleMs: o.fleetIdleMs,
        nodeArgs: fleetNodeArgs(),
        cli: process.env.FLEETDECK_BENCH_FLEET_CLI,
      }),
    );

    // The scale cluster starts and fills meanwhile: figure 2 counts requests, not time.
    scale = prepareScale(o.scaleNodes, o.scalePods, abort.signal);
    scale.catch(() => {}); // awaited below

    await guarded('figure 2', async () => {
      fleet = await idleFigure(config, contexts, o.idleWindowMs);
    });

    progress('waiting for the scale cluster to be filled before timing figure 3');
    let prepared: ScaleCluster | undefined;
    try {
      prepared = await scale;
    } catch (err) {
      figure('at scale', `not measured: preparing the cluster failed: ${errorLine(err)}`, '≤ 200 MiB, ≤ 3 s after the data', undefined);
    }

    await guarded('figure 3', async () => {
      fleet ??= startStatusFeed(config, contexts);
      const target = names.find((n) => n !== names[0]) ?? names[0]!;
      await changeFigure(fleet, config, target, sb.kubeconfig, o.changes);
    });
    await fleet?.stop();
    fleet = undefined;
    // Figure 5 on this sandbox before it stops (figure 4 runs alone on the scale cluster).
    await guarded('figure 5', () => logsFollowFigure(sb.kubeconfig, names.at(-1)!, o.followSeconds));
    await stopSandbox(sb); // its CPU and memory are not figure 4's

    if (prepared) await guarded('figure 4', () => scaleFigure(prepared));
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
