/**
 * The eviction loop for one pod, as kubectl's drain has it: evict (or, without an eviction API
 * or for a finished pod, delete) with a UID precondition; a 429 is retried with backoff and the
 * PodDisruptionBudget behind it read and reported; a pod that is gone or replaced by another
 * of the same name (UID) counts as gone; a pod in a terminating namespace is left to the
 * namespace controller; transient errors are retried a few times. Abortable.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { describeError, statusCode } from '../../kube/transport/client.js';
import type { EvictionVersion } from '../../kube/api/discovery.js';
import { causeReasons, evictPod, isTransient } from '../../kube/pods/eviction.js';
import { listPdbs, pdbRef, pdbSelectsPod, type PdbObject } from '../../kube/pods/pdb.js';
import { deletePod, readPodUid } from '../../kube/pods/pod-ops.js';
import { abortable, abortReason, sleep } from '../abortable.js';
import type { DrainTracker, Target } from './tracker.js';

/** Tries of a pod that is still ours after a 404/409, and of transient errors. */
const TRANSIENT_TRIES = 5;

export interface EvictContext {
  kc: KubeConfig;
  version: EvictionVersion;
  tracker: DrainTracker;
  /** The drain's signal: the caller's abort, the timeout, or the end of the drain. */
  signal: AbortSignal;
  /** Grace period for evicted and deleted pods (default: each pod's own). */
  gracePeriodSeconds?: number;
  /** The budgets of a namespace (read after a 429, shared briefly). */
  pdbsOf: (namespace: string) => Promise<PdbObject[]>;
}

interface Attempts {
  tooMany: number;
  transient: number;
}

type Next = 'retry' | 'stop';

/** Backoff after a 429 or a transient error: 1 s, 2 s, 4 s, then 5 s, with jitter. */
function backoffMs(attempt: number): number {
  const base = Math.min(5_000, 1_000 * 2 ** attempt);
  return base * (0.75 + Math.random() * 0.25);
}

/** PDB reads after 429s, shared for a second per namespace. */
export function pdbCache(kc: KubeConfig, version: EvictionVersion): (namespace: string) => Promise<PdbObject[]> {
  const reads = new Map<string, { at: number; p: Promise<PdbObject[]> }>();
  return (namespace) => {
    const cached = reads.get(namespace);
    if (cached && performance.now() - cached.at < 1_000) return cached.p;
    const p = listPdbs(kc, version, namespace);
    p.catch(() => {});
    reads.set(namespace, { at: performance.now(), p });
    return p;
  };
}

function request(ctx: EvictContext, t: Target, evict: boolean): Promise<void> {
  const { namespace, name, uid } = t.cls;
  const o = { uid, ...(ctx.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: ctx.gracePeriodSeconds } : {}) };
  if (evict && ctx.version !== 'none') return evictPod(ctx.kc, ctx.version, namespace, name, o);
  return deletePod(ctx.kc, namespace, name, o);
}

/** After a 404 or 409: is the pod we meant gone (not found, or another pod by that name)? */
async function isReplacedOrGone(ctx: EvictContext, t: Target): Promise<boolean> {
  const uid = await readPodUid(ctx.kc, t.cls.namespace, t.cls.name);
  return uid !== t.cls.uid;
}

/** A 429: a budget (or the server's rate limits). Finds the budget by reading the PDBs that cover the pod, says so, backs off. */
async function tooManyRequests(ctx: EvictContext, t: Target, err: unknown, n: Attempts): Promise<void> {
  const { namespace, name, uid } = t.cls;
  let covering: PdbObject[] = [];
  try {
    covering = (await abortable(ctx.pdbsOf(namespace), ctx.signal)).filter((b) => pdbSelectsPod(b, t.pod));
  } catch (e) {
    if (ctx.signal.aborted) throw abortReason(ctx.signal);
    ctx.tracker.setError(uid, `reading PodDisruptionBudgets of ${namespace}: ${describeError(e)}`);
  }
  const pdb = covering[0];
  if (pdb) {
    const ref = pdbRef(pdb);
    ctx.tracker.setBlocked(uid, ref, `${namespace}/${name}`);
    const why = `eviction refused by PodDisruptionBudget ${ref.namespace}/${ref.name} (${ref.disruptionsAllowed} disruptions allowed)`;
    ctx.tracker.setError(uid, `${namespace}/${name}: ${why}; retrying`);
  } else {
    ctx.tracker.setError(uid, `${namespace}/${name}: ${describeError(err)}; retrying`);
  }
  ctx.tracker.emit();
  await sleep(backoffMs(n.tooMany++), ctx.signal);
}

/** The eviction API refuses pods covered by several budgets (HTTP 500): say which, and fail the pod. */
async function coveredBySeveral(ctx: EvictContext, t: Target): Promise<boolean> {
  const covering = await abortable(ctx.pdbsOf(t.cls.namespace), ctx.signal).then(
    (all) => all.filter((b) => pdbSelectsPod(b, t.pod)),
    () => [],
  );
  if (covering.length <= 1) return false;
  const names = covering.map((b) => b.metadata?.name).join(', ');
  ctx.tracker.markFailed(t.cls.uid, `covered by ${covering.length} PodDisruptionBudgets (${names}), which the eviction API refuses`);
  return true;
}

/** What to do after a refused request. */
async function afterRefusal(ctx: EvictContext, t: Target, err: unknown, evict: boolean, n: Attempts): Promise<Next> {
  const { namespace, name, uid } = t.cls;
  const code = statusCode(err);
  if (code === 404 || code === 409) {
    if (await abortable(isReplacedOrGone(ctx, t), ctx.signal)) {
      ctx.tracker.markGone(uid);
      return 'stop';
    }
    if (n.transient++ < TRANSIENT_TRIES) return 'retry'; // a conflict on a pod that is still ours: try again
  }
  if (code === 429) {
    await tooManyRequests(ctx, t, err, n);
    return 'retry';
  }
  if (code === 403 && causeReasons(err).includes('NamespaceTerminating')) {
    // Evictions in a terminating namespace are refused; the namespace controller deletes its pods anyway: wait for the watch.
    ctx.tracker.setError(uid, `${namespace}/${name}: namespace ${namespace} is terminating; waiting for its pods to be deleted`);
    ctx.tracker.emit();
    return 'stop';
  }
  if (code === 500 && evict && (await coveredBySeveral(ctx, t))) return 'stop';
  if (isTransient(err) && n.transient < TRANSIENT_TRIES) {
    ctx.tracker.setError(uid, `${namespace}/${name}: ${describeError(err)}; retrying`);
    ctx.tracker.emit();
    await sleep(backoffMs(n.transient++), ctx.signal);
    return 'retry';
  }
  ctx.tracker.markFailed(uid, describeError(err));
  return 'stop';
}

/** Evicts (or deletes) one pod until the request is accepted, the pod is gone, or it failed; the watch says when it is gone. */
export async function removePod(ctx: EvictContext, t: Target): Promise<void> {
  const evict = t.cls.action === 'evict' && ctx.version !== 'none';
  const n: Attempts = { tooMany: 0, transient: 0 };
  while (t.state === 'pending') {
    ctx.signal.throwIfAborted();
    try {
      await abortable(request(ctx, t, evict), ctx.signal);
      ctx.tracker.accepted(t.cls.uid);
      return;
    } catch (err) {
      if (ctx.signal.aborted) throw abortReason(ctx.signal);
      if ((await afterRefusal(ctx, t, err, evict, n)) === 'stop') return;
    }
  }
}

/** Removes the pending targets, `concurrency` at a time. A pod whose removal throws is failed; an abort rejects. */
export async function removeAll(ctx: EvictContext, concurrency: number): Promise<void> {
  const queue = ctx.tracker.inState('pending');
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      if (t.state !== 'pending') continue;
      try {
        await removePod(ctx, t);
      } catch (err) {
        if (ctx.signal.aborted) throw abortReason(ctx.signal);
        ctx.tracker.markFailed(t.cls.uid, describeError(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), queue.length) }, worker));
}
