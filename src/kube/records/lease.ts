/**
 * coordination.k8s.io/v1 Leases that say who holds something: read, created, replaced over a
 * resourceVersion (a 409 is client-node's error, for the caller to re-read and decide again),
 * deleted, listed and watched by label. Which Lease and what holding it means is the caller's:
 * this module moves a Lease's labels, owner and spec.
 */
import { CoordinationV1Api, V1MicroTime, type KubeConfig, type V1Lease } from '@kubernetes/client-node';
import { makeClient, makeJsonClient, statusCode } from '../transport/client.js';
import { ResilientWatch } from '../watch/watch.js';

const REQUEST_TIMEOUT_MS = 15_000;

/** Where a Lease lives. */
export interface LeaseRef {
  namespace: string;
  name: string;
}

/** The object a Lease goes with (garbage-collected with it). */
export interface LeaseOwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

/** A Lease's spec as fleetdeck reads and writes it: times are ISO strings. */
export interface LeaseHold {
  /** Absent (or empty) when nobody holds it. */
  holderIdentity?: string;
  leaseDurationSeconds: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions: number;
}

/** A Lease as read: its name, labels, spec and resourceVersion. */
export interface LeaseSummary extends LeaseHold {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  resourceVersion: string;
}

/** A Lease as the server sends it in JSON (a list or a watch event): times are strings. */
interface LeaseJson {
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; resourceVersion?: string };
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string | Date;
    renewTime?: string | Date;
    leaseTransitions?: number;
  };
}

const iso = (t: string | Date | undefined): string | undefined => {
  if (t === undefined || t === null) return undefined;
  const ms = t instanceof Date ? t.getTime() : Date.parse(t);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
};

/** The summary of a Lease (typed by client-node or plain JSON). */
export function summarizeLease(l: LeaseJson | V1Lease): LeaseSummary {
  const j = l as LeaseJson;
  const acquireTime = iso(j.spec?.acquireTime);
  const renewTime = iso(j.spec?.renewTime);
  return {
    namespace: j.metadata?.namespace ?? '',
    name: j.metadata?.name ?? '',
    labels: j.metadata?.labels ?? {},
    resourceVersion: j.metadata?.resourceVersion ?? '',
    ...(j.spec?.holderIdentity ? { holderIdentity: j.spec.holderIdentity } : {}),
    leaseDurationSeconds: j.spec?.leaseDurationSeconds ?? 0,
    ...(acquireTime ? { acquireTime } : {}),
    ...(renewTime ? { renewTime } : {}),
    leaseTransitions: j.spec?.leaseTransitions ?? 0,
  };
}

const micro = (t: string | undefined) => (t ? new V1MicroTime(Date.parse(t)) : undefined);

function leaseBody(ref: LeaseRef, labels: Record<string, string>, owner: LeaseOwnerRef | undefined, hold: LeaseHold): V1Lease {
  const acquireTime = micro(hold.acquireTime);
  const renewTime = micro(hold.renewTime);
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: ref.name,
      namespace: ref.namespace,
      labels,
      ...(owner ? { ownerReferences: [{ ...owner }] } : {}),
    },
    spec: {
      ...(hold.holderIdentity ? { holderIdentity: hold.holderIdentity } : {}),
      leaseDurationSeconds: hold.leaseDurationSeconds,
      ...(acquireTime ? { acquireTime } : {}),
      ...(renewTime ? { renewTime } : {}),
      leaseTransitions: hold.leaseTransitions,
    },
  };
}

const coordination = (kc: KubeConfig) => makeClient(kc, CoordinationV1Api, REQUEST_TIMEOUT_MS);

/** The Lease; undefined when there is none (other errors are client-node's). */
export async function readLease(kc: KubeConfig, ref: LeaseRef): Promise<LeaseSummary | undefined> {
  try {
    return summarizeLease(await coordination(kc).readNamespacedLease(ref));
  } catch (err) {
    if (statusCode(err) === 404) return undefined;
    throw err;
  }
}

/** Creates the Lease (a 409 when one of that name exists is client-node's error). */
export async function createLease(
  kc: KubeConfig,
  ref: LeaseRef,
  labels: Record<string, string>,
  owner: LeaseOwnerRef | undefined,
  hold: LeaseHold,
): Promise<LeaseSummary> {
  const body = leaseBody(ref, labels, owner, hold);
  return summarizeLease(await coordination(kc).createNamespacedLease({ namespace: ref.namespace, body }));
}

/** Writes the Lease over the version `resourceVersion` (a 409: someone wrote in between). */
export async function replaceLease(
  kc: KubeConfig,
  ref: LeaseRef,
  labels: Record<string, string>,
  owner: LeaseOwnerRef | undefined,
  hold: LeaseHold,
  resourceVersion: string,
): Promise<LeaseSummary> {
  const body = leaseBody(ref, labels, owner, hold);
  body.metadata!.resourceVersion = resourceVersion;
  return summarizeLease(await coordination(kc).replaceNamespacedLease({ ...ref, body }));
}

/** Deletes the Lease if it still has `resourceVersion` (409 otherwise); false when it was gone already. */
export async function deleteLease(kc: KubeConfig, ref: LeaseRef, resourceVersion?: string): Promise<boolean> {
  try {
    await coordination(kc).deleteNamespacedLease({
      ...ref,
      ...(resourceVersion ? { body: { preconditions: { resourceVersion } } } : {}),
    });
    return true;
  } catch (err) {
    if (statusCode(err) === 404) return false;
    throw err;
  }
}

const leasesPath = (namespace: string) => `/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases`;

/** The Leases of a namespace with the label selector. */
export async function listLeases(kc: KubeConfig, namespace: string, labelSelector: string): Promise<LeaseSummary[]> {
  const res = await makeJsonClient(kc, REQUEST_TIMEOUT_MS).get<{ items: LeaseJson[] }>(leasesPath(namespace), { labelSelector });
  return res.items.map(summarizeLease);
}

export interface LeaseWatchHandlers {
  /** The initial list and every re-list. */
  onList: (leases: LeaseSummary[]) => void;
  onChanged: (lease: LeaseSummary) => void;
  onDeleted: (lease: LeaseSummary) => void;
  onError: (message: string) => void;
}

/** Watches the Leases of a namespace with the label selector (list, then watch; restarted with backoff). */
export function watchLeases(
  kc: KubeConfig,
  namespace: string,
  labelSelector: string,
  handlers: LeaseWatchHandlers,
): { stop(): Promise<void> } {
  const path = leasesPath(namespace);
  const json = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  const watch = new ResilientWatch<LeaseJson>({
    kc,
    path,
    queryParams: { labelSelector },
    list: () => json.get<{ items: LeaseJson[]; metadata?: { resourceVersion?: string } }>(path, { labelSelector }),
    onList: (items) => handlers.onList(items.map(summarizeLease)),
    onEvent: (type, l) => (type === 'DELETED' ? handlers.onDeleted(summarizeLease(l)) : handlers.onChanged(summarizeLease(l))),
    onError: (message) => handlers.onError(message),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
  watch.start();
  return { stop: () => watch.stop() };
}
