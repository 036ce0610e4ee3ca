/**
 * What the status needs of a Nova control plane to count placed and pending workloads, kept
 * current by watches: the objects of the workload kinds, the namespaces (their labels select
 * policies) and the scheduler's NoClusterFits Events. Objects are kept trimmed: metadata and
 * spec (a Cluster's status too), never a Secret's or ConfigMap's data, nor managedFields.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { type ApiObject, type ApiResource, apiVersionOf } from '../api/api-resources.js';
import { makeJsonClient } from '../transport/client.js';
import { WatchedCollection } from '../watch/collection.js';
import { listJsonPaged } from '../watch/list.js';
import type { Sync } from '../watch/sync.js';
import { isWorkload, WORKLOAD_KINDS } from './kinds.js';

/** The reason of the scheduler's Warning when no cluster can take a workload (NOVA-PLACEMENT: chosen). */
export const NO_FIT_REASON = 'NoClusterFits';

const NAMESPACES: ApiResource = { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false };
const EVENTS: ApiResource = { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };

export interface PlacementObjects extends Sync {
  objects: ApiObject[];
  namespaces: ApiObject[];
  /** The scheduler's NoClusterFits Events: reason, message, involvedObject and times only. */
  refusals: ApiObject[];
  /** Kinds left out because the user may not list them (Secrets, for a viewer): "secrets". */
  leftOut?: string[];
}

/** Kinds a viewer commonly may not list (the `view` ClusterRole leaves out Secrets): counted without them. */
const OPTIONAL = new Set(['secrets']);

const pathOf = (r: ApiResource) => (r.group ? `/apis/${r.group}/${r.version}/${r.resource}` : `/api/v1/${r.resource}`);

/** The parts of an object placement reads. */
export function trimmed(r: ApiResource, o: ApiObject): ApiObject {
  const m = o.metadata;
  const metadata: ApiObject['metadata'] = { name: m.name };
  for (const k of ['namespace', 'labels', 'annotations', 'creationTimestamp']) if (m[k] !== undefined) metadata[k] = m[k];
  const out: ApiObject = { apiVersion: apiVersionOf(r), kind: r.kind, metadata };
  if (r.kind === 'Event') {
    for (const k of ['reason', 'message', 'involvedObject', 'lastTimestamp', 'eventTime'] as const) if (o[k] !== undefined) out[k] = o[k];
  } else if (o.spec !== undefined) out.spec = o.spec;
  // A Cluster's status is its room and conditions, which placement reads.
  if (r.kind === 'Cluster' && o.status !== undefined) out.status = o.status;
  return out;
}

interface Options {
  kc: KubeConfig;
  requestTimeoutMs: number;
  listOnly?: boolean | undefined;
  onChange: () => void;
  onDisconnect: () => void;
}

/** The watched collections of one control plane's placement facts. */
export class PlacementWatch {
  private readonly kinds: WatchedCollection<ApiObject, ApiObject>[];
  private readonly namespaces: WatchedCollection<ApiObject, ApiObject>;
  private readonly refusals: WatchedCollection<ApiObject, ApiObject>;
  private readonly optional: Set<WatchedCollection<ApiObject, ApiObject>>;

  constructor(opts: Options) {
    const client = makeJsonClient(opts.kc, opts.requestTimeoutMs);
    const collection = (r: ApiResource, keep: (o: ApiObject) => boolean, query: Record<string, string> = {}) => {
      const withKind = (o: ApiObject): ApiObject => ({ ...o, apiVersion: apiVersionOf(r), kind: r.kind });
      return new WatchedCollection<ApiObject, ApiObject>({
        kc: opts.kc,
        listOnly: opts.listOnly,
        resource: r.group ? `${r.resource}.${r.group}` : r.resource,
        path: pathOf(r),
        ...(Object.keys(query).length ? { queryParams: query } : {}),
        list: () => listJsonPaged<ApiObject, ApiObject>(client, pathOf(r), query, withKind, { watchCache: true }),
        summarize: (o) => {
          const full = withKind(o);
          return keep(full) ? trimmed(r, full) : undefined;
        },
        onChange: opts.onChange,
        onDisconnect: opts.onDisconnect,
      });
    };
    this.kinds = WORKLOAD_KINDS.map((k) => collection(k, isWorkload));
    this.optional = new Set(this.kinds.filter((_, i) => OPTIONAL.has(WORKLOAD_KINDS[i]!.resource)));
    this.namespaces = collection(NAMESPACES, () => true);
    this.refusals = collection(EVENTS, () => true, { fieldSelector: `reason=${NO_FIT_REASON}` });
  }

  private get all(): WatchedCollection<ApiObject, ApiObject>[] {
    return [...this.kinds, this.namespaces, this.refusals];
  }

  summary(): PlacementObjects {
    const all = this.all;
    const skipped = (c: WatchedCollection<ApiObject, ApiObject>) => this.optional.has(c) && c.forbidden !== undefined;
    const forbidden = all.filter((c) => !skipped(c)).flatMap((c) => (c.forbidden === undefined ? [] : [c.forbidden]));
    const leftOut = WORKLOAD_KINDS.filter((_, i) => skipped(this.kinds[i]!)).map((k) => k.resource);
    return {
      synced: all.every((c) => c.synced || skipped(c)),
      ...(forbidden.length ? { forbidden: forbidden.join('; ') } : {}),
      ...(leftOut.length ? { leftOut } : {}),
      objects: this.kinds.flatMap((c) => c.values()),
      namespaces: this.namespaces.values(),
      refusals: this.refusals.values(),
    };
  }

  /** Every list answered (listed or forbidden). */
  get answered(): boolean {
    return this.all.every((c) => c.answered);
  }

  start(): void {
    for (const c of this.all) c.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.all.map((c) => c.stop()));
  }

  retryNow(): void {
    for (const c of this.all) c.retryNow();
  }
}
