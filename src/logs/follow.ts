/**
 * `fleetdeck logs -f`, as stern follows: lines printed as they come; the pods of each scope
 * watched, so a pod that appears joins (read from its start) and a deleted pod's streams end; a
 * stream that ends because its container restarted is re-opened for the new instance, and one
 * dropped while its container still runs resumes after the last line printed. Runs until the
 * signal (Ctrl-C, SIGTERM, SIGHUP), or — when every scope names one pod — until those pods are
 * gone or finished.
 */
import { streamPodLog } from '../kube/pods/pod-logs.js';
import { watchLogPods, type LogContainerStatus, type LogPod } from '../kube/pods/workloads.js';
import type { LogSink } from './collect.js';
import { sourceKey, type LogSource } from './format.js';
import { firstRead, streamError, type LogRequest } from './request.js';
import { advance, skipSeen, type ResumePoint } from './resume.js';
import { afterEnd, hasLog, instanceOf, isNewInstance } from './decide.js';
import { isOnePod, nothingMatched, podSources, type ResolvedScope, type ScopePods } from './scope.js';

interface Tail {
  source: LogSource;
  scope: ResolvedScope;
  open: boolean;
  /** The container instance read last (decide.ts instanceOf). */
  instance: string;
  point: ResumePoint | undefined;
  abort: AbortController;
  retry: NodeJS.Timeout | undefined;
  backoffMs: number;
  /** The last error said for this stream: a retry failing the same way says nothing new. */
  lastError?: string;
}

type Mode = 'first' | 'from-start' | 'resume';

/** The message of kubectl when a follow would open more streams than allowed. */
export function tooManyStreams(n: number, max: number): string {
  return `you are attempting to follow ${n} log streams, but maximum allowed concurrency is ${max}, use --max-log-requests to increase the limit`;
}

export function followLogs(listed: readonly ScopePods[], req: LogRequest, sink: LogSink, signal: AbortSignal): Promise<number> {
  return new Follower(listed, req, sink, signal).run();
}

const podKey = (scope: ResolvedScope, name: string) => `${scope.context}/${scope.namespace}/${name}`;

class Follower {
  private readonly tails = new Map<string, Tail>();
  private readonly pods = new Map<string, LogPod>();
  private readonly onePodOnly: boolean;
  private readonly watches: { stop: () => Promise<void> }[] = [];
  private warnedLimit = false;
  private finished = false;
  private resolve: (code: number) => void = () => {};

  constructor(
    private readonly listed: readonly ScopePods[],
    private readonly req: LogRequest,
    private readonly sink: LogSink,
    private readonly signal: AbortSignal,
  ) {
    this.onePodOnly = listed.every((l) => isOnePod(l.scope));
  }

  run(): Promise<number> {
    return new Promise<number>((resolve) => {
      this.resolve = resolve;
      this.signal.addEventListener('abort', this.onSignal, { once: true });
      if (this.signal.aborted) return this.finish(0);
      if (this.listed.every((l) => l.pods.length === 0)) {
        this.sink.warn(`${nothingMatched(this.listed.map((l) => l.scope))} yet; waiting for them (Ctrl-C to stop)`);
      }
      for (const { scope, pods } of this.listed) this.watchScope(scope, pods);
      this.checkDone();
    });
  }

  private readonly onSignal = () => this.finish(0);

  private finish(code: number): void {
    if (this.finished) return;
    this.finished = true;
    this.signal.removeEventListener('abort', this.onSignal);
    for (const t of this.tails.values()) {
      t.abort.abort();
      clearTimeout(t.retry);
    }
    void Promise.all(this.watches.map((w) => w.stop())).then(() => this.resolve(code));
  }

  private watchScope(scope: ResolvedScope, initial: readonly LogPod[]): void {
    const seen = new Set(initial.map((p) => p.name));
    // Pods there at the start get the user's --tail/--since; pods that appear later, their whole log.
    const mode = (p: LogPod): Mode => (seen.has(p.name) ? 'first' : 'from-start');
    for (const pod of initial) this.reconcile(scope, pod, 'first');
    const prefix = `${scope.context}/${scope.namespace}/`;
    let lastError: string | undefined;
    this.watches.push(
      watchLogPods(scope.kc, scope.namespace, scope.query, {
        onList: (items) => {
          const names = new Set(items.map((p) => p.name));
          for (const key of [...this.pods.keys()]) {
            const name = key.slice(prefix.length);
            if (!key.startsWith(prefix) || names.has(name)) continue;
            seen.delete(name);
            this.remove(scope, name);
          }
          for (const p of items) this.reconcile(scope, p, mode(p));
        },
        onEvent: (type, pod) => {
          // A pod of the same name made again later (a StatefulSet's) is a new pod: read from its start.
          if (type === 'DELETED') {
            seen.delete(pod.name);
            this.remove(scope, pod.name);
          } else this.reconcile(scope, pod, mode(pod));
          lastError = undefined;
        },
        onError: (message) => {
          if (message !== lastError) this.sink.warn(`context ${scope.context}: watching pods: ${message}`);
          lastError = message;
        },
      }),
    );
  }

  private openCount(): number {
    return [...this.tails.values()].filter((t) => t.open).length;
  }

  private start(t: Tail, status: LogContainerStatus, mode: Mode): void {
    if (this.finished) return;
    t.open = true;
    t.instance = instanceOf(status);
    const abort = new AbortController();
    t.abort = abort;
    const { source } = t;
    const opts =
      mode === 'first'
        ? firstRead(this.req, source.container)
        : { container: source.container, follow: true, ...(mode === 'resume' && t.point ? { sinceTime: t.point.time } : {}) };
    const keep = mode === 'resume' ? skipSeen(t.point) : () => true;
    streamPodLog(
      t.scope.kc,
      source.namespace,
      source.pod,
      opts,
      (entry) => {
        if (!keep(entry)) return;
        t.point = advance(t.point, entry);
        t.backoffMs = 1000;
        t.lastError = undefined;
        this.sink.line(source, entry);
      },
      abort.signal,
    )
      .catch((err: unknown) => {
        if (abort.signal.aborted) return;
        const message = streamError(source, err);
        if (message !== t.lastError) this.sink.warn(message);
        t.lastError = message;
      })
      .finally(() => {
        if (t.abort !== abort) return;
        t.open = false;
        if (!abort.signal.aborted) this.ended(t);
      });
  }

  /** A stream ended by itself: a new instance, the same one again later, a wait, or the end. */
  private ended(t: Tail): void {
    const key = podKey(t.scope, t.source.pod);
    const next = afterEnd(this.pods.get(key), t.source.container, t.instance);
    if (next === 'from-start') return this.start(t, this.pods.get(key)!.statuses[t.source.container]!, 'from-start');
    if (next === 'resume') {
      t.retry = setTimeout(() => {
        t.retry = undefined;
        if (t.open || this.tails.get(sourceKey(t.source)) !== t) return;
        const now = this.pods.get(key)?.statuses[t.source.container];
        if (now && isNewInstance(now, t.instance)) this.start(t, now, 'from-start');
        else if (now?.state === 'running') this.start(t, now, 'resume');
      }, t.backoffMs);
      t.backoffMs = Math.min(t.backoffMs * 2, 30_000);
      return;
    }
    this.checkDone();
  }

  /** Only named pods: the run ends when they are gone or finished and every stream has ended. */
  private checkDone(): void {
    if (!this.onePodOnly) return;
    const live = [...this.pods.values()].some((p) => !p.finished) || [...this.tails.values()].some((t) => t.open || t.retry);
    if (!live) this.finish(0);
  }

  private reconcile(scope: ResolvedScope, pod: LogPod, mode: Mode): void {
    this.pods.set(podKey(scope, pod.name), pod);
    let sources: LogSource[];
    try {
      sources = podSources(scope, pod, this.req);
    } catch (err) {
      this.sink.warn((err as Error).message);
      return;
    }
    for (const source of sources) {
      const status = pod.statuses[source.container];
      const t = this.tails.get(sourceKey(source));
      if (t) {
        if (status && !t.open && !t.retry && isNewInstance(status, t.instance)) this.start(t, status, 'from-start');
      } else if (hasLog(status)) {
        this.add(scope, source, status, mode);
      }
    }
  }

  private add(scope: ResolvedScope, source: LogSource, status: LogContainerStatus, mode: Mode): void {
    const key = sourceKey(source);
    if (this.openCount() >= this.req.maxLogRequests) {
      if (!this.warnedLimit) this.sink.warn(`not following ${key}: ${tooManyStreams(this.openCount() + 1, this.req.maxLogRequests)}`);
      this.warnedLimit = true;
      return;
    }
    const tail: Tail = {
      source,
      scope,
      open: false,
      instance: '',
      point: undefined,
      abort: new AbortController(),
      retry: undefined,
      backoffMs: 1000,
    };
    this.tails.set(key, tail);
    this.start(tail, status, mode);
  }

  private remove(scope: ResolvedScope, name: string): void {
    this.pods.delete(podKey(scope, name));
    for (const [key, t] of this.tails) {
      if (t.scope !== scope || t.source.pod !== name) continue;
      t.abort.abort();
      clearTimeout(t.retry);
      this.tails.delete(key);
    }
    this.checkDone();
  }
}
