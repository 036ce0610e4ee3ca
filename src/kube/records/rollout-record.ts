/**
 * A rollout's record: one labelled ConfigMap whose data holds the rollout's state. Read,
 * created, replaced over a resourceVersion (optimistic concurrency: a 409 is client-node's
 * error, for the caller to re-read), listed and watched by label. The state's shape is the
 * caller's: this module moves the ConfigMap's data and labels.
 */
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { makeClient, makeJsonClient, statusCode } from '../transport/client.js';
import { ResilientWatch } from '../watch/watch.js';

const REQUEST_TIMEOUT_MS = 15_000;

/** Where a record lives. */
export interface RecordRef {
  namespace: string;
  name: string;
}

/** A ConfigMap as read: its name, labels, data and resourceVersion. */
export interface StoredRecord {
  name: string;
  labels: Record<string, string>;
  data: Record<string, string>;
  resourceVersion: string;
  /** The ConfigMap's uid (what other objects name as their owner). */
  uid: string;
  /** The API server's time of the write that returned this (the latest managedFields time), when known. */
  serverTime?: string;
}

/** The latest managedFields time of an object the server returned: the server's clock at that write (second resolution). */
function serverTimeOf(cm: V1ConfigMap): string | undefined {
  let latest: number | undefined;
  for (const f of cm.metadata?.managedFields ?? []) {
    const t = f.time instanceof Date ? f.time.getTime() : typeof f.time === 'string' ? Date.parse(f.time) : Number.NaN;
    if (Number.isFinite(t) && (latest === undefined || t > latest)) latest = t;
  }
  return latest === undefined ? undefined : new Date(latest).toISOString();
}

function toRecord(cm: V1ConfigMap): StoredRecord {
  const serverTime = serverTimeOf(cm);
  return {
    name: cm.metadata?.name ?? '',
    labels: cm.metadata?.labels ?? {},
    data: cm.data ?? {},
    resourceVersion: cm.metadata?.resourceVersion ?? '',
    uid: cm.metadata?.uid ?? '',
    ...(serverTime ? { serverTime } : {}),
  };
}

function configMap(ref: RecordRef, labels: Record<string, string>, data: Record<string, string>): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ref.name, namespace: ref.namespace, labels }, data };
}

const core = (kc: KubeConfig) => makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS);

/** The record; undefined when there is none (other errors are client-node's). */
export async function readRecord(kc: KubeConfig, ref: RecordRef): Promise<StoredRecord | undefined> {
  try {
    return toRecord(await core(kc).readNamespacedConfigMap(ref));
  } catch (err) {
    if (statusCode(err) === 404) return undefined;
    throw err;
  }
}

/** Creates the record (a 409 when one of that name exists is client-node's error). */
export async function createRecord(
  kc: KubeConfig,
  ref: RecordRef,
  labels: Record<string, string>,
  data: Record<string, string>,
): Promise<StoredRecord> {
  return toRecord(await core(kc).createNamespacedConfigMap({ namespace: ref.namespace, body: configMap(ref, labels, data) }));
}

/** Writes the record over the version `resourceVersion` (a 409: someone wrote in between). */
export async function replaceRecord(
  kc: KubeConfig,
  ref: RecordRef,
  labels: Record<string, string>,
  data: Record<string, string>,
  resourceVersion: string,
): Promise<StoredRecord> {
  const body = configMap(ref, labels, data);
  body.metadata!.resourceVersion = resourceVersion;
  return toRecord(await core(kc).replaceNamespacedConfigMap({ ...ref, body }));
}

export const isConflict = (err: unknown) => statusCode(err) === 409;

const configMapsPath = (namespace: string) => `/api/v1/namespaces/${namespace}/configmaps`;

/** The records of a namespace with the label selector. */
export async function listRecords(kc: KubeConfig, namespace: string, labelSelector: string): Promise<StoredRecord[]> {
  const res = await makeJsonClient(kc, REQUEST_TIMEOUT_MS).get<{ items: V1ConfigMap[] }>(configMapsPath(namespace), { labelSelector });
  return res.items.map(toRecord);
}

export interface RecordWatchHandlers {
  /** The initial list and every re-list. */
  onList: (records: StoredRecord[]) => void;
  onChanged: (record: StoredRecord) => void;
  onDeleted: (record: StoredRecord) => void;
  onError: (message: string) => void;
}

/** Watches the records of a namespace with the label selector (list, then watch; restarted with backoff). */
export function watchRecords(
  kc: KubeConfig,
  namespace: string,
  labelSelector: string,
  handlers: RecordWatchHandlers,
): { stop(): Promise<void> } {
  const path = configMapsPath(namespace);
  const json = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  const watch = new ResilientWatch<V1ConfigMap>({
    kc,
    path,
    queryParams: { labelSelector },
    list: () => json.get<{ items: V1ConfigMap[]; metadata?: { resourceVersion?: string } }>(path, { labelSelector }),
    onList: (items) => handlers.onList(items.map(toRecord)),
    onEvent: (type, cm) => (type === 'DELETED' ? handlers.onDeleted(toRecord(cm)) : handlers.onChanged(toRecord(cm))),
    onError: (message) => handlers.onError(message),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
  watch.start();
  return { stop: () => watch.stop() };
}
