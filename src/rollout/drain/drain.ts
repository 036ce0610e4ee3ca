/**
 * Cordon and drain one node with kubectl's semantics (k8s.io/kubectl/pkg/drain): cordon, list
 * the node's pods, run them through the filters (filters.ts) — pods that need --force or
 * --delete-emptydir-data stop the drain before anything is evicted —, evict the rest (evict.ts:
 * 429s retried, the PodDisruptionBudget behind them reported), delete finished pods, and wait
 * until every one is gone: a pod counts as gone when it no longer exists or its UID changed,
 * seen through a watch on the node's pods (no polling). Progress through a callback.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { EvictionVersion } from '../../kube/api/discovery.js';
import { evictionVersionOf } from '../../kube/pods/eviction.js';
import { cordon } from '../../kube/nodes/nodes.js';
import { watchNodePods, type PodWatch } from '../../kube/pods/pod-ops.js';
import { abortable } from '../abortable.js';
import { failedError, refusedError, timeoutError, DrainError } from './errors.js';
import { pdbCache, removeAll, type EvictContext } from './evict.js';
import { classifyPods, refusalMessage, type DrainFlags, type DrainPod, type PodClassification } from './filters.js';
import { ownerInfo } from './pods.js';
import { DrainTracker, WATCH_ERROR, type DrainProgress } from './tracker.js';

/** Navarchos' per-node drain timeout. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 15 * 60_000;
/** Evictions in flight at once. */
export const DEFAULT_EVICTION_CONCURRENCY = 32;

export interface DrainOptions {
  force?: boolean;
  deleteEmptyDirData?: boolean;
  /** Per node, from the cordon on (default 15 min, as Navarchos). */
  timeoutMs?: number;
  /** Grace period for evicted and deleted pods (default: each pod's own). */
  gracePeriodSeconds?: number;
  /** Evictions in flight at once (default 32). */
  concurrency?: number;
  /** The eviction API version, when the caller already knows it (else discovered). */
  evictionVersion?: EvictionVersion;
}

export interface DrainResult {
  node: string;
  /** True when this drain cordoned the node (false: it was cordoned already). */
  cordoned: boolean;
  pods: PodClassification[];
  progress: DrainProgress;
}

/** One signal for the whole drain: the caller's abort, the timeout, or the end of the drain. */
function drainSignal(timeoutMs: number, signal: AbortSignal | undefined) {
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort(new Error('drain timeout'));
  }, timeoutMs);
  const onCallerAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: stop.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
      if (!stop.signal.aborted) stop.abort(new Error('drain finished'));
    },
  };
}

/** The watch on the node's pods, feeding the tracker; `first` resolves with the first list. */
function watchTargets(kc: KubeConfig, tracker: DrainTracker): { watch: PodWatch; first: Promise<DrainPod[]>; listed: () => boolean } {
  let listed: DrainPod[] | undefined;
  let onFirst: (pods: DrainPod[]) => void = () => {};
  const first = new Promise<DrainPod[]>((resolve) => (onFirst = resolve));
  const watch = watchNodePods(kc, tracker.node, {
    onList: (items) => {
      if (!listed) {
        listed = items;
        onFirst(items);
      }
      tracker.listed(items);
    },
    onEvent: (type, p) => {
      const uid = p.metadata?.uid ?? '';
      if (type !== 'DELETED') return void tracker.present.add(uid);
      tracker.present.delete(uid);
      tracker.markGone(uid);
    },
    onError: (message) => {
      tracker.setError(WATCH_ERROR, `watching the node's pods: ${message}`);
      if (listed) tracker.emit();
    },
  });
  return { watch, first, listed: () => listed !== undefined };
}

/**
 * Cordons the node (unless it is already), classifies its pods and refuses — before evicting
 * anything — when a pod needs --force or --delete-emptydir-data that was not given (DrainError
 * 'refused', naming the pods and the flag). Then evicts (or, without an eviction API, deletes)
 * the pods concurrently, deletes finished pods, and resolves when every one of them is gone.
 * Progress is reported after every change. Throws DrainError 'timeout' (what is left) after
 * `timeoutMs`, DrainError 'failed' when some pods could not be evicted, and the signal's
 * reason as soon as it aborts. The node stays cordoned in every case, as with kubectl.
 */
export async function drainNode(
  kc: KubeConfig,
  node: string,
  opts: DrainOptions = {},
  onProgress: (p: DrainProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<DrainResult> {
  signal?.throwIfAborted();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const flags: DrainFlags = { force: opts.force ?? false, deleteEmptyDirData: opts.deleteEmptyDirData ?? false };
  const stop = drainSignal(timeoutMs, signal);
  const tracker = new DrainTracker(node, onProgress);
  const pods = watchTargets(kc, tracker);
  let cordoned = false;
  try {
    const version = opts.evictionVersion ?? (await abortable(evictionVersionOf(kc), stop.signal));
    cordoned = await abortable(cordon(kc, node), stop.signal);
    pods.watch.start();
    const listed = await abortable(pods.first, stop.signal);
    tracker.classes = classifyPods(listed, await abortable(ownerInfo(kc, listed), stop.signal), flags);
    const refused = refusalMessage(node, tracker.classes);
    if (refused) throw refusedError(refused, tracker, cordoned);
    tracker.addTargets(listed);
    const done = tracker.allSettled();
    const ctx: EvictContext = { kc, version, tracker, signal: stop.signal, pdbsOf: pdbCache(kc, version) };
    if (opts.gracePeriodSeconds !== undefined) ctx.gracePeriodSeconds = opts.gracePeriodSeconds;
    const workers = removeAll(ctx, opts.concurrency ?? DEFAULT_EVICTION_CONCURRENCY);
    workers.catch(() => {}); // an abort surfaces through the race below
    await abortable(Promise.all([done, workers]), stop.signal);
    const failed = failedError(tracker, cordoned);
    if (failed) throw failed;
    return { node, cordoned, pods: tracker.classes, progress: tracker.progress() };
  } catch (err) {
    if (stop.timedOut() && !(err instanceof DrainError)) throw timeoutError(tracker, timeoutMs, pods.listed(), cordoned);
    throw err;
  } finally {
    stop.dispose();
    await pods.watch.stop();
  }
}
