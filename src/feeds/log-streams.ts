/**
 * The streams of one open log view: one per source (a pod's container) with the slice's
 * switches; the lines that arrive are held here and flushed into the slice's rings on a timer (at
 * most 1000/flushMs store updates a second, whatever the log rate), with each stream's status.
 * While following, a stream that ends is opened again as `fleetdeck logs -f` does it
 * (logs/decide.ts): for the container's new instance once the pod watch shows it restarted, or,
 * dropped while its container runs on, after a back-off; either way after the last line read
 * (logs/resume.ts), so no line is shown twice.
 */
import type { LogEntry, PodLogOptions } from '../kube/pods/pod-logs.js';
import type { LogPod } from '../kube/pods/workloads.js';
import { afterEnd, instanceOf, isNewInstance } from '../logs/decide.js';
import { advance, skipSeen, type ResumePoint } from '../logs/resume.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import { boundedText, type LogsSlice, type StreamStatus } from '../store/logs.js';
import type { LogsWork } from './logs-contract.js';

/** Lines read back when a stream opens. */
export const TAIL_LINES = 500;
/** Store updates at most every this many ms while lines arrive. */
export const FLUSH_MS = 100;

const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** One source's stream: the request in flight, the container instance it reads, the last line read. */
interface Tail {
  ctrl: AbortController;
  open: boolean;
  /** The instance read (decide.ts instanceOf; '' when the pod had no status for it). */
  instance: string;
  point: ResumePoint | undefined;
  retry: NodeJS.Timeout | undefined;
  backoffMs: number;
}

/** What the streams of every view of a feed share. */
export interface StreamsShared {
  store: FleetStore;
  work: LogsWork;
  flushMs?: number;
  tailLines?: number;
  /** Streams not settled yet, of every view (what openStreams counts). */
  running: Set<Promise<void>>;
  /** The next line's sequence number (lines of every source ordered by arrival). */
  nextSeq: () => number;
}

export class ViewStreams {
  private readonly tails = new Map<number, Tail>();
  private pending = new Map<number, LogEntry[]>();
  private status = new Map<number, StreamStatus>();
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  /** `podOf`: the pod of that name as last listed or watched (its containers' states). */
  constructor(
    private readonly shared: StreamsShared,
    private readonly context: string,
    private readonly namespace: string,
    private readonly podOf: (name: string) => LogPod | undefined,
  ) {}

  private get slice(): LogsSlice {
    return this.shared.store.getState().logs;
  }

  /** The lines and statuses held since the last flush, into the slice: one store update. */
  private flush(): void {
    this.timer = undefined;
    if (this.ended || (this.pending.size === 0 && this.status.size === 0)) return;
    const { pending, status } = this;
    this.pending = new Map();
    this.status = new Map();
    updateSlice(this.shared.store, 'logs', (s) => {
      const sources = s.sources.map((src, i) => {
        for (const e of pending.get(i) ?? [])
          src.ring.push({ seq: this.shared.nextSeq(), source: i, time: e.time, text: boundedText(e.text) });
        const next = status.get(i);
        return next !== undefined && next !== src.status ? { ...src, status: next } : src;
      });
      return { ...s, sources, revision: s.revision + 1 };
    });
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.flush(), this.shared.flushMs ?? FLUSH_MS);
  }

  /** Source i's status as the next flush leaves it. */
  private statusOf(i: number): StreamStatus | undefined {
    return this.status.get(i) ?? this.slice.sources[i]?.status;
  }

  private setStatus(i: number, st: StreamStatus): void {
    this.status.set(i, st);
    this.schedule();
  }

  /** A line of source i arrives: held until the next flush (no more than a ring's worth). */
  private hold(i: number, e: LogEntry, capacity: number): void {
    let q = this.pending.get(i);
    if (!q) {
      q = [];
      this.pending.set(i, q);
    }
    if (this.statusOf(i) !== 'streaming') this.status.set(i, 'streaming');
    q.push(e);
    // Lines beyond a ring's capacity would be dropped at the flush anyway.
    if (q.length >= 2 * capacity) q.splice(0, q.length - capacity);
    this.schedule();
  }

  /** Open source i's stream afresh with the slice's switches (its last lines, then followed). */
  open(i: number): void {
    this.drop(i);
    const t: Tail = {
      ctrl: new AbortController(),
      open: false,
      instance: '',
      point: undefined,
      retry: undefined,
      backoffMs: FIRST_BACKOFF_MS,
    };
    this.tails.set(i, t);
    this.start(i, t, 'fresh');
  }

  /** `fresh`: the slice's switches and the tail; `after`: followed from the line after the last one read. */
  private start(i: number, t: Tail, mode: 'fresh' | 'after'): void {
    const s = this.slice;
    const src = s.sources[i];
    if (!src?.container || this.ended) return;
    const ctrl = new AbortController();
    t.ctrl = ctrl;
    t.open = true;
    const status = this.podOf(src.pod)?.statuses[src.container];
    t.instance = status ? instanceOf(status) : '';
    const opts: PodLogOptions =
      mode === 'fresh'
        ? { container: src.container, follow: s.follow, previous: s.previous, tailLines: this.shared.tailLines ?? TAIL_LINES }
        : { container: src.container, follow: true, ...(t.point ? { sinceTime: t.point.time } : {}) };
    const keep = mode === 'after' ? skipSeen(t.point) : () => true;
    const onEntry = (e: LogEntry) => {
      if (ctrl.signal.aborted || !keep(e)) return;
      t.point = advance(t.point, e);
      t.backoffMs = FIRST_BACKOFF_MS;
      this.hold(i, e, s.capacity);
    };
    const p = this.shared.work
      .stream(this.context, this.namespace, src.pod, opts, onEntry, ctrl.signal)
      .then(
        () => {
          if (!ctrl.signal.aborted) this.setStatus(i, 'ended');
        },
        (err: unknown) => {
          if (!ctrl.signal.aborted) this.setStatus(i, { error: message(err) });
        },
      )
      .finally(() => {
        this.shared.running.delete(p);
        if (t.ctrl !== ctrl) return;
        t.open = false;
        if (!ctrl.signal.aborted) this.afterEnd(i, t);
      });
    this.shared.running.add(p);
  }

  /** Following, and source i's stream ended by itself: its new instance, the same one again after a back-off, or a wait. */
  private afterEnd(i: number, t: Tail): void {
    const s = this.slice;
    const src = s.sources[i];
    if (this.ended || this.tails.get(i) !== t || !src || !s.follow || s.previous) return;
    const next = afterEnd(this.podOf(src.pod), src.container, t.instance);
    if (next === 'from-start') return this.reopen(i, t);
    if (next !== 'resume') return; // 'wait': podChanged reopens it when the pod shows the next instance
    t.retry = setTimeout(() => {
      t.retry = undefined;
      if (this.ended || t.open || this.tails.get(i) !== t) return;
      const now = this.podOf(src.pod)?.statuses[src.container];
      if (now && (isNewInstance(now, t.instance) || now.state === 'running')) this.reopen(i, t);
    }, t.backoffMs);
    t.backoffMs = Math.min(t.backoffMs * 2, MAX_BACKOFF_MS);
  }

  /** Source i's stream again, after its last line; an error said before stays until lines come. */
  private reopen(i: number, t: Tail): void {
    if (typeof this.statusOf(i) !== 'object') this.setStatus(i, 'connecting');
    this.start(i, t, 'after');
  }

  /** The pod watch saw `pod` change: a followed source of it that is not open and shows a new container instance is opened for it. */
  podChanged(pod: LogPod): void {
    const s = this.slice;
    if (this.ended || !s.follow || s.previous) return;
    s.sources.forEach((src, i) => {
      const t = this.tails.get(i);
      if (src.pod !== pod.name || !t || t.open || t.retry) return;
      if (isNewInstance(pod.statuses[src.container], t.instance)) this.reopen(i, t);
    });
  }

  /** Source i's stream aborted and forgotten. */
  private drop(i: number): void {
    const t = this.tails.get(i);
    if (!t) return;
    t.ctrl.abort();
    clearTimeout(t.retry);
    this.tails.delete(i);
  }

  openAll(): void {
    for (let i = 0; i < this.slice.sources.length; i++) this.open(i);
  }

  /** Every stream aborted, what was held dropped (the view reads again, or closes). */
  stop(): void {
    for (const i of [...this.tails.keys()]) this.drop(i);
    this.pending.clear();
    this.status.clear();
  }

  /** The view closed: every stream aborted, nothing flushed any more. */
  end(): void {
    this.ended = true;
    this.stop();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
