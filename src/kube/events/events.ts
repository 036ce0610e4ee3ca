import type { Sync } from '../watch/sync.js';
import type { CoreV1Event } from '@kubernetes/client-node';
import { makeJsonClient } from '../transport/client.js';
import type { WatcherFactory } from '../watch/watcher.js';
import { listJsonPaged, toMs, trackedWatch } from '../watch/list.js';
import type { WatchEventType } from '../watch/watch.js';

/** How many deduplicated warnings are published, newest first. */
export const WARNING_LIMIT = 20;
/** How many reason/object keys are remembered; beyond it the least recent is forgotten. */
export const WARNING_KEY_LIMIT = 200;
/** How many Event objects are remembered per key (a recorder makes a new one once its dedup window ends). */
export const SOURCES_PER_KEY = 20;
/** Messages are kept to one line of at most this many characters. */
export const MESSAGE_LIMIT = 300;

const WARNING_SELECTOR = 'type=Warning';

/** One Event object's contribution to a key. */
interface Source {
  count: number;
  lastSeen: number;
  message: string;
}

interface Entry {
  reason: string;
  object: string;
  namespace?: string;
  /** By Event uid: the same Event is updated in place (its count grows) by the recorder. */
  sources: Map<string, Source>;
  lastSeen: number;
}

/** The dedup key: reason and involved object (kind, namespace, name). */
export function warningKey(e: CoreV1Event): string {
  const o = e.involvedObject ?? {};
  return `${e.reason ?? ''}\u0000${o.kind ?? ''}\u0000${o.namespace ?? ''}\u0000${o.name ?? ''}`;
}

/**
 * When the event last happened: the newest of lastTimestamp, eventTime and
 * series.lastObservedTime (events written through events.k8s.io carry only the latter two),
 * else its creation time.
 */
export function eventLastSeen(e: CoreV1Event): number {
  const times = [e.lastTimestamp, e.eventTime, e.series?.lastObservedTime].map((t) => toMs(t)).filter((t): t is number => t !== undefined);
  if (times.length > 0) return Math.max(...times);
  return toMs(e.metadata?.creationTimestamp) ?? 0;
}

/** How many times it happened: series.count, else count, else once (as kubectl counts). */
export function eventCount(e: CoreV1Event): number {
  return e.series?.count ?? (e.count && e.count > 0 ? e.count : 1);
}

function objectName(e: CoreV1Event): string {
  const o = e.involvedObject ?? {};
  const name = o.namespace ? `${o.namespace}/${o.name ?? ''}` : (o.name ?? '');
  return o.kind ? `${o.kind} ${name}` : name;
}

function shortMessage(m: string | undefined): string {
  const line = (m ?? '').replace(/\s+/g, ' ').trim();
  return line.length > MESSAGE_LIMIT ? `${line.slice(0, MESSAGE_LIMIT - 1)}…` : line;
}

const uidOf = (e: CoreV1Event): string => e.metadata?.uid || `${e.metadata?.namespace ?? ''}/${e.metadata?.name ?? ''}`;

function oldestOf<V extends { lastSeen: number }>(m: Map<string, V>): string | undefined {
  let key: string | undefined;
  let min = Infinity;
  for (const [k, v] of m) {
    if (v.lastSeen < min) {
      min = v.lastSeen;
      key = k;
    }
  }
  return key;
}

/**
 * Warning events deduplicated by reason and involved object: per key the summed count of its
 * Event objects, the last time and the latest message. Bounded: WARNING_KEY_LIMIT keys of at
 * most SOURCES_PER_KEY small records each, whatever the number of events.
 */
export class WarningTracker {
  private readonly entries = new Map<string, Entry>();
  /** Event uid → its key, so a DELETED event (TTL expiry) finds what it contributed to. */
  private readonly keyOfUid = new Map<string, string>();
  synced = false;

  constructor(
    private readonly limit = WARNING_LIMIT,
    private readonly keyLimit = WARNING_KEY_LIMIT,
  ) {}

  get keys(): number {
    return this.entries.size;
  }

  /** A full list: replaces everything known. */
  reset(events: Iterable<CoreV1Event>): void {
    this.clear();
    for (const e of events) this.upsert(e, false);
    this.trim();
    this.synced = true;
  }

  clear(): void {
    this.entries.clear();
    this.keyOfUid.clear();
    this.synced = false;
  }

  apply(type: WatchEventType, e: CoreV1Event): void {
    if (type === 'DELETED') this.remove(uidOf(e));
    else if (e.type === undefined || e.type === 'Warning') this.upsert(e, true);
  }

  private upsert(e: CoreV1Event, trim: boolean): void {
    const uid = uidOf(e);
    const key = warningKey(e);
    const previous = this.keyOfUid.get(uid);
    if (previous !== undefined && previous !== key) this.remove(uid);
    let entry = this.entries.get(key);
    if (!entry) {
      const o = e.involvedObject ?? {};
      entry = { reason: e.reason ?? '', object: objectName(e), sources: new Map(), lastSeen: 0 };
      if (o.namespace) entry.namespace = o.namespace;
      this.entries.set(key, entry);
    }
    const source: Source = { count: eventCount(e), lastSeen: eventLastSeen(e), message: shortMessage(e.message) };
    entry.sources.set(uid, source);
    this.keyOfUid.set(uid, key);
    if (source.lastSeen > entry.lastSeen) entry.lastSeen = source.lastSeen;
    if (entry.sources.size > SOURCES_PER_KEY) {
      const old = oldestOf(entry.sources);
      if (old !== undefined) this.remove(old);
    }
    if (trim) this.trim();
  }

  private remove(uid: string): void {
    const key = this.keyOfUid.get(uid);
    if (key === undefined) return;
    this.keyOfUid.delete(uid);
    const entry = this.entries.get(key);
    if (!entry) return;
    entry.sources.delete(uid);
    if (entry.sources.size === 0) this.entries.delete(key);
    else entry.lastSeen = Math.max(...[...entry.sources.values()].map((s) => s.lastSeen));
  }

  private dropEntry(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    for (const uid of entry.sources.keys()) this.keyOfUid.delete(uid);
    this.entries.delete(key);
  }

  /** Forget the least recent keys beyond the limit. */
  private trim(): void {
    const excess = this.entries.size - this.keyLimit;
    if (excess <= 0) return;
    if (excess === 1) {
      const k = oldestOf(this.entries);
      if (k !== undefined) this.dropEntry(k);
      return;
    }
    const oldest = [...this.entries].sort(([, a], [, b]) => a.lastSeen - b.lastSeen).slice(0, excess);
    for (const [k] of oldest) this.dropEntry(k);
  }

  /** The newest `limit` warnings. */
  warnings(): WarningEvent[] {
    const newest = [...this.entries.values()]
      .sort((a, b) => b.lastSeen - a.lastSeen || a.reason.localeCompare(b.reason) || a.object.localeCompare(b.object))
      .slice(0, this.limit);
    return newest.map((entry) => {
      let count = 0;
      let latest: Source | undefined;
      for (const s of entry.sources.values()) {
        count += s.count;
        if (!latest || s.lastSeen >= latest.lastSeen) latest = s;
      }
      const w: WarningEvent = {
        reason: entry.reason,
        message: latest?.message ?? '',
        object: entry.object,
        count,
        lastSeen: entry.lastSeen,
      };
      if (entry.namespace) w.namespace = entry.namespace;
      return w;
    });
  }

  summary(): EventsSummary {
    return { synced: this.synced, warnings: this.warnings() };
  }
}

/** The parts of an Event the tracker reads (a page of the initial list is reduced at once). */
export function slimEvent(e: CoreV1Event): CoreV1Event {
  const o = e.involvedObject ?? {};
  const slim: CoreV1Event = {
    metadata: {
      ...(e.metadata?.uid !== undefined ? { uid: e.metadata.uid } : {}),
      ...(e.metadata?.name !== undefined ? { name: e.metadata.name } : {}),
      ...(e.metadata?.namespace !== undefined ? { namespace: e.metadata.namespace } : {}),
      ...(e.metadata?.creationTimestamp !== undefined ? { creationTimestamp: e.metadata.creationTimestamp } : {}),
    },
    involvedObject: {
      ...(o.kind !== undefined ? { kind: o.kind } : {}),
      ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
      ...(o.name !== undefined ? { name: o.name } : {}),
    },
  };
  if (e.type !== undefined) slim.type = e.type;
  if (e.reason !== undefined) slim.reason = e.reason;
  if (e.message !== undefined) slim.message = shortMessage(e.message);
  if (e.count !== undefined) slim.count = e.count;
  if (e.lastTimestamp !== undefined) slim.lastTimestamp = e.lastTimestamp;
  if (e.eventTime !== undefined) slim.eventTime = e.eventTime;
  if (e.series !== undefined) slim.series = e.series;
  return slim;
}

/**
 * Recent Warning events, deduplicated by reason and object, live from a watch on all events
 * with `type=Warning` (the server filters).
 */
export const watchWarningEvents: WatcherFactory = (env) => {
  const client = makeJsonClient(env.kc, env.requestTimeoutMs);
  return trackedWatch(env, {
    slice: 'events',
    resource: 'events',
    path: '/api/v1/events',
    queryParams: { fieldSelector: WARNING_SELECTOR },
    list: () => listJsonPaged(client, '/api/v1/events', { fieldSelector: WARNING_SELECTOR }, slimEvent, { watchCache: true }),
    tracker: new WarningTracker(),
    empty: emptyEvents,
  });
};

export interface WarningEvent {
  reason: string;
  message: string;
  /** "Pod elotl/etcd-0" */
  object: string;
  namespace?: string;
  count: number;
  /** Epoch ms of the last occurrence. */
  lastSeen: number;
}

/** Recent Warning events, deduplicated by reason and object, newest first, at most 20. */
export interface EventsSummary extends Sync {
  warnings: WarningEvent[];
}

export function emptyEvents(): EventsSummary {
  return { synced: false, warnings: [] };
}
