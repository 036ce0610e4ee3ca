/**
 * The streams of one open log view: one per source (a pod's container) with the slice's
 * switches; the lines that arrive are held here and flushed into the slice's rings on a timer (at
 * most 1000/flushMs store updates a second, whatever the log rate), with each stream's status.
 */
import type { LogEntry } from '../kube/pod-logs.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import { boundedText, type LogsSlice, type StreamStatus } from '../store/logs.js';
import type { LogsWork } from './logs-contract.js';

/** Lines read back when a stream opens. */
export const TAIL_LINES = 500;
/** Store updates at most every this many ms while lines arrive. */
export const FLUSH_MS = 100;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

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
  private readonly streams = new Map<number, AbortController>();
  private pending = new Map<number, LogEntry[]>();
  private status = new Map<number, StreamStatus>();
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly shared: StreamsShared,
    private readonly context: string,
    private readonly namespace: string,
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
    if (q.length === 0 && !this.status.has(i) && this.slice.sources[i]?.status !== 'streaming') this.status.set(i, 'streaming');
    q.push(e);
    // Lines beyond a ring's capacity would be dropped at the flush anyway.
    if (q.length >= 2 * capacity) q.splice(0, q.length - capacity);
    this.schedule();
  }

  /** Open source i's stream with the slice's switches. */
  open(i: number): void {
    const s = this.slice;
    const src = s.sources[i];
    if (!src?.container || this.ended) return;
    const ctrl = new AbortController();
    this.streams.get(i)?.abort();
    this.streams.set(i, ctrl);
    const opts = { container: src.container, follow: s.follow, previous: s.previous, tailLines: this.shared.tailLines ?? TAIL_LINES };
    let stopped = false;
    ctrl.signal.addEventListener('abort', () => {
      stopped = true;
    });
    const onEntry = (e: LogEntry) => {
      if (!stopped) this.hold(i, e, s.capacity);
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
        if (this.streams.get(i) === ctrl) this.streams.delete(i);
      });
    this.shared.running.add(p);
  }

  openAll(): void {
    for (let i = 0; i < this.slice.sources.length; i++) this.open(i);
  }

  /** Every stream aborted, what was held dropped (the view reads again, or closes). */
  stop(): void {
    for (const c of this.streams.values()) c.abort();
    this.streams.clear();
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
