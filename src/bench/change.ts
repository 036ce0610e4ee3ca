/**
 * Figure 3: from a pod status change written through the API to the first frame of the real
 * dashboard (rendered in-process to a virtual terminal, on the store `watchFleet` feeds) that
 * shows it. The pod is bound to a Node the benchmark created and no simulated kubelet owns, so
 * nothing but the benchmark writes its status; it alternates between Running/Ready and
 * Running/NotReady, which moves the context's problem count in the PODS column.
 */
import { Watch, type CoreV1Api, type KubeConfig, type V1Pod, type V1PodStatus } from '@kubernetes/client-node';
import type { StatusFeed } from '../feeds/status-feed.js';
import { configForContext } from '../kube/kubeconfig.js';
import { renderApp } from '../screens/render.js';
import { BENCH_NAMESPACE, core, ensureNamespace, keepNodesAlive, PAUSE_IMAGE, pausePod, staticNode } from './populate.js';
import { errorLine, figure, ms, note, percentile, progress, sleep, waitFor } from './util.js';
import { IdleStdin, tableCell, VirtualTerminal } from './vterm.js';

export const P95_TARGET_MS = 250;
const NODE = 'bench-static-1';
const POD = 'bench-change-1';

function podStatus(ready: boolean, started: Date): V1PodStatus {
  const t = ready ? 'True' : 'False';
  const now = new Date();
  return {
    phase: 'Running',
    conditions: [
      { type: 'Initialized', status: 'True', lastTransitionTime: started },
      { type: 'Ready', status: t, lastTransitionTime: now, ...(ready ? {} : { reason: 'ContainersNotReady' }) },
      { type: 'ContainersReady', status: t, lastTransitionTime: now, ...(ready ? {} : { reason: 'ContainersNotReady' }) },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: started },
    ],
    hostIP: '127.0.0.1',
    startTime: started,
    containerStatuses: [
      { name: 'pause', image: PAUSE_IMAGE, imageID: '', ready, started: true, restartCount: 0, state: { running: { startedAt: started } } },
    ],
  };
}

/** Writes the pod's status (Running, Ready or not) and returns the pod as stored. */
async function setReady(api: CoreV1Api, pod: V1Pod, ready: boolean, started: Date): Promise<V1Pod> {
  const name = pod.metadata?.name ?? POD;
  return api.replaceNamespacedPodStatus({ name, namespace: BENCH_NAMESPACE, body: { ...pod, status: podStatus(ready, started) } });
}

export async function changeFigure(
  fleet: StatusFeed,
  config: KubeConfig,
  context: string,
  kubeconfigFile: string,
  changes = 100,
): Promise<void> {
  const kc = configForContext(config, context);
  const api = core(kc);
  await ensureNamespace(api, BENCH_NAMESPACE);
  progress(`figure 3: node ${NODE} and pod ${POD} in ${context}`);
  const node = await api.createNode({ body: staticNode(NODE, 'zone-a') });
  const stopLeases = keepNodesAlive(kc, [{ name: NODE, uid: node.metadata?.uid ?? '' }]);
  const vt = new VirtualTerminal(160, 40);
  let app: ReturnType<typeof renderApp> | undefined;
  let sideWatch: AbortController | undefined;
  try {
    const started = new Date();
    let pod = await api.createNamespacedPod({ namespace: BENCH_NAMESPACE, body: pausePod(POD, NODE) });
    pod = await setReady(api, pod, true, started);

    const store = fleet.store;
    app = renderApp(
      { store, ui: { readOnly: true, ascii: false, color: true }, kubeconfigFiles: [kubeconfigFile], onQuit: () => {} },
      { stdout: vt as unknown as NodeJS.WritableStream, stdin: new IdleStdin() as unknown as NodeJS.ReadableStream },
    );
    // A plain watch on the bench pod alone, beside fleetdeck's: when the API server delivers
    // each change, so that its share of the latency is told apart from fleetdeck's.
    let onWatchEvent: ((ready: boolean) => void) | undefined;
    sideWatch = await new Watch(kc).watch(
      `/api/v1/namespaces/${BENCH_NAMESPACE}/pods`,
      { fieldSelector: `metadata.name=${POD}` },
      (_type: string, obj: V1Pod) =>
        onWatchEvent?.(obj.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true),
      () => {},
    );
    const pods = () => store.getState().contexts[context]?.pods;
    const problems = () => {
      const p = pods();
      return p?.synced ? p.problemCount : undefined;
    };
    const cell = () => tableCell(vt.screen(), 'PODS', context);

    // Pods listed, and the bench pod known as Running and Ready (not among the problems).
    try {
      await waitFor(
        'pods listed in the store, the bench pod Ready',
        () => {
          const p = pods();
          return p?.synced === true && !p.problems.some((x) => x.name === POD && x.namespace === BENCH_NAMESPACE);
        },
        { timeoutMs: 60_000 },
      );
    } catch {
      figure(
        `change to screen (pod status written through the API → first frame showing it), ${changes} changes`,
        'not measured: the store never listed pods (this build does not watch pods)',
        `p95 ≤ ${P95_TARGET_MS} ms`,
        undefined,
      );
      return;
    }
    await sleep(1000); // the bench pod's own events (created Pending, then Ready) have landed
    const readyCount = problems()!;
    const notReadyCount = readyCount + 1;
    await waitFor('the dashboard drawing the contexts table', () => vt.screen().some((l) => l.slice(2).startsWith(`${context} `)), {
      timeoutMs: 30_000,
    });

    // Warm-up: learn what the cell shows in each state (and whether there is a PODS column at all).
    const settle = async (count: number) => {
      await waitFor(`problem count ${count} in the store`, () => problems() === count, { timeoutMs: 15_000 });
      await sleep(400); // more than a frame at 12 fps
      return cell();
    };
    const cellReady = await settle(readyCount);
    pod = await setReady(api, pod, false, started);
    const cellNotReady = await settle(notReadyCount);
    pod = await setReady(api, pod, true, started);
    await settle(readyCount);
    const onScreen = cellReady !== undefined && cellNotReady !== undefined && cellReady !== cellNotReady;
    if (!onScreen) {
      progress(
        `figure 3: the contexts table has no PODS cell that changes (${JSON.stringify(cellReady)} / ${JSON.stringify(cellNotReady)}); measuring until the store has the change`,
      );
    }

    const toScreen: number[] = [];
    const toStore: number[] = [];
    const toEvent: number[] = [];
    const storeToScreen: number[] = [];
    const roundTrip: number[] = [];
    let timeouts = 0;
    const writesBefore = vt.writes;
    const bytesBefore = vt.written;
    const t0All = performance.now();
    progress(`figure 3: ${changes} status changes`);
    for (let i = 0; i < changes; i++) {
      const ready = i % 2 === 1; // starts Ready: NotReady, Ready, NotReady, …
      const wantCount = ready ? readyCount : notReadyCount;
      const wantCell = ready ? cellReady : cellNotReady;
      // Waiters first, then the write: nothing can be missed.
      const storeAt = new Promise<number | undefined>((resolve) => {
        const timer = setTimeout(() => done(undefined), 10_000);
        const unsubscribe = store.subscribe(() => {
          if (problems() === wantCount) done(performance.now());
        });
        function done(at: number | undefined) {
          clearTimeout(timer);
          unsubscribe();
          resolve(at);
        }
      });
      const screenAt = onScreen ? vt.waitForScreen(() => cell() === wantCell, 10_000) : storeAt;
      const eventAt = new Promise<number | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), 10_000);
        onWatchEvent = (r) => {
          if (r !== ready) return;
          clearTimeout(timer);
          onWatchEvent = undefined;
          resolve(performance.now());
        };
      });
      const t0 = performance.now();
      try {
        pod = await setReady(api, pod, ready, started);
      } catch (err) {
        progress(`figure 3: writing the status failed: ${errorLine(err)}; reading the pod again`);
        pod = await api.readNamespacedPod({ name: POD, namespace: BENCH_NAMESPACE });
        pod = await setReady(api, pod, ready, started);
      }
      roundTrip.push(performance.now() - t0);
      const [s, f, e] = await Promise.all([storeAt, screenAt, eventAt]);
      if (e !== undefined) toEvent.push(e - t0);
      if (s === undefined || f === undefined) {
        timeouts++;
        // Resynchronise: wait for the state to show before the next change.
        await settle(wantCount).catch(() => {});
      } else {
        toStore.push(s - t0);
        toScreen.push(f - t0);
        storeToScreen.push(f - s);
      }
      // A random pause, so that changes land at every phase of the frame-rate cap.
      await sleep(50 + Math.random() * 200);
    }
    const secs = (performance.now() - t0All) / 1000;
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
        `PODS cell: "${cellReady}" when Ready, "${cellNotReady}" when NotReady; ${vt.writes - writesBefore} writes (${((vt.written - bytesBefore) / 1024).toFixed(0)} KiB) to the terminal in ${secs.toFixed(0)} s`,
      );
  } finally {
    sideWatch?.abort();
    app?.unmount();
    stopLeases();
    await api.deleteNamespacedPod({ name: POD, namespace: BENCH_NAMESPACE, gracePeriodSeconds: 0 }).catch(() => {});
    await api.deleteNode({ name: NODE }).catch(() => {});
  }
}
