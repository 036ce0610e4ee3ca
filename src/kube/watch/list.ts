import type { ContextSlices, SliceKey } from '../fleet/sink.js';
import { forbiddenMessage, statusCode, type JsonClient } from '../transport/client.js';
import type { ContextWatcher, WatcherEnv } from './watcher.js';
import { ResilientWatch, type ListResult, type WatchEventType } from './watch.js';

/** Page size of initial lists: 50,000 pods arrive in 100 requests, each within the request timeout. */
export const LIST_PAGE_SIZE = 500;

/** Epoch ms of a timestamp: a Date from a list, an RFC 3339 string from a watch. */
export function toMs(v: Date | string | undefined | null): number | undefined {
  if (v === undefined || v === null) return undefined;
  const ms = v instanceof Date ? v.getTime() : Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** One page of a list call (the shape every generated `list…` method returns). */
export interface ListPage<T> {
  items: T[];
  metadata?: { _continue?: string; resourceVersion?: string };
}

/**
 * Lists a collection page by page (`limit` and continue tokens) and maps every item as its
 * page arrives. Returns all items and the resourceVersion of the list, which a watch resumes
 * from. When a continue token expired (410 Gone, the list took longer than etcd keeps its
 * snapshot) it falls back to one unpaginated list, as client-go's pager does.
 */
export async function listPaged<T, U>(
  fetchPage: (opts: { limit?: number; _continue?: string }) => Promise<ListPage<T>>,
  map: (item: T) => U,
  pageSize = LIST_PAGE_SIZE,
): Promise<ListResult<U>> {
  const items: U[] = [];
  let cont: string | undefined;
  let resourceVersion: string | undefined;
  do {
    let page: ListPage<T>;
    try {
      page = await fetchPage(cont ? { limit: pageSize, _continue: cont } : { limit: pageSize });
    } catch (err) {
      if (cont === undefined || statusCode(err) !== 410) throw err;
      const full = await fetchPage({});
      return {
        items: full.items.map(map),
        metadata: { ...(full.metadata?.resourceVersion ? { resourceVersion: full.metadata.resourceVersion } : {}) },
      };
    }
    for (const item of page.items) items.push(map(item));
    cont = page.metadata?._continue || undefined;
    resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
  } while (cont);
  return { items, metadata: resourceVersion ? { resourceVersion } : {} };
}

/** A list as the server sends it (JSON), without its items: the continue token is `continue`. */
interface JsonListEnvelope {
  metadata?: { continue?: string; resourceVersion?: string };
}

export interface JsonListOptions {
  /** Objects a page asks for (default LIST_PAGE_SIZE). */
  pageSize?: number;
  /**
   * Ask for the list as the API server's watch cache holds it (`resourceVersion=0`, as
   * client-go's informers start), not for a consistent read from etcd: no etcd round trip, and
   * a server that serves it from its cache sends the whole list at once whatever the limit
   * (the items are still read one by one). For lists a watch continues from, and one-shot
   * reports; a list whose result a write relies on (a drain) leaves it off.
   */
  watchCache?: boolean;
}

/**
 * `listPaged` over plain JSON (see makeJsonClient): each page is read as it streams in, every
 * item parsed alone and reduced by `map` at once (list-items.ts), so neither a page nor its
 * objects are held whole. `T` is the object as the server sends it, with timestamps as strings
 * (toMs reads both). A bare number is the page size.
 */
export function listJsonPaged<T, U>(
  client: JsonClient,
  path: string,
  query: Record<string, string>,
  map: (item: T) => U,
  options: number | JsonListOptions = {},
): Promise<ListResult<U>> {
  const { pageSize = LIST_PAGE_SIZE, watchCache = false } = typeof options === 'number' ? { pageSize: options } : options;
  return listPaged<U, U>(
    async (opts) => {
      const items: U[] = [];
      // A continued page must not name a resourceVersion (the token holds it).
      const resourceVersion = watchCache && opts._continue === undefined ? '0' : undefined;
      const envelope = await client.getList<T, JsonListEnvelope>(
        path,
        { ...query, resourceVersion, limit: opts.limit, continue: opts._continue },
        (item) => items.push(map(item)),
      );
      const metadata: ListPage<U>['metadata'] = {};
      if (envelope.metadata?.continue) metadata._continue = envelope.metadata.continue;
      if (envelope.metadata?.resourceVersion) metadata.resourceVersion = envelope.metadata.resourceVersion;
      return { items, metadata };
    },
    (item) => item,
    pageSize,
  );
}

/**
 * `listJsonPaged` for a built-in kind, asked for in protobuf: `fromProto` reads each item from its
 * bytes (protobuf/), `fromJson` maps it when the server answers in JSON anyway. The same pages,
 * watch cache and fallbacks; the server encodes and sends less, and only the fields read are decoded.
 */
export function listProtoPaged<T, U>(
  client: JsonClient,
  path: string,
  query: Record<string, string>,
  fromProto: (buf: Buffer, start: number, end: number) => U,
  fromJson: (item: T) => U,
  options: JsonListOptions = {},
): Promise<ListResult<U>> {
  const { pageSize = LIST_PAGE_SIZE, watchCache = false } = options;
  return listPaged<U, U>(
    async (opts) => {
      const items: U[] = [];
      const resourceVersion = watchCache && opts._continue === undefined ? '0' : undefined;
      const meta = await client.getProtoList<T>(
        path,
        { ...query, resourceVersion, limit: opts.limit, continue: opts._continue },
        (buf, start, end) => items.push(fromProto(buf, start, end)),
        (item) => items.push(fromJson(item)),
      );
      const metadata: ListPage<U>['metadata'] = {};
      if (meta.continue) metadata._continue = meta.continue;
      if (meta.resourceVersion) metadata.resourceVersion = meta.resourceVersion;
      return { items, metadata };
    },
    (item) => item,
    pageSize,
  );
}

/** Keeps the working state of one collection and turns it into the slice the store shows. */
/** `L`: the items of a full list, when the list reduces them on arrival (default: as events deliver them). */
export interface Tracker<T, S, L = T> {
  reset(items: L[]): void;
  /** False when the summary would not change (nothing to publish). */
  // biome-ignore lint/suspicious/noConfusingVoidType: trackers that always publish return nothing
  apply(type: WatchEventType, item: T): boolean | void;
  clear(): void;
  summary(): S;
}

export interface TrackedWatchOptions<T extends { metadata?: { resourceVersion?: string } }, K extends SliceKey, L = T> {
  slice: K;
  /** The resource as the missing permission names it, e.g. "pods". */
  resource: string;
  path: string;
  queryParams?: Record<string, string>;
  list: () => Promise<ListResult<L>>;
  tracker: Tracker<T, NonNullable<ContextSlices[K]>, L>;
  /** The slice to show when listing is forbidden (the message is added). */
  empty: () => NonNullable<ContextSlices[K]>;
}

/**
 * A cluster-wide collection behind a tracker: a full list resets it, watch events update it,
 * and its summary is computed once per store flush (the batcher's interval); a 403 publishes
 * the missing permission, other errors make the monitor probe.
 */
export function trackedWatch<T extends { metadata?: { resourceVersion?: string } }, K extends SliceKey, L = T>(
  env: WatcherEnv,
  opts: TrackedWatchOptions<T, K, L>,
): ContextWatcher {
  const { tracker } = opts;
  const publish = () => env.sink.setSlice(env.name, opts.slice, () => tracker.summary());
  const watch = new ResilientWatch<T, L>({
    kc: env.kc,
    path: opts.path,
    listOnly: env.listOnly,
    ...(opts.queryParams ? { queryParams: opts.queryParams } : {}),
    list: opts.list,
    onList: (items) => {
      tracker.reset(items);
      publish();
      env.sink.soon?.();
    },
    onEvent: (type, item) => {
      env.onActivity?.();
      if (tracker.apply(type, item) !== false) publish();
    },
    onError: (message, { forbidden }) => {
      if (!forbidden) return env.onDisconnect();
      tracker.clear();
      env.sink.setSlice(env.name, opts.slice, {
        ...opts.empty(),
        forbidden: forbiddenMessage(opts.resource, message, ' in all namespaces'),
      });
    },
    onDisconnect: () => env.onDisconnect(),
  });
  return {
    start: () => watch.start(),
    stop: () => watch.stop(),
    retryNow: () => watch.retryNow(),
  };
}
