/**
 * The drain's bookkeeping for one node: the pods to evict or delete (targets) and what became
 * of each, the pods the watch sees on the node now, the budgets holding pods up, the latest
 * error; the progress made of them, reported when it changes.
 */
import type { PdbRef } from '../../kube/pods/pdb.js';
import type { DrainPod, PodClassification } from './filters.js';

export interface DrainProgress {
  node: string;
  /** Pods on the node when the drain started (all of them, ignored ones included). */
  total: number;
  evicted: number;
  /** DaemonSet and mirror pods, which stay. */
  ignored: number;
  /** Finished pods deleted. */
  deleted: number;
  failed: number;
  /** Pods still to be evicted or deleted (or evicted and not gone yet). */
  remaining: number;
  /** The budget that refused the latest eviction of a pod that is still waiting. */
  blockingPdb?: PdbRef;
  /** The pod (namespace/name) whose eviction that budget refused. */
  blockedPod?: string;
  /** Evictions refused by a budget so far (each retry counts). */
  refusals?: number;
  lastError?: string;
}

export type TargetState = 'pending' | 'gone' | 'failed';

export interface Target {
  cls: PodClassification;
  pod: DrainPod;
  state: TargetState;
  error?: string;
}

/** The "uid" of errors of the watch itself (cleared by the next successful list). */
export const WATCH_ERROR = 'watch';

export class DrainTracker {
  /** uids of the node's pods as the watch sees them now. */
  readonly present = new Set<string>();
  readonly targets = new Map<string, Target>();
  /** The budget that refused each waiting pod's latest eviction, latest last. */
  readonly blocked = new Map<string, PdbRef>();
  /** The pods (namespace/name) of the blocked uids. */
  private readonly blockedPods = new Map<string, string>();
  private refusals = 0;
  classes: PodClassification[] = [];
  lastError: string | undefined;
  /** The pod the last error was about: the error is cleared once that pod is evicted or gone. */
  private lastErrorUid: string | undefined;
  private lastEmitted = '';
  private check: () => void = () => {};

  constructor(
    readonly node: string,
    private readonly onProgress: (p: DrainProgress) => void,
  ) {}

  setError(uid: string | undefined, message: string): void {
    this.lastError = message;
    this.lastErrorUid = uid;
  }

  clearErrorOf(uid: string): void {
    if (this.lastErrorUid !== uid) return;
    this.lastError = undefined;
    this.lastErrorUid = undefined;
  }

  /** A budget refused the pod's eviction: it is the one shown (the latest refusal). */
  setBlocked(uid: string, ref: PdbRef, pod?: string): void {
    this.blocked.delete(uid);
    this.blocked.set(uid, ref);
    if (pod) this.blockedPods.set(uid, pod);
    this.refusals++;
  }

  progress(): DrainProgress {
    let evicted = 0;
    let deleted = 0;
    let failed = 0;
    let remaining = 0;
    for (const t of this.targets.values()) {
      if (t.state === 'failed') failed++;
      else if (t.state === 'pending') remaining++;
      else if (t.cls.action === 'delete') deleted++;
      else evicted++;
    }
    const ignored = this.classes.filter((c) => c.action === 'ignored-daemonset' || c.action === 'skipped-mirror').length;
    const blockingUid = [...this.blocked.keys()].at(-1);
    const blocking = blockingUid === undefined ? undefined : this.blocked.get(blockingUid);
    const blockedPod = blockingUid === undefined ? undefined : this.blockedPods.get(blockingUid);
    return {
      node: this.node,
      total: this.classes.length,
      evicted,
      ignored,
      deleted,
      failed,
      remaining,
      ...(blocking ? { blockingPdb: blocking } : {}),
      ...(blockedPod ? { blockedPod } : {}),
      ...(this.refusals ? { refusals: this.refusals } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
    };
  }

  /** Reports the progress, unless it is the same as the last one reported. */
  emit(): void {
    const p = this.progress();
    const key = JSON.stringify(p);
    if (key === this.lastEmitted) return;
    this.lastEmitted = key;
    this.onProgress(p);
  }

  /** The eviction (or deletion) of a pod was accepted: the watch says when it is gone. */
  accepted(uid: string): void {
    this.blocked.delete(uid);
    this.clearErrorOf(uid);
    this.emit();
  }

  markGone(uid: string): void {
    const t = this.targets.get(uid);
    if (t?.state !== 'pending') return;
    t.state = 'gone';
    this.blocked.delete(uid);
    this.clearErrorOf(uid);
    this.emit();
    this.check();
  }

  markFailed(uid: string, why: string): void {
    const t = this.targets.get(uid);
    if (t?.state !== 'pending') return;
    t.state = 'failed';
    t.error = why;
    this.blocked.delete(uid);
    this.setError(undefined, `${t.cls.namespace}/${t.cls.name}: ${why}`);
    this.emit();
    this.check();
  }

  /** The pods to evict or delete (after the classification); a pod the watch no longer sees is gone already. */
  addTargets(pods: readonly DrainPod[]): void {
    const byUid = new Map(pods.map((p) => [p.metadata?.uid ?? '', p]));
    for (const c of this.classes) {
      if (c.action !== 'evict' && c.action !== 'delete') continue;
      this.targets.set(c.uid, { cls: c, pod: byUid.get(c.uid) ?? {}, state: this.present.has(c.uid) ? 'pending' : 'gone' });
    }
    this.emit();
  }

  /** The watch listed the node's pods (again): every target not among them is gone. */
  listed(items: readonly DrainPod[]): void {
    this.clearErrorOf(WATCH_ERROR);
    this.present.clear();
    for (const p of items) this.present.add(p.metadata?.uid ?? '');
    for (const uid of this.targets.keys()) if (!this.present.has(uid)) this.markGone(uid);
    if (this.targets.size) this.emit();
  }

  inState(state: TargetState): Target[] {
    return [...this.targets.values()].filter((t) => t.state === state);
  }

  /** Resolves when no target is pending any more. */
  allSettled(): Promise<void> {
    const done = new Promise<void>((resolve) => {
      this.check = () => {
        for (const t of this.targets.values()) if (t.state === 'pending') return;
        resolve();
      };
    });
    this.check();
    return done;
  }
}
