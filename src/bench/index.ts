/**
 * `npm run bench`: figures, not assertions.
 *  - store: how long 50,000 watch updates take to reach the store and how many store
 *    updates (renders) they cause, and the heap held by their summaries;
 *  - with FLEETDECK_BENCH_KUBECONFIG (e.g. the sandbox's): `fleetdeck status -o json` against
 *    `kubectl get nodes -o json` for every context, wall time and the ratio.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { contextInfos, loadKubeconfig } from '../kube/kubeconfig.js';
import { summarizeNode } from '../kube/nodes.js';
import { UpdateBatcher, createFleetStore } from '../store/fleet-store.js';

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
  console.log(`store: ${Object.keys(store.getState().contexts.bench!.nodes.items).length} node summaries hold ~${(heap / 1024 / 1024).toFixed(1)} MiB of heap`);
}

function time(cmd: string, args: string[]): number {
  const t = performance.now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'] });
  if (r.error) throw r.error;
  return performance.now() - t;
}

function clusterBench(kubeconfig: string): void {
  const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
  const contexts = contextInfos(loadKubeconfig({ kubeconfig }).config).map((c) => c.name);
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
  } catch {
    console.log('cluster: kubectl not found; skipped');
    return;
  }
  const rounds = 5;
  let fd = 0;
  let kubectl = 0;
  for (let i = 0; i < rounds; i++) {
    fd += time(process.execPath, [cli, 'status', '-o', 'json', '--kubeconfig', kubeconfig]);
    for (const c of contexts) kubectl += time('kubectl', ['--kubeconfig', kubeconfig, '--context', c, 'get', 'nodes', '-o', 'json']);
  }
  fd /= rounds;
  kubectl /= rounds;
  console.log(`cluster: fleetdeck status, ${contexts.length} contexts at once: ${fd.toFixed(0)} ms`);
  console.log(`cluster: kubectl get nodes, one context after another: ${kubectl.toFixed(0)} ms`);
  console.log(`cluster: ratio fleetdeck/kubectl = ${(fd / kubectl).toFixed(2)}`);
}

storeBench(50_000);
const kc = process.env.FLEETDECK_BENCH_KUBECONFIG;
if (kc) clusterBench(kc);
else console.log('cluster: set FLEETDECK_BENCH_KUBECONFIG=<kubeconfig> (e.g. the sandbox\'s) to compare with kubectl');
