/**
 * Figure 3's measurement (see change.ts): the bench pod's status writes, the warm-up that learns
 * what the PODS cell shows in each state, and the timing of each change (store, screen, watch event).
 */
import type { CoreV1Api, V1Pod, V1PodStatus } from '@kubernetes/client-node';
import type { StatusWatch } from '../feeds/status-feed.js';
import { BENCH_NAMESPACE, PAUSE_IMAGE } from './populate.js';
import { errorLine, progress, sleep, waitFor } from './util.js';
import { tableCell, type VirtualTerminal } from './vterm.js';

export const NODE = 'bench-static-1';
export const POD = 'bench-change-1';

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
export async function setReady(api: CoreV1Api, pod: V1Pod, ready: boolean, started: Date): Promise<V1Pod> {
  const name = pod.metadata?.name ?? POD;
  return api.replaceNamespacedPodStatus({ name, namespace: BENCH_NAMESPACE, body: { ...pod, status: podStatus(ready, started) } });
}

/** The running benchmark: the bench pod as last stored, the dashboard's store and terminal, and the side watch's listener. */
export interface ChangeBench {
  readonly api: CoreV1Api;
  readonly store: StatusWatch['store'];
  readonly vt: VirtualTerminal;
  readonly context: string;
  readonly started: Date;
  pod: V1Pod;
  onWatchEvent?: (ready: boolean) => void;
}

/** What the warm-up learnt: the problem count and PODS cell in each state. */
export interface Warm {
  readyCount: number;
  notReadyCount: number;
  cellReady: string | undefined;
  cellNotReady: string | undefined;
  onScreen: boolean;
}

export const pods = (b: ChangeBench) => b.store.getState().status.contexts[b.context]?.pods;
const problems = (b: ChangeBench) => {
  const p = pods(b);
  return p?.synced ? p.problemCount : undefined;
};
const cell = (b: ChangeBench) => tableCell(b.vt.screen(), 'PODS', b.context);

/** Waits for the store to have `count` problems and a frame to follow; returns the PODS cell. */
async function settle(b: ChangeBench, count: number) {
  await waitFor(`problem count ${count} in the store`, () => problems(b) === count, { timeoutMs: 15_000 });
  await sleep(400); // more than a frame at 12 fps
  return cell(b);
}

/** Learns what the cell shows in each state (and whether there is a PODS column at all). */
export async function warmUp(b: ChangeBench): Promise<Warm> {
  await sleep(1000); // the bench pod's own events (created Pending, then Ready) have landed
  const readyCount = problems(b)!;
  const notReadyCount = readyCount + 1;
  await waitFor('the dashboard drawing the contexts table', () => b.vt.screen().some((l) => l.slice(2).startsWith(`${b.context} `)), {
    timeoutMs: 30_000,
  });

  const cellReady = await settle(b, readyCount);
  b.pod = await setReady(b.api, b.pod, false, b.started);
  const cellNotReady = await settle(b, notReadyCount);
  b.pod = await setReady(b.api, b.pod, true, b.started);
  await settle(b, readyCount);
  const onScreen = cellReady !== undefined && cellNotReady !== undefined && cellReady !== cellNotReady;
  if (!onScreen) {
    progress(
      `figure 3: the contexts table has no PODS cell that changes (${JSON.stringify(cellReady)} / ${JSON.stringify(cellNotReady)}); measuring until the store has the change`,
    );
  }
  return { readyCount, notReadyCount, cellReady, cellNotReady, onScreen };
}

/** When the store first has `wantCount` problems (undefined after 10 s). */
function storeHas(b: ChangeBench, wantCount: number): Promise<number | undefined> {
  return new Promise<number | undefined>((resolve) => {
    const timer = setTimeout(() => done(undefined), 10_000);
    const unsubscribe = b.store.subscribe(() => {
      if (problems(b) === wantCount) done(performance.now());
    });
    function done(at: number | undefined) {
      clearTimeout(timer);
      unsubscribe();
      resolve(at);
    }
  });
}

/** When the side watch first delivers the pod as `ready` (undefined after 10 s). */
function watchSees(b: ChangeBench, ready: boolean): Promise<number | undefined> {
  return new Promise<number | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), 10_000);
    b.onWatchEvent = (r) => {
      if (r !== ready) return;
      clearTimeout(timer);
      b.onWatchEvent = undefined;
      resolve(performance.now());
    };
  });
}

/** Change i's timings, from the write (ms); store and screen undefined when not shown within 10 s. */
interface OneChange {
  roundTrip: number;
  event?: number;
  store?: number;
  screen?: number;
  storeToScreen?: number;
}

/** Writes change i (NotReady when i is even, Ready when odd) and times it to the store, the screen and the side watch. */
async function oneChange(b: ChangeBench, warm: Warm, i: number): Promise<OneChange> {
  const ready = i % 2 === 1; // starts Ready: NotReady, Ready, NotReady, …
  const wantCount = ready ? warm.readyCount : warm.notReadyCount;
  const wantCell = ready ? warm.cellReady : warm.cellNotReady;
  // Waiters first, then the write: nothing can be missed.
  const storeAt = storeHas(b, wantCount);
  const screenAt = warm.onScreen ? b.vt.waitForScreen(() => cell(b) === wantCell, 10_000) : storeAt;
  const eventAt = watchSees(b, ready);
  const t0 = performance.now();
  try {
    b.pod = await setReady(b.api, b.pod, ready, b.started);
  } catch (err) {
    progress(`figure 3: writing the status failed: ${errorLine(err)}; reading the pod again`);
    b.pod = await b.api.readNamespacedPod({ name: POD, namespace: BENCH_NAMESPACE });
    b.pod = await setReady(b.api, b.pod, ready, b.started);
  }
  const roundTrip = performance.now() - t0;
  const [s, f, e] = await Promise.all([storeAt, screenAt, eventAt]);
  const event = e === undefined ? undefined : e - t0;
  if (s === undefined || f === undefined) {
    // Resynchronise: wait for the state to show before the next change.
    await settle(b, wantCount).catch(() => {});
    return { roundTrip, event };
  }
  return { roundTrip, event, store: s - t0, screen: f - t0, storeToScreen: f - s };
}

/** `changes` status changes, each timed; with the terminal's counters before them and the seconds they took. */
export async function measureChanges(b: ChangeBench, warm: Warm, changes: number) {
  const toScreen: number[] = [];
  const toStore: number[] = [];
  const toEvent: number[] = [];
  const storeToScreen: number[] = [];
  const roundTrip: number[] = [];
  let timeouts = 0;
  const writesBefore = b.vt.writes;
  const bytesBefore = b.vt.written;
  const t0All = performance.now();
  progress(`figure 3: ${changes} status changes`);
  for (let i = 0; i < changes; i++) {
    const c = await oneChange(b, warm, i);
    roundTrip.push(c.roundTrip);
    if (c.event !== undefined) toEvent.push(c.event);
    if (c.store === undefined || c.screen === undefined || c.storeToScreen === undefined) {
      timeouts++;
    } else {
      toStore.push(c.store);
      toScreen.push(c.screen);
      storeToScreen.push(c.storeToScreen);
    }
    // A random pause, so that changes land at every phase of the frame-rate cap.
    await sleep(50 + Math.random() * 200);
  }
  const secs = (performance.now() - t0All) / 1000;
  return { toScreen, toStore, toEvent, storeToScreen, roundTrip, timeouts, writesBefore, bytesBefore, secs };
}
