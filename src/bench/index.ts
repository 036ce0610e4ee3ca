/**
 * `npm run bench`: figures, not assertions.
 *  - store: how long 50,000 watch updates take to reach the store and how many store
 *    updates (renders) they cause, and the heap held by their summaries;
 *  - the pod tracker's heap and speed with 50,000 pods (pods-memory.ts);
 *  - the log view following 1,000 lines/s (logs.ts): frames a second, key latency, memory
 *    growth, streams left after Esc (FLEETDECK_BENCH_LOG_SECONDS, default 60);
 *  - with FLEETDECK_BENCH_CLUSTERS=1 or `--clusters`: the Status figures on sandboxes it starts
 *    and stops itself (clusters.ts): the drain as whole commands against kubectl's, one-shot
 *    status against the raw-transfer floor (curl) and kubectl on 3 and 30 contexts, LIST requests while idle,
 *    change-to-screen latency, first render and memory with 5,000 nodes / 50,000 pods, and
 *    `fleetdeck logs -f` of a pod writing 1,000 lines/s (lines a second, lines lost, CPU, RSS),
 *    and the faults (faults.ts): an API server stopped and started 10 times, then its etcd,
 *    under the status feed and `status --watch` — max time to mark unreachable and to recover
 *    (goal ≤ 5 s), heap and RSS after cycle 10 against cycle 1, crashes (goal 0);
 *  - `--only drain,oneshot,…` (or FLEETDECK_BENCH_ONLY): only those cluster figures, nothing else
 *    (`--only faults`: the fault figure alone, on its own sandbox);
 *  - with FLEETDECK_BENCH_KUBECONFIG (existing clusters): `fleetdeck status -o json` against
 *    the raw floor and kubectl's node and pod lists for every context, and the ratio.
 */
import { contextInfos, loadKubeconfig } from '../kube/config/kubeconfig.js';
import { summarizeNode } from '../kube/nodes/nodes.js';
import { createFleetStore } from '../store/fleet-store.js';
import { UpdateBatcher } from '../store/status.js';
import { benchCertSet } from './certs.js';
import { benchPodTracker } from './pods-memory.js';

function storeBench(events: number): void {
  const store = createFleetStore([{ name: 'bench', cluster: 'bench', user: 'u', server: 'https://bench' }]);
  const batch = new UpdateBatcher(store, -1);
  let updates = 0;
  store.subscribe(() => updates++);
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  for (let i = 0; i < events; i++) {
    batch.upsertNode(
      'bench',
      summarizeNode({
        metadata: { name: `node-${i % 5000}`, uid: `u${i}`, labels: { 'topology.kubernetes.io/zone': `zone-${i % 3}` } },
        status: { conditions: [{ type: 'Ready', status: i % 7 ? 'True' : 'False' }], nodeInfo: { kubeletVersion: 'v1.20.2' } as never },
      }),
    );
    // The watch delivers in bursts; the batcher flushes every 50 ms in the app.
    if (i % 5000 === 4999) batch.flush();
  }
  batch.flush();
  const ms = performance.now() - started;
  global.gc?.();
  const heap = process.memoryUsage().heapUsed - heapBefore;
  console.log(`store: ${events} node updates in ${ms.toFixed(1)} ms (${((events / ms) * 1000).toFixed(0)}/s), ${updates} store updates`);
  console.log(
    `store: ${Object.keys(store.getState().status.contexts.bench!.nodes.items).length} node summaries hold ~${(heap / 1024 / 1024).toFixed(1)} MiB of heap`,
  );
}

// `--only` runs only the named cluster figures (clusters.ts), for quick iterations.
const onlyGiven = process.argv.some((a) => a === '--only' || a.startsWith('--only=')) || !!process.env.FLEETDECK_BENCH_ONLY;
if (!onlyGiven) {
  storeBench(50_000);
  benchPodTracker(50_000);
  await benchCertSet();
  {
    // The log view is drawn to a virtual terminal: Ink must not switch to its CI mode.
    delete process.env.CI;
    const { logViewFigures } = await import('./logs.js');
    await logViewFigures();
  }
}

const clusters = process.env.FLEETDECK_BENCH_CLUSTERS === '1' || process.argv.includes('--clusters') || onlyGiven;
const kc = process.env.FLEETDECK_BENCH_KUBECONFIG;
if (clusters) {
  // The dashboard is drawn to a virtual terminal: Ink must not switch to its CI mode.
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  const { DEFAULTS, onlyFigures, runClusterFigures } = await import('./clusters.js');
  const only = onlyFigures();
  const rounds = Number(process.env.FLEETDECK_BENCH_ROUNDS) || DEFAULTS.rounds;
  await runClusterFigures({ ...DEFAULTS, rounds, ...(only ? { only } : {}) });
} else if (kc) {
  const { oneShotFigure } = await import('./oneshot.js');
  const { ONESHOT_TARGET } = await import('./clusters.js');
  await oneShotFigure(
    kc,
    contextInfos(loadKubeconfig({ kubeconfig: kc }).config).map((c) => c.name),
    { target: ONESHOT_TARGET },
  );
} else {
  console.log(
    'cluster: FLEETDECK_BENCH_CLUSTERS=1 (or npm run bench -- --clusters) starts sandboxes and prints the Status figures (about 15 min);',
  );
  console.log('         FLEETDECK_BENCH_KUBECONFIG=<kubeconfig> compares fleetdeck status with kubectl on existing clusters');
}
