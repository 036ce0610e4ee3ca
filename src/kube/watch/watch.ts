import type { KubeConfig } from '@kubernetes/client-node';
import { describeError, statusCode } from '../transport/client.js';
import { UnchangedLines } from './unchanged-lines.js';
import { streamWatch } from './watch-stream.js';

export interface ListResult<T> {
  items: T[];
  metadata?: { resourceVersion?: string };
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** `T`: objects as watch events deliver them; `L`: items as `list` returns them (e.g. already summarised). */
export interface ResilientWatchOptions<T, L = T> {
  kc: KubeConfig;
  /** Collection path, e.g. `/api/v1/nodes`. */
  path: string;
  /** Lists the collection (with the request timeout of the caller's client). */
  list: () => Promise<ListResult<L>>;
  /** A full list: replaces everything known. */
  onList: (items: L[]) => void;
  onEvent: (type: WatchEventType, obj: T) => void;
  /** Every failure; `forbidden` when the server said 403. */
  onError?: (message: string, info: { forbidden: boolean; attempt: number }) => void;
  /** The watch stream ended (server restart, network loss): callers may probe at once. */
  onDisconnect?: () => void;
  /** The server ended the watch normally (its timeout, or its own graceful shutdown); it is resumed at once. */
  onClosed?: () => void;
  queryParams?: Record<string, string>;
  backoff?: { initialMs: number; maxMs: number };
  /** Server-side watch timeout range: each watch ends after a random time in it and resumes. */
  watchSeconds?: [number, number];
  /** List until a list succeeds, then watch nothing (a one-shot report needs no changes after it). */
  listOnly?: boolean | undefined;
  /**
   * Events that repeat their object's last one but for its resourceVersion and heartbeat times
   * are not parsed nor delivered; this is called for each instead (the server is alive).
   */
  onUnchanged?: () => void;
}

/**
 * List-then-watch that never gives up: restarts after errors with exponential backoff,
 * resumes from the last resourceVersion (bookmarks included) after a normal close, and
 * re-lists after 410 Gone. client-node's informer stops on most errors; this does not.
 */
export class ResilientWatch<T extends { metadata?: { resourceVersion?: string } }, L = T> {
  private stopped = true;
  private abort: AbortController | undefined;
  private wake: (() => void) | undefined;
  private resourceVersion: string | undefined;
  private attempt = 0;
  private readonly unchanged = new UnchangedLines();
  private loop: Promise<void> | undefined;
  /** Resolves at stop(): a list in flight is not waited for. */
  private stopped$: Promise<'stopped'> = Promise.resolve('stopped');
  private stopping: (() => void) | undefined;

  constructor(private readonly opts: ResilientWatchOptions<T, L>) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopped$ = new Promise((resolve) => {
      this.stopping = () => resolve('stopped');
    });
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping?.();
    this.abort?.abort();
    this.wake?.();
    await this.loop;
  }

  /** Skip the current backoff wait and try again now (e.g. after a probe succeeded). */
  retryNow(): void {
    this.wake?.();
  }

  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wake = done;
    });
    this.wake = undefined;
  }

  private backoffMs(): number {
    const { initialMs, maxMs } = this.opts.backoff ?? { initialMs: 500, maxMs: 10_000 };
    const base = Math.min(maxMs, initialMs * 2 ** Math.min(this.attempt, 16));
    return base / 2 + Math.random() * (base / 2);
  }

  private fail(err: unknown): void {
    this.attempt++;
    const forbidden = statusCode(err) === 403;
    this.opts.onError?.(describeError(err), { forbidden, attempt: this.attempt });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.resourceVersion === undefined) {
        try {
          // A list in flight does not hold up stop(): it ends by its own deadline.
          const listing = this.opts.list();
          listing.catch(() => {});
          const res = await Promise.race([listing, this.stopped$]);
          if (res === 'stopped' || this.stopped) return;
          this.resourceVersion = res.metadata?.resourceVersion;
          this.unchanged.clear();
          this.opts.onList(res.items);
          this.attempt = 0;
          if (this.opts.listOnly) {
            await this.stopped$;
            return;
          }
        } catch (err) {
          if (this.stopped) return;
          this.fail(err);
          await this.sleep(this.backoffMs());
          continue;
        }
      }
      const outcome = await this.watchOnce();
      if (this.stopped) return;
      if (outcome === 'gone') {
        this.resourceVersion = undefined;
        continue;
      }
      if (outcome === 'closed') this.opts.onClosed?.();
      if (outcome instanceof Error) {
        this.fail(outcome);
        this.opts.onDisconnect?.();
        // A failed watch may mean a restarted server with a new history: list again.
        this.resourceVersion = undefined;
        await this.sleep(this.backoffMs());
      }
    }
  }

  private skipped(resourceVersion: string, onUnchanged: () => void): void {
    this.resourceVersion = resourceVersion;
    onUnchanged();
  }

  /** One watch request; resolves when it ends: 'closed' (normal), 'gone' (410) or an error. */
  private async watchOnce(): Promise<'closed' | 'gone' | Error> {
    const [lo, hi] = this.opts.watchSeconds ?? [240, 300];
    const timeoutSeconds = Math.floor(lo + Math.random() * (hi - lo));
    // The transport ends a watch that stays silent 30 s past the server-side timeout.
    const abort = new AbortController();
    this.abort = abort;
    if (this.stopped) abort.abort();
    let gone = false;
    const { onUnchanged } = this.opts;
    try {
      await streamWatch(
        this.opts.kc,
        this.opts.path,
        {
          ...this.opts.queryParams,
          allowWatchBookmarks: 'true',
          resourceVersion: this.resourceVersion ?? '',
          timeoutSeconds: String(timeoutSeconds),
        },
        (type, obj) => {
          if (type === 'ERROR') {
            if ((obj as { code?: number })?.code === 410) gone = true;
            return;
          }
          const o = obj as T;
          const rv = o?.metadata?.resourceVersion;
          if (rv) this.resourceVersion = rv;
          if (type === 'BOOKMARK') return;
          if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') this.opts.onEvent(type, o);
        },
        abort.signal,
        onUnchanged ? { lines: this.unchanged, onSkip: (rv) => this.skipped(rv, onUnchanged) } : undefined,
      );
      return gone ? 'gone' : 'closed';
    } catch (err) {
      if (gone) return 'gone';
      if (this.stopped) return 'closed';
      return err instanceof Error ? err : new Error(String(err));
    }
  }
}
