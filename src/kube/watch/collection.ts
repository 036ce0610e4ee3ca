import type { KubeConfig } from '@kubernetes/client-node';
import { forbiddenMessage } from '../transport/client.js';
import { ResilientWatch, type ListResult } from './watch.js';

type Meta = { metadata?: { resourceVersion?: string; name?: string; namespace?: string } };

export interface CollectionOptions<T extends Meta, S> {
  kc: KubeConfig;
  /** Collection path, e.g. `/apis/apps/v1/namespaces/elotl/deployments`. */
  path: string;
  list: () => Promise<ListResult<T>>;
  queryParams?: Record<string, string>;
  /** Only the list, no watch (a one-shot report). */
  listOnly?: boolean | undefined;
  /** Plural resource name for messages, e.g. "deployments". */
  resource: string;
  /** Appended to the resource in messages, e.g. " in namespace elotl". */
  scope?: string;
  /** The summary kept for an object; undefined drops it (nothing worth keeping). */
  summarize: (obj: T) => S | undefined;
  /** Something changed: items, synced or forbidden. */
  onChange: () => void;
  /** The watch failed for a reason other than 403 (the monitor probes at once). */
  onDisconnect: () => void;
  /** Every failure with its HTTP status (when there is one). */
  onError?: (message: string, info: { forbidden: boolean; attempt: number }) => void;
  backoff?: { initialMs: number; maxMs: number };
}

/**
 * A watched collection reduced to summaries keyed by namespace/name: whether the first list
 * arrived and, when listing is forbidden, the message naming the missing permission.
 * The objects themselves are dropped as soon as they are summarized.
 */
export class WatchedCollection<T extends Meta, S> {
  readonly items = new Map<string, S>();
  synced = false;
  forbidden: string | undefined;
  /** The last error other than 403, one line; cleared by the next successful list. */
  lastError: string | undefined;
  /** The last list or watch said 404: the API does not serve this collection (e.g. no CRD). */
  notFound = false;
  private readonly watch: ResilientWatch<T>;

  constructor(opts: CollectionOptions<T, S>) {
    const key = (o: T) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
    this.watch = new ResilientWatch<T>({
      kc: opts.kc,
      path: opts.path,
      list: opts.list,
      listOnly: opts.listOnly,
      ...(opts.queryParams ? { queryParams: opts.queryParams } : {}),
      ...(opts.backoff ? { backoff: opts.backoff } : {}),
      onList: (items) => {
        this.items.clear();
        for (const o of items) {
          const s = opts.summarize(o);
          if (s !== undefined) this.items.set(key(o), s);
        }
        this.synced = true;
        this.forbidden = undefined;
        this.lastError = undefined;
        this.notFound = false;
        opts.onChange();
      },
      onEvent: (type, o) => {
        const s = type === 'DELETED' ? undefined : opts.summarize(o);
        if (s === undefined) this.items.delete(key(o));
        else this.items.set(key(o), s);
        opts.onChange();
      },
      onError: (message, info) => {
        opts.onError?.(message, info);
        if (info.forbidden) {
          const m = forbiddenMessage(opts.resource, message, opts.scope);
          if (m !== this.forbidden) {
            this.forbidden = m;
            opts.onChange();
          }
        } else {
          this.lastError = message;
          const notFound = /^HTTP 404\b/.test(message);
          if (notFound !== this.notFound) {
            this.notFound = notFound;
            opts.onChange();
          }
          // A 404 is an answer from a server that is up: no reason to probe.
          if (!notFound) opts.onDisconnect();
        }
      },
      onDisconnect: opts.onDisconnect,
    });
  }

  /** Listed, or known to be forbidden: either way the answer is in. */
  get answered(): boolean {
    return this.synced || this.forbidden !== undefined;
  }

  values(): S[] {
    return [...this.items.values()];
  }

  start(): void {
    this.watch.start();
  }

  stop(): Promise<void> {
    return this.watch.stop();
  }

  retryNow(): void {
    this.watch.retryNow();
  }

  /** Forget everything (the collection went away, e.g. its CRD was deleted). */
  reset(): void {
    this.items.clear();
    this.synced = false;
    this.forbidden = undefined;
    this.lastError = undefined;
    this.notFound = false;
  }
}

/** Coalesces many change notifications into one call per macrotask turn. */
export function coalesce(fn: () => void): { request: () => void; cancel: () => void } {
  let pending: NodeJS.Immediate | undefined;
  return {
    request: () => {
      pending ??= setImmediate(() => {
        pending = undefined;
        fn();
      });
    },
    cancel: () => {
      if (pending) clearImmediate(pending);
      pending = undefined;
    },
  };
}
