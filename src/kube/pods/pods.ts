import type { Sync } from '../watch/sync.js';
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { toMs } from '../watch/list.js';
import type { WatchEventType } from '../watch/watch.js';

/** At most this many problem pods are published (worst first); `problemCount` is the true total. */
export const PROBLEM_LIMIT = 200;

/** What the tracker keeps per pod: its phase and, when it needs attention, why. */
export interface PodState {
  phase: PodPhase;
  problem?: PodProblem;
}

const PHASES: readonly PodPhase[] = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];

/** One shared record per phase for the pods that need no attention (most of them). */
const HEALTHY: Readonly<Record<PodPhase, PodState>> = Object.freeze({
  Pending: Object.freeze({ phase: 'Pending' }),
  Running: Object.freeze({ phase: 'Running' }),
  Succeeded: Object.freeze({ phase: 'Succeeded' }),
  Failed: Object.freeze({ phase: 'Failed' }),
  Unknown: Object.freeze({ phase: 'Unknown' }),
});

/** The one shared state of a pod in `phase` that needs no attention. */
export function healthyState(phase: PodPhase): PodState {
  return HEALTHY[phase];
}

function toPhase(phase: string | undefined): PodPhase {
  if (phase === undefined || phase === '') return 'Pending';
  return (PHASES as readonly string[]).includes(phase) ? (phase as PodPhase) : 'Unknown';
}

function terminatedReason(t: { reason?: string; signal?: number; exitCode: number }): string {
  if (t.reason) return t.reason;
  return t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode}`;
}

/**
 * The pod's state, with the reason worded like kubectl's STATUS column:
 * `Unschedulable: <scheduler message>`, `CrashLoopBackOff`, `ImagePullBackOff`, `ErrImagePull`,
 * `CreateContainerConfigError`, `ContainerCreating`, `Init:CrashLoopBackOff`, `Init:Error`,
 * `Init:0/1`, `Error`, `OOMKilled`, `ExitCode:N`, `Evicted`, `Terminating`, `Unknown`,
 * `NotReady (1/2 ready)`. Succeeded pods and Running pods whose Ready condition is True are
 * no problem. Time plays no part (a state that changed without a watch event would go stale);
 * ages are derived from `createdAt` when shown.
 */
export function podState(pod: V1Pod): PodState {
  const status = pod.status ?? {};
  const phase = toPhase(status.phase);
  const deleting = pod.metadata?.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
  const conditions = status.conditions ?? [];
  const podReady = conditions.some((c) => c.type === 'Ready' && c.status === 'True');
  if (phase === 'Succeeded' || (phase === 'Running' && podReady && !deleting)) return HEALTHY[phase];

  let reason: string = status.reason || phase;
  const scheduled = conditions.find((c) => c.type === 'PodScheduled');
  if (scheduled?.reason === 'SchedulingGated') reason = 'SchedulingGated';

  // Init containers, as kubectl reads them: the first one not done decides.
  const initSpecs = pod.spec?.initContainers ?? [];
  const sidecar = (name: string) => initSpecs.find((c) => c.name === name)?.restartPolicy === 'Always';
  let total = (pod.spec?.containers?.length ?? 0) + initSpecs.filter((c) => c.restartPolicy === 'Always').length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (const [i, c] of initStatuses.entries()) {
    restarts += c.restartCount ?? 0;
    const isSidecar = sidecar(c.name);
    if (isSidecar) sidecarRestarts += c.restartCount ?? 0;
    const terminated = c.state?.terminated;
    const waiting = c.state?.waiting?.reason;
    if (terminated && terminated.exitCode === 0) continue;
    if (isSidecar && c.started) {
      if (c.ready) ready++;
      continue;
    }
    if (terminated) reason = `Init:${terminatedReason(terminated)}`;
    else if (waiting && waiting !== 'PodInitializing') reason = `Init:${waiting}`;
    else reason = `Init:${i}/${initSpecs.length || initStatuses.length}`;
    initializing = true;
    break;
  }

  const initialized = conditions.some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    let hasRunning = false;
    const statuses: V1ContainerStatus[] = status.containerStatuses ?? [];
    // Backwards, so that the first container's reason wins (as in kubectl).
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i]!;
      restarts += c.restartCount ?? 0;
      const waiting = c.state?.waiting?.reason;
      const terminated = c.state?.terminated;
      if (waiting) reason = waiting;
      else if (terminated) reason = terminatedReason(terminated);
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = podReady ? 'Running' : 'NotReady';
    if (statuses.length > total) total = statuses.length;
  }

  if (deleting && status.reason === 'NodeLost') reason = 'Unknown';
  else if (deleting && phase !== 'Failed') reason = 'Terminating';
  else if (phase === 'Failed' && status.reason)
    reason = status.reason; // Evicted, NodeAffinity, Shutdown…
  else if (phase === 'Pending' && scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    reason = scheduled.message ? `Unschedulable: ${oneLine(scheduled.message)}` : 'Unschedulable';
  } else if (phase === 'Running' && (reason === 'Running' || reason === 'NotReady' || reason === 'Completed')) {
    reason = `NotReady (${ready}/${total} ready)`;
  }

  return { phase, problem: problemOf(pod, phase, reason, restarts) };
}

/** The record of a pod that needs attention: who and where it is, and the worded reason. */
function problemOf(pod: V1Pod, phase: PodPhase, reason: string, restarts: number): PodProblem {
  const problem: PodProblem = {
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
    phase,
    reason,
    restarts,
  };
  if (pod.spec?.nodeName) problem.node = pod.spec.nodeName;
  const createdAt = toMs(pod.metadata?.creationTimestamp);
  if (createdAt !== undefined) problem.createdAt = createdAt;
  return problem;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

const WAITING_REASONS = /^(Unschedulable|Pending|ContainerCreating|PodInitializing|SchedulingGated|Init:\d+\/\d+)\b/;

/**
 * How bad a problem is, 0 worst: 0 failing (CrashLoopBackOff, image pulls, config errors,
 * Failed, Evicted, Unknown and any reason not recognised), 1 waiting (Pending, Unschedulable,
 * ContainerCreating, Init:0/1), 2 NotReady, 3 Terminating.
 */
export function problemSeverity(p: PodProblem): number {
  if (p.phase === 'Failed' || p.phase === 'Unknown') return 0;
  if (p.reason === 'Terminating') return 3;
  if (p.reason.startsWith('NotReady')) return 2;
  if (WAITING_REASONS.test(p.reason)) return 1;
  return 0;
}

/** Worst first, then by namespace and name. */
function byRank(a: { p: PodProblem; severity: number }, b: { p: PodProblem; severity: number }): number {
  if (a.severity !== b.severity) return a.severity - b.severity;
  const x = a.p;
  const y = b.p;
  if (x.namespace !== y.namespace) return x.namespace < y.namespace ? -1 : 1;
  return x.name < y.name ? -1 : x.name > y.name ? 1 : 0;
}

/**
 * The `limit` worst problems, in order. Each problem's severity is worked out once, and only the
 * `limit` best so far are kept sorted: 50,000 pending pods cost 50,000 comparisons with the last
 * kept, not a sort of all 50,000.
 */
function worstFirst(problems: Iterable<PodProblem>, limit: number): PodProblem[] {
  const kept: { p: PodProblem; severity: number }[] = [];
  if (limit <= 0) return [];
  for (const p of problems) {
    const r = { p, severity: problemSeverity(p) };
    if (kept.length === limit && byRank(r, kept[limit - 1]!) >= 0) continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byRank(kept[mid]!, r) <= 0) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, r);
    if (kept.length > limit) kept.pop();
  }
  return kept.map((r) => r.p);
}

function sameProblem(a: PodProblem | undefined, b: PodProblem | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.reason === b.reason &&
    a.phase === b.phase &&
    a.restarts === b.restarts &&
    a.node === b.node &&
    a.name === b.name &&
    a.namespace === b.namespace &&
    a.createdAt === b.createdAt
  );
}

/** A pod as a full list leaves it: its key and state, the object itself already dropped. */
export interface PodEntry {
  key: string;
  state: PodState;
}

export function podEntry(pod: V1Pod): PodEntry {
  return { key: keyOf(pod), state: podState(pod) };
}

const keyOf = (pod: V1Pod): string => pod.metadata?.uid || `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

/**
 * Cluster-wide pod counts kept from watch events: a small record per pod uid (pods that need no
 * attention share one record per phase), counts maintained incrementally, and the sorted problem
 * list rebuilt only when the set of problems changed. No pod object is kept.
 */
export class PodTracker {
  private readonly states = new Map<string, PodState>();
  private readonly problems = new Map<string, PodProblem>();
  private readonly byPhase: Record<PodPhase, number> = { Pending: 0, Running: 0, Succeeded: 0, Failed: 0, Unknown: 0 };
  private sorted: PodProblem[] | undefined;
  /** The first full list has arrived. */
  synced = false;

  constructor(private readonly limit = PROBLEM_LIMIT) {}

  get size(): number {
    return this.states.size;
  }

  /** A full list: replaces everything known. */
  reset(pods: Iterable<V1Pod>): void {
    this.resetEntries(
      (function* () {
        for (const pod of pods) yield podEntry(pod);
      })(),
    );
  }

  /** A full list already reduced to keys and states (see podEntry). */
  resetEntries(entries: Iterable<PodEntry>): void {
    this.clear();
    for (const { key, state } of entries) this.set(key, state);
    this.synced = true;
  }

  /** Forget everything (e.g. listing became forbidden). */
  clear(): void {
    this.states.clear();
    this.problems.clear();
    for (const p of PHASES) this.byPhase[p] = 0;
    this.sorted = undefined;
    this.synced = false;
  }

  /** One watch event; false when it changed nothing the summary shows. */
  apply(type: WatchEventType, pod: V1Pod): boolean {
    const key = keyOf(pod);
    if (type === 'DELETED') return this.remove(key);
    return this.set(key, podState(pod));
  }

  private remove(key: string): boolean {
    const old = this.states.get(key);
    if (!old) return false;
    this.states.delete(key);
    this.byPhase[old.phase]--;
    if (old.problem) {
      this.problems.delete(key);
      this.sorted = undefined;
    }
    return true;
  }

  private set(key: string, next: PodState): boolean {
    const old = this.states.get(key);
    if (old && old.phase === next.phase && sameProblem(old.problem, next.problem)) return false;
    if (old) this.byPhase[old.phase]--;
    this.byPhase[next.phase]++;
    this.states.set(key, next);
    if (old?.problem || next.problem) {
      if (next.problem) this.problems.set(key, next.problem);
      else this.problems.delete(key);
      this.sorted = undefined;
    }
    return true;
  }

  summary(): PodsSummary {
    this.sorted ??= worstFirst(this.problems.values(), this.limit);
    return {
      synced: this.synced,
      total: this.states.size,
      byPhase: { ...this.byPhase },
      problems: this.sorted,
      problemCount: this.problems.size,
    };
  }
}

/**
 * The parts of a pod that `podState` reads, nothing else: a page of the initial list is
 * reduced to this at once, so listing 50,000 pods never holds 50,000 full objects.
 */
export function slimPod(pod: V1Pod): V1Pod {
  const m = pod.metadata;
  const s = pod.status;
  const container = (c: { name: string; restartPolicy?: string }) =>
    c.restartPolicy ? { name: c.name, restartPolicy: c.restartPolicy } : { name: c.name };
  const containerStatus = (c: V1ContainerStatus): V1ContainerStatus => {
    const r: V1ContainerStatus = { name: c.name, image: '', imageID: '', ready: c.ready, restartCount: c.restartCount };
    if (c.started !== undefined) r.started = c.started;
    if (c.state) r.state = c.state;
    return r;
  };
  const slim: V1Pod = {
    metadata: {
      ...(m?.uid !== undefined ? { uid: m.uid } : {}),
      ...(m?.name !== undefined ? { name: m.name } : {}),
      ...(m?.namespace !== undefined ? { namespace: m.namespace } : {}),
      ...(m?.creationTimestamp !== undefined ? { creationTimestamp: m.creationTimestamp } : {}),
      ...(m?.deletionTimestamp !== undefined ? { deletionTimestamp: m.deletionTimestamp } : {}),
    },
    spec: {
      containers: (pod.spec?.containers ?? []).map(container),
      ...(pod.spec?.initContainers ? { initContainers: pod.spec.initContainers.map(container) } : {}),
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    },
  };
  if (s) {
    slim.status = {
      ...(s.phase !== undefined ? { phase: s.phase } : {}),
      ...(s.reason !== undefined ? { reason: s.reason } : {}),
      conditions: (s.conditions ?? [])
        .filter((c) => c.type === 'Ready' || c.type === 'PodScheduled' || c.type === 'Initialized')
        .map((c) => ({
          type: c.type,
          status: c.status,
          ...(c.reason ? { reason: c.reason } : {}),
          ...(c.message ? { message: c.message } : {}),
        })),
      ...(s.containerStatuses ? { containerStatuses: s.containerStatuses.map(containerStatus) } : {}),
      ...(s.initContainerStatuses ? { initContainerStatuses: s.initContainerStatuses.map(containerStatus) } : {}),
    };
  }
  return slim;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

/** A pod that is not Running and Ready (and not Succeeded): what an operator must look at. */
export interface PodProblem {
  namespace: string;
  name: string;
  phase: PodPhase;
  /** Pending/Unschedulable: <message>, CrashLoopBackOff, ImagePullBackOff, NotReady (1/2 ready), Terminating… */
  reason: string;
  node?: string;
  restarts: number;
  /** Epoch ms of the pod's creation. */
  createdAt?: number;
}

/** Cluster-wide pod counts: cheap with 50,000 pods (counts and a capped problem list, no objects). */
export interface PodsSummary extends Sync {
  total: number;
  byPhase: Record<PodPhase, number>;
  /** Pods that need attention; at most PROBLEM_LIMIT of them, worst first. */
  problems: PodProblem[];
  /** How many pods need attention in all (may exceed problems.length). */
  problemCount: number;
}

export function emptyPods(): PodsSummary {
  return {
    synced: false,
    total: 0,
    byPhase: { Pending: 0, Running: 0, Succeeded: 0, Failed: 0, Unknown: 0 },
    problems: [],
    problemCount: 0,
  };
}
