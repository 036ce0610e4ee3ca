/** A drain that did not finish, and the one-line messages that say why (refused, failed pods, timeout). */
import { describePdb } from '../../kube/pods/pdb.js';
import type { DrainProgress, DrainTracker } from './tracker.js';

export type DrainErrorKind = 'refused' | 'timeout' | 'failed';

/** A drain that did not finish: refused before it started, timed out, or with pods it could not evict. */
export class DrainError extends Error {
  constructor(
    message: string,
    readonly kind: DrainErrorKind,
    readonly node: string,
    /** The pods concerned: refused ones, the ones left, or the ones that failed (with why). */
    readonly pods: { namespace: string; name: string; reason: string }[],
    readonly progress: DrainProgress | undefined,
    /** True when this drain cordoned the node (it stays cordoned, as with kubectl). */
    readonly cordoned: boolean,
  ) {
    super(message);
    this.name = 'DrainError';
  }
}

const list = (items: string[], max = 8) =>
  items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', ');
const pods = (n: number) => `${n} pod${n === 1 ? '' : 's'}`;

/** Pods need --force or --delete-emptydir-data: nothing was evicted. */
export function refusedError(message: string, tracker: DrainTracker, cordoned: boolean): DrainError {
  const refused = tracker.classes.filter((c) => c.action === 'needs-force' || c.action === 'needs-delete-emptydir-data');
  const concerned = refused.map((c) => ({ namespace: c.namespace, name: c.name, reason: c.reason }));
  return new DrainError(message, 'refused', tracker.node, concerned, tracker.progress(), cordoned);
}

/** Some pods could not be evicted; undefined when none failed. */
export function failedError(tracker: DrainTracker, cordoned: boolean): DrainError | undefined {
  const failed = tracker.inState('failed');
  if (failed.length === 0) return undefined;
  const lines = failed.map((t) => `${t.cls.namespace}/${t.cls.name} (${t.error})`);
  return new DrainError(
    `drain of node ${tracker.node}: ${pods(failed.length)} could not be evicted: ${list(lines)}`,
    'failed',
    tracker.node,
    failed.map((t) => ({ namespace: t.cls.namespace, name: t.cls.name, reason: t.error ?? '' })),
    tracker.progress(),
    cordoned,
  );
}

/** The timeout ran out: what is left, and the budget (or the last error) that held it up. */
export function timeoutError(tracker: DrainTracker, timeoutMs: number, listed: boolean, cordoned: boolean): DrainError {
  const left = tracker.inState('pending');
  const p = tracker.progress();
  const pdb = p.blockingPdb ? `; blocked by ${describePdb(p.blockingPdb)}` : '';
  const what = listed
    ? `${pods(left.length)} left: ${list(left.map((t) => `${t.cls.namespace}/${t.cls.name}`))}`
    : 'the pods of the node could not be listed';
  const last = tracker.lastError && !pdb ? ` (last error: ${tracker.lastError})` : '';
  const reason = (uid: string) => {
    const b = tracker.blocked.get(uid);
    return b ? `blocked by PodDisruptionBudget ${b.name}` : 'not gone yet';
  };
  return new DrainError(
    `drain of node ${tracker.node} timed out after ${Math.round(timeoutMs / 1000)} s: ${what}${pdb}${last}`,
    'timeout',
    tracker.node,
    left.map((t) => ({ namespace: t.cls.namespace, name: t.cls.name, reason: reason(t.cls.uid) })),
    p,
    cordoned,
  );
}
