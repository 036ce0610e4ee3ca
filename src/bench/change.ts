/**
 * Figure 3: from a pod status change written through the API to the first frame of the real
 * dashboard (rendered in-process to a virtual terminal, on the store `watchFleet` feeds) that
 * shows it. The pod is bound to a Node the benchmark created and no simulated kubelet owns, so
 * nothing but the benchmark writes its status; it alternates between Running/Ready and
 * Running/NotReady, which moves the context's problem count in the PODS column.
 */
import { benchDashboard } from './dashboard.js';
import { Watch, type CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { StatusWatch } from '../feeds/status-feed.js';
import { configForContext } from '../kube/config/kubeconfig.js';
import { renderApp } from '../screens/render.js';
import { BENCH_NAMESPACE, core, ensureNamespace, keepNodesAlive, pausePod, staticNode } from './populate.js';
import { type ChangeBench, measureChanges, NODE, POD, pods, setReady, type Warm, warmUp } from './change-measure.js';
import { figure, ms, note, percentile, progress, waitFor } from './util.js';
import { IdleStdin, VirtualTerminal } from './vterm.js';

export const P95_TARGET_MS = 250;

/** What the `finally` of `changeFigure` takes down, filled in as `setUp` starts it. */
interface Handles {
  app?: ReturnType<typeof renderApp>;
  sideWatch?: AbortController;
}

/** The bench Node (kept alive by leases, which the returned function stops). */
async function createNode(kc: KubeConfig, api: CoreV1Api, context: string): Promise<() => void> {
  await ensureNamespace(api, BENCH_NAMESPACE);
  progress(`figure 3: node ${NODE} and pod ${POD} in ${context}`);
  const node = await api.createNode({ body: staticNode(NODE, 'zone-a') });
  return keepNodesAlive(kc, [{ name: NODE, uid: node.metadata?.uid ?? '' }]);
}

/** The bench pod (Running and Ready), the dashboard rendered on `vt`, and the side watch. */
async function setUp(
  fleet: StatusWatch,
  kc: KubeConfig,
  api: CoreV1Api,
  vt: VirtualTerminal,
  context: string,
  kubeconfigFile: string,
  handles: Handles,
): Promise<ChangeBench> {
  const started = new Date();
  let pod = await api.createNamespacedPod({ namespace: BENCH_NAMESPACE, body: pausePod(POD, NODE) });
  pod = await setReady(api, pod, true, started);

  const store = fleet.store;
  handles.app = benchDashboard(renderApp, { store, stdout: vt, stdin: new IdleStdin(), kubeconfigFiles: [kubeconfigFile] });
  const b: ChangeBench = { api, store, vt, context, started, pod };
  // A plain watch on the bench pod alone, beside fleetdeck's: when the API server delivers
  // each change, so that its share of the latency is told apart from fleetdeck's.
  handles.sideWatch = await new Watch(kc).watch(
    `/api/v1/namespaces/${BENCH_NAMESPACE}/pods`,
    { fieldSelector: `metadata.name=${POD}` },
    (_type: string, obj: V1Pod) =>
      b.onWatchEvent?.(obj.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true),
    () => {},
  );
  return b;
}

/** Pods listed, and the bench pod known as Running and Ready (not among the problems); false (and the figure
 * printed as not measured) when the store never lists pods. */
async function podsListed(b: ChangeBench, changes: number): Promise<boolean> {
  try {
    await waitFor(
      'pods listed in the store, the bench pod Ready',
      () => {
        const p = pods(b);
        return p?.synced === true && !p.problems.some((x) => x.name === POD && x.namespace === BENCH_NAMESPACE);
      },
      { timeoutMs: 60_000 },
    );
    return true;
  } catch {
    figure(
      `change to screen (pod status written through the API → first frame showing it), ${changes} changes`,
      'not measured: the store never listed pods (this build does not watch pods)',
      `p95 ≤ ${P95_TARGET_MS} ms`,
      undefined,
    );
    return false;
  }
}

/** The figure and its notes. */
function report(b: ChangeBench, warm: Warm, m: Awaited<ReturnType<typeof measureChanges>>, changes: number): void {
  const { onScreen, cellReady, cellNotReady } = warm;
  const { toScreen, toStore, toEvent, storeToScreen, roundTrip, timeouts } = m;
  const what = onScreen
    ? `change to screen (pod status written through the API → first frame showing it in the PODS column), ${changes} changes`
    : `change to store (pod status written through the API → store; the contexts table shows no pod problems in this build), ${changes} changes`;
  const p95 = timeouts ? Infinity : percentile(toScreen, 95);
  figure(
    what,
    `p50 ${ms(percentile(toScreen, 50))}, p95 ${ms(p95)}${timeouts ? ` (${timeouts} not shown within 10 s)` : ''}`,
    `p95 ≤ ${P95_TARGET_MS} ms`,
    p95 <= P95_TARGET_MS,
  );
  note(
    `API write round trip p50 ${ms(percentile(roundTrip, 50))}, p95 ${ms(percentile(roundTrip, 95))}; write → watch event (a plain watch beside fleetdeck's) p50 ${ms(percentile(toEvent, 50))}, p95 ${ms(percentile(toEvent, 95))}; write → store p50 ${ms(percentile(toStore, 50))}, p95 ${ms(percentile(toStore, 95))}`,
  );
  if (onScreen) {
    note(
      `store → screen p50 ${ms(percentile(storeToScreen, 50))}, p95 ${ms(percentile(storeToScreen, 95))}, max ${ms(Math.max(...storeToScreen))} (frames are capped at 12 a second: a change right after another frame waits for the next)`,
    );
  }
  if (onScreen)
    note(
      `PODS cell: "${cellReady}" when Ready, "${cellNotReady}" when NotReady; ${b.vt.writes - m.writesBefore} writes (${((b.vt.written - m.bytesBefore) / 1024).toFixed(0)} KiB) to the terminal in ${m.secs.toFixed(0)} s`,
    );
}

export async function changeFigure(
  fleet: StatusWatch,
  config: KubeConfig,
  context: string,
  kubeconfigFile: string,
  changes = 100,
): Promise<void> {
  const kc = configForContext(config, context);
  const api = core(kc);
  const stopLeases = await createNode(kc, api, context);
  const vt = new VirtualTerminal(160, 40);
  const handles: Handles = {};
  try {
    const b = await setUp(fleet, kc, api, vt, context, kubeconfigFile, handles);
    if (!(await podsListed(b, changes))) return;
    const warm = await warmUp(b);
    const m = await measureChanges(b, warm, changes);
    report(b, warm, m, changes);
  } finally {
    handles.sideWatch?.abort();
    handles.app?.unmount();
    stopLeases();
    await api.deleteNamespacedPod({ name: POD, namespace: BENCH_NAMESPACE, gracePeriodSeconds: 0 }).catch(() => {});
    await api.deleteNode({ name: NODE }).catch(() => {});
  }
}
