/**
 * Figure 4: memory and first render at scale. A dedicated sandbox cluster gets 5,000 Node
 * objects (created directly, Ready at creation, no kubelet) and 50,000 pause pods bound to them
 * (the scheduler is bypassed; with no kubelet they stay Pending). Then, in a fresh process (three
 * in turn: the API server's time to answer varies by a second between runs), the
 * dashboard starts on that context: time from the process's start to the first full frame (the
 * contexts table counting every node and every pod: nothing drawn earlier counts, since a
 * frame with part of the pods shows wrong counts), the RSS after that frame, and on the way the
 * list requests and when the last list response arrived. With FLEETDECK_BENCH_BASELINE (the
 * root of another built checkout) its measuring process runs too, on the same cluster.
 */
import path from 'node:path';
import { distPath } from '../paths.js';
import { configForContext, contextInfos, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { BENCH_NAMESPACE, core, createNodes, createPods, ensureNamespace } from './populate.js';
import { runMeasuringChild } from './child.js';
import { startSandbox, type BenchSandbox } from './sandbox.js';
import type { ScaleResult } from './scale-measure.js';
import { errorLine, figure, medianProcess, mib, ms, note, progress } from './util.js';

export const RSS_TARGET = 150 * 1024 * 1024;
export const FRAME_TARGET_MS = 2000;
const CHILD = distPath('bench', 'scale-child.js');
/** Another build to compare with (its dist/bench/scale-child.js), e.g. the main branch's. */
const BASELINE = process.env.FLEETDECK_BENCH_BASELINE;

export interface ScaleCluster {
  sandbox: BenchSandbox;
  context: string;
  nodes: number;
  pods: number;
}

/** Starts the dedicated sandbox and fills it (bounded concurrency, a deadline per phase). */
export async function prepareScale(nodes: number, pods: number, signal: AbortSignal, concurrency = 32): Promise<ScaleCluster> {
  const sandbox = await startSandbox('scale', 0, 1);
  signal.throwIfAborted();
  const { config } = loadKubeconfig({ kubeconfig: sandbox.kubeconfig });
  const context = contextInfos(config)[0]?.name;
  if (!context) throw new Error('the scale sandbox has no context');
  const api = core(configForContext(config, context));
  await ensureNamespace(api, BENCH_NAMESPACE);
  const t0 = performance.now();
  const names = await createNodes(api, 'bench-node', nodes, { concurrency, deadline: t0 + 5 * 60_000, label: 'scale', signal });
  progress(`scale: ${nodes} nodes created in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await createPods(api, BENCH_NAMESPACE, 'bench-pod', pods, names, {
    concurrency,
    deadline: performance.now() + 12 * 60_000,
    label: 'scale',
    signal,
  });
  return { sandbox, context, nodes, pods };
}

function runChild(kubeconfig: string, context: string, script = CHILD): Promise<ScaleResult> {
  return runMeasuringChild<ScaleResult>(script, ['--kubeconfig', kubeconfig, '--context', context]);
}

/** Fresh processes measured one after another: the frame figure is their median, the RSS figure their highest. */
const RUNS = 3;

export async function scaleFigure(cluster: ScaleCluster): Promise<void> {
  const runs: ScaleResult[] = [];
  for (let i = 1; i <= RUNS; i++) {
    progress(`figure 4: starting the dashboard on ${cluster.context} in a fresh process (${i}/${RUNS})`);
    runs.push(await runChild(cluster.sandbox.kubeconfig, cluster.context));
  }
  const { median: r, highestRss: rss } = medianProcess(runs);
  const label = `${cluster.nodes} nodes / ${cluster.pods} pods on one context`;
  figure(
    `at scale (${label}): process start → first full frame (${r.nodes} nodes${r.podsOnScreen ? ` and ${r.pods} pods` : ''} counted on screen), median of ${RUNS} processes`,
    `${ms(r.frameMs)} (first modules loaded at ${ms(r.startMs)}, last list response at ${ms(r.listsReceivedMs)}, in the store at ${ms(r.storeMs)}; ${r.listRequests} list requests)`,
    `≤ ${FRAME_TARGET_MS / 1000} s`,
    r.frameMs <= FRAME_TARGET_MS,
  );
  figure(
    `at scale (${label}): RSS of the dashboard process after the first frame, highest of ${RUNS}`,
    mib(rss),
    `≤ ${mib(RSS_TARGET)}`,
    rss <= RSS_TARGET,
  );
  note(
    `each process: first frame at ${runs.map((x) => ms(x.frameMs)).join(', ')} (last list response at ${runs.map((x) => ms(x.listsReceivedMs)).join(', ')}); RSS ${runs.map((x) => mib(x.rssAfterFrame)).join(', ')}`,
  );
  note(`lists received → first frame: ${ms(r.frameMs - r.listsReceivedMs)} (the old figure; its target was ≤ 3 s)`);
  note(
    `the median process: RSS with its first modules loaded (before any request) ${mib(r.rssAtStart)}; after the first frame: V8 heap ${mib(r.heapAfterFrame)} used of ${mib(r.heapTotalAfterFrame)} committed, external ${mib(r.externalAfterFrame)}`,
  );
  note(
    `RSS 5 s later ${mib(r.rssAfter5s)}, peak ${mib(r.maxRss)}; after a full GC: heap used ${mib(r.heapUsedAfterGc)}, RSS ${mib(r.rssAfterGc)}`,
  );
  note(
    `the frame showed NODES "${r.nodesCell ?? '?'}"${r.podsOnScreen ? `, PODS "${r.podsCell ?? '?'}"` : ' (no PODS column in this build: pods checked in the store only)'}`,
  );
  note(
    "process start is the measuring process's own (performance.now() from its time origin); it starts with the V8 flags that fleetdeck's restart gives (src/node-flags.ts), so the restart itself is not in it; like the dashboard it loads its screens once the first requests are on the wire",
  );
  note(
    'the bench nodes have no kubelet: their pods stay Pending, so every pod is a problem for the tracker (its worst case), and the node lifecycle controller turns the nodes NotReady over time',
  );
  if (r.nodes < cluster.nodes || r.pods < cluster.pods)
    note(`the store held ${r.nodes} nodes and ${r.pods} pods (expected at least ${cluster.nodes} and ${cluster.pods})`);
  if (BASELINE) {
    try {
      const b = await runChild(cluster.sandbox.kubeconfig, cluster.context, path.join(BASELINE, 'dist', 'bench', 'scale-child.js'));
      note(
        `baseline build (${BASELINE}), same cluster: first full frame at ${ms(b.frameMs)} (${b.listRequests} list requests, last list response at ${ms(b.listsReceivedMs)}), RSS after it ${mib(b.rssAfterFrame)}, peak ${mib(b.maxRss)}`,
      );
    } catch (err) {
      note(`baseline build not measured: ${errorLine(err)}`);
    }
  }
}
