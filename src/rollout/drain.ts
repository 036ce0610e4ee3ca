/**
 * Cordon and drain one node with kubectl's semantics (k8s.io/kubectl/pkg/drain): the pods of
 * the node go through the filter pipeline of drain-filters.ts, pods that need --force or
 * --delete-emptydir-data stop the drain before anything is evicted, the rest are evicted through
 * the eviction API version the server offers (a 429 is retried, and the PodDisruptionBudget
 * behind it read and reported), finished pods are deleted. A pod counts as gone when it no
 * longer exists or its UID changed, seen through a watch on the node's pods (no polling).
 *
 * A workflow as DESIGN.md has them: a plain async function with a progress sink and an
 * AbortSignal; every decision is a pure function in drain-filters.ts.
 */
import {
  ApisApi,
  AppsV1Api,
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1Node,
} from '@kubernetes/client-node';
import type { EvictionVersion } from '../kube/discovery.js';
import { describeError, makeClient, makeJsonClient, statusCode } from '../kube/client.js';
import { evictionVersionFrom } from '../kube/discovery.js';
import { listJsonPaged } from '../kube/list.js';
import { ResilientWatch } from '../kube/watch.js';
import {
  classifyPods,
  controllerOf,
  markPdbBlocked,
  pdbRef,
  pdbSelectsPod,
  podRequests,
  refusalMessage,
  roomCheck,
  type DrainFlags,
  type DrainPod,
  type NodeRoom,
  type OwnerInfo,
  type PdbObject,
  type PdbRef,
  type PodClassification,
  type PodRequests,
  type RoomCheck,
} from './drain-filters.js';
import { bytes, cpuMilli } from '../kube/quantity.js';

export type { DrainFlags, PodClassification, RoomCheck, PdbRef } from './drain-filters.js';

/** Navarchos' per-node drain timeout. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 15 * 60_000;
/** Evictions in flight at once. */
export const DEFAULT_EVICTION_CONCURRENCY = 32;

const REQUEST_TIMEOUT_MS = 30_000;
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

// ---------------------------------------------------------------------------------------------
// Cordon

async function setUnschedulable(kc: KubeConfig, node: string, value: boolean): Promise<boolean> {
  const core = makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS);
  const current = await core.readNode({ name: node });
  if ((current.spec?.unschedulable === true) === value) return false;
  await core.patchNode({ name: node, body: { spec: { unschedulable: value ? true : null } } }, mergePatch());
  return true;
}

/** Marks the node unschedulable (a merge patch of spec.unschedulable). Resolves true when it changed something. */
export function cordon(kc: KubeConfig, node: string): Promise<boolean> {
  return setUnschedulable(kc, node, true);
}

/** Makes the node schedulable again. Resolves true when it changed something. */
export function uncordon(kc: KubeConfig, node: string): Promise<boolean> {
  return setUnschedulable(kc, node, false);
}

// ---------------------------------------------------------------------------------------------
// Reading what the decisions need

/** The eviction API the server offers, found as kubectl finds it (the pods/eviction subresource). */
export async function evictionVersionOf(kc: KubeConfig): Promise<EvictionVersion> {
  const [groups, core] = await Promise.all([
    makeClient(kc, ApisApi, REQUEST_TIMEOUT_MS).getAPIVersions(),
    makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS).getAPIResources(),
  ]);
  const policy = groups.groups.find((g) => g.name === 'policy');
  return evictionVersionFrom(core, policy?.versions.map((v) => v.version) ?? []);
}

/** The pods bound to a node, as the server sends them. */
export async function listNodePods(kc: KubeConfig, node: string): Promise<DrainPod[]> {
  const res = await listJsonPaged<DrainPod, DrainPod>(makeJsonClient(kc, REQUEST_TIMEOUT_MS), '/api/v1/pods', { fieldSelector: `spec.nodeName=${node}` }, (p) => p);
  return res.items;
}

/** PodDisruptionBudgets (of one namespace, or all), read with the policy version that goes with the eviction version. */
export async function listPdbs(kc: KubeConfig, version: EvictionVersion, namespace?: string): Promise<PdbObject[]> {
  const gv = version === 'policy/v1' ? 'policy/v1' : 'policy/v1beta1';
  const path = namespace ? `/apis/${gv}/namespaces/${namespace}/poddisruptionbudgets` : `/apis/${gv}/poddisruptionbudgets`;
  const res = await listJsonPaged<PdbObject, PdbObject>(makeJsonClient(kc, REQUEST_TIMEOUT_MS), path, {}, (p) => ({ ...p, apiVersion: gv }));
  return res.items;
}

/** For every DaemonSet-controlled pod: does its DaemonSet exist? (kubectl's daemonSetFilter asks the same.) */
export async function ownerInfo(kc: KubeConfig, pods: readonly DrainPod[]): Promise<Map<string, OwnerInfo>> {
  const apps = makeClient(kc, AppsV1Api, REQUEST_TIMEOUT_MS);
  const seen = new Map<string, Promise<'exists' | 'missing'>>();
  const out = new Map<string, OwnerInfo>();
  await Promise.all(
    pods.map(async (p) => {
      const ref = controllerOf(p);
      if (ref?.kind !== 'DaemonSet') return;
      const namespace = p.metadata?.namespace ?? '';
      const key = `${namespace}/${ref.name}`;
      let lookup = seen.get(key);
      if (!lookup) {
        lookup = apps.readNamespacedDaemonSet({ name: ref.name, namespace }).then(
          () => 'exists' as const,
          (err: unknown) => {
            if (statusCode(err) === 404) return 'missing' as const;
            throw new Error(`cannot read DaemonSet ${key}: ${describeError(err)}`);
          },
        );
        seen.set(key, lookup);
      }
      out.set(p.metadata?.uid ?? '', { daemonSet: await lookup });
    }),
  );
  return out;
}

/** The pods of a node and what a drain with these flags would do with each (no PDB check). */
export async function classifyNode(kc: KubeConfig, node: string, flags: DrainFlags): Promise<{ pods: DrainPod[]; classes: PodClassification[] }> {
  const pods = await listNodePods(kc, node);
  const owners = await ownerInfo(kc, pods);
  return { pods, classes: classifyPods(pods, owners, flags) };
}

interface JsonNode {
  metadata?: { name?: string };
  spec?: { unschedulable?: boolean };
  status?: V1Node['status'] & { allocatable?: Record<string, string> };
}

/** Every node's allocatable and what its (not finished) pods request. */
export async function nodeRooms(kc: KubeConfig): Promise<NodeRoom[]> {
  const client = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  const [nodes, pods] = await Promise.all([
    listJsonPaged<JsonNode, JsonNode>(client, '/api/v1/nodes', {}, (n) => n),
    listJsonPaged<DrainPod, { node: string; requests: PodRequests }>(
      client,
      '/api/v1/pods',
      { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' },
      (p) => ({ node: p.spec?.nodeName ?? '', requests: podRequests(p) }),
    ),
  ]);
  const used = new Map<string, { cpuMilli: number; memoryBytes: number; pods: number }>();
  for (const p of pods.items) {
    if (!p.node) continue;
    const u = used.get(p.node) ?? { cpuMilli: 0, memoryBytes: 0, pods: 0 };
    u.cpuMilli += p.requests.cpuMilli;
    u.memoryBytes += p.requests.memoryBytes;
    u.pods += 1;
    used.set(p.node, u);
  }
  return nodes.items.map((n) => {
    const name = n.metadata?.name ?? '';
    const a = n.status?.allocatable ?? {};
    return {
      name,
      ready: (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
      unschedulable: n.spec?.unschedulable === true,
      allocatable: { cpuMilli: cpuMilli(a.cpu), memoryBytes: bytes(a.memory), pods: Math.floor(bytes(a.pods)) },
      requested: used.get(name) ?? { cpuMilli: 0, memoryBytes: 0, pods: 0 },
    };
  });
}

/** The requests that need room elsewhere: evicted pods a controller recreates (finished, ignored and unmanaged ones do not come back). */
export function roomNeeded(classes: readonly PodClassification[], pods: readonly DrainPod[]): PodRequests[] {
  const byUid = new Map(pods.map((p) => [p.metadata?.uid ?? '', p]));
  return classes
    .filter((c) => c.action === 'evict' || c.action === 'blocked-pdb')
    .filter((c) => {
      const ref = controllerOf(byUid.get(c.uid) ?? {});
      return ref !== undefined && ref.kind !== 'DaemonSet';
    })
    .map((c) => c.requests);
}

export interface NodeDryRun {
  node: string;
  pods: PodClassification[];
  /** When the drain would refuse to start: which pods need which flag. */
  refused?: string;
}

export interface DrainDryRun {
  evictionVersion: EvictionVersion;
  nodes: NodeDryRun[];
  /** Would the evicted pods of all these nodes fit on the other nodes? */
  room: RoomCheck;
}

/**
 * The dry run: every pod of every node classified (kubectl's filters), the pods a PDB would
 * block right now marked `blocked-pdb` (each node judged as if drained now, with the budgets as
 * they are), and whether the rest of the cluster has room for what is evicted. Changes nothing.
 */
export async function dryRunDrain(kc: KubeConfig, nodes: readonly string[], flags: DrainFlags): Promise<DrainDryRun> {
  const version = await evictionVersionOf(kc);
  const [perNode, pdbs, rooms] = await Promise.all([
    Promise.all(nodes.map(async (node) => ({ node, ...(await classifyNode(kc, node, flags)) }))),
    version === 'none' ? Promise.resolve([]) : listPdbs(kc, version),
    nodeRooms(kc),
  ]);
  const out: NodeDryRun[] = [];
  const need: PodRequests[] = [];
  for (const n of perNode) {
    const classes = markPdbBlocked(n.classes, n.pods, pdbs);
    const refused = refusalMessage(n.node, classes);
    out.push({ node: n.node, pods: classes, ...(refused ? { refused } : {}) });
    need.push(...roomNeeded(classes, n.pods));
  }
  return { evictionVersion: version, nodes: out, room: roomCheck(need, rooms, new Set(nodes)) };
}

// ---------------------------------------------------------------------------------------------
// Drain

export interface DrainOptions {
  force?: boolean;
  deleteEmptyDirData?: boolean;
  /** Per node, from the cordon on (default 15 min, as Navarchos). */
  timeoutMs?: number;
  /** Grace period for evicted and deleted pods (default: each pod's own). */
  gracePeriodSeconds?: number;
  /** Evictions in flight at once (default 32). */
  concurrency?: number;
  /** The eviction API version, when the caller already knows it (else discovered). */
  evictionVersion?: EvictionVersion;
}

export interface DrainProgress {
  node: string;
  /** Pods on the node when the drain started (all of them, ignored ones included). */
  total: number;
  evicted: number;
  /** DaemonSet and mirror pods, which stay. */
  ignored: number;
  /** Finished pods deleted. */
  deleted: number;
  failed: number;
  /** Pods still to be evicted or deleted (or evicted and not gone yet). */
  remaining: number;
  /** The budget that refused the latest eviction of a pod that is still waiting. */
  blockingPdb?: PdbRef;
  lastError?: string;
}

export interface DrainResult {
  node: string;
  /** True when this drain cordoned the node (false: it was cordoned already). */
  cordoned: boolean;
  pods: PodClassification[];
  progress: DrainProgress;
}

export type DrainErrorKind = 'refused' | 'timeout' | 'failed';

/** A drain that did not finish: refused before it started, timed out, or with pods it could not evict. */
export class DrainError extends Error {
  constructor(
    message: string,
    readonly kind: DrainErrorKind,
    readonly node: string,
    /** The pods concerned: refused ones, the ones left, or the ones that failed (with why). */
    readonly pods: { namespace: string; name: string; reason: string }[],
    readonly progress: DrainProgress | undefined,
    /** True when this drain cordoned the node (it stays cordoned, as with kubectl). */
    readonly cordoned: boolean,
  ) {
    super(message);
    this.name = 'DrainError';
  }
}

type TargetState = 'pending' | 'gone' | 'failed';

interface Target {
  cls: PodClassification;
  pod: DrainPod;
  state: TargetState;
  error?: string;
}

const list = (items: string[], max = 8) => (items.length > max ? `${items.slice(0, max).join(', ')} and ${items.length - max} more` : items.join(', '));

/** The "uid" of errors of the watch itself (cleared by the next successful list). */
const WATCH = 'watch';

/** Why an aborted signal stopped the work: its reason when it is an Error. */
export const abortReason = (signal: AbortSignal) => (signal.reason instanceof Error ? signal.reason : new Error('cancelled'));

/** Resolves after `ms`, or rejects as soon as the signal aborts (with its reason). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortReason(signal));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortReason(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The promise, or the signal's reason as soon as it aborts (the request itself runs on to its own timeout). */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** Backoff after a 429 or a transient error: 1 s, 2 s, 4 s, then 5 s, with jitter. */
function backoffMs(attempt: number): number {
  const base = Math.min(5_000, 1_000 * 2 ** attempt);
  return base * (0.75 + Math.random() * 0.25);
}

const isTransient = (err: unknown) => {
  const code = statusCode(err);
  return code === undefined || code === 500 || code === 502 || code === 503 || code === 504;
};

function causeReasons(err: unknown): string[] {
  let body: unknown = (err as { body?: unknown })?.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return [];
    }
  }
  const causes = (body as { details?: { causes?: { reason?: string; type?: string }[] } })?.details?.causes ?? [];
  return causes.map((c) => c.reason ?? c.type ?? '');
}

/**
 * Cordons the node (unless it is already), classifies its pods and refuses — before evicting
 * anything — when a pod needs --force or --delete-emptydir-data that was not given (DrainError
 * 'refused', naming the pods and the flag). Then evicts (or, without an eviction API, deletes)
 * the pods concurrently, retrying 429s with backoff and reporting the PodDisruptionBudget that
 * refused them, deletes finished pods, and resolves when every one of them is gone. Progress
 * is reported after every change. Throws DrainError 'timeout' (what is left) after
 * `timeoutMs`, DrainError 'failed' when some pods could not be evicted, and the signal's
 * reason as soon as it aborts. The node stays cordoned in every case, as with kubectl.
 */
export async function drainNode(
  kc: KubeConfig,
  node: string,
  opts: DrainOptions = {},
  onProgress: (p: DrainProgress) => void = () => {},
  signal?: AbortSignal,
): Promise<DrainResult> {
  signal?.throwIfAborted();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const flags: DrainFlags = { force: opts.force ?? false, deleteEmptyDirData: opts.deleteEmptyDirData ?? false };
  // One signal for everything below: the caller's abort, the timeout, or the end of the drain.
  const stop = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort(new Error('drain timeout'));
  }, timeoutMs);
  const onCallerAbort = () => stop.abort(signal?.reason);
  signal?.addEventListener('abort', onCallerAbort, { once: true });

  const core = makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS);
  const json = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  const fieldSelector = `spec.nodeName=${node}`;
  // uids of the node's pods as the watch sees them now.
  const present = new Set<string>();
  let firstList: (() => void) | undefined;
  let listed: DrainPod[] | undefined;
  const targets = new Map<string, Target>();
  const blocked = new Map<string, PdbRef>();
  let classes: PodClassification[] = [];
  let lastError: string | undefined;
  /** The pod the last error was about: the error is cleared once that pod is evicted or gone. */
  let lastErrorUid: string | undefined;
  const setError = (uid: string | undefined, message: string) => {
    lastError = message;
    lastErrorUid = uid;
  };
  const clearErrorOf = (uid: string) => {
    if (lastErrorUid !== uid) return;
    lastError = undefined;
    lastErrorUid = undefined;
  };
  let cordoned = false;
  let check: () => void = () => {};

  const progress = (): DrainProgress => {
    let evicted = 0;
    let deleted = 0;
    let failed = 0;
    let remaining = 0;
    for (const t of targets.values()) {
      if (t.state === 'failed') failed++;
      else if (t.state === 'pending') remaining++;
      else if (t.cls.action === 'delete') deleted++;
      else evicted++;
    }
    const ignored = classes.filter((c) => c.action === 'ignored-daemonset' || c.action === 'skipped-mirror').length;
    const blocking = [...blocked.values()].at(-1);
    return {
      node,
      total: classes.length,
      evicted,
      ignored,
      deleted,
      failed,
      remaining,
      ...(blocking ? { blockingPdb: blocking } : {}),
      ...(lastError ? { lastError } : {}),
    };
  };
  let lastEmitted = '';
  const emit = () => {
    const p = progress();
    const key = JSON.stringify(p);
    if (key === lastEmitted) return;
    lastEmitted = key;
    onProgress(p);
  };

  const markGone = (uid: string) => {
    const t = targets.get(uid);
    if (!t || t.state !== 'pending') return;
    t.state = 'gone';
    blocked.delete(uid);
    clearErrorOf(uid);
    emit();
    check();
  };
  const markFailed = (uid: string, why: string) => {
    const t = targets.get(uid);
    if (!t || t.state !== 'pending') return;
    t.state = 'failed';
    t.error = why;
    blocked.delete(uid);
    setError(undefined, `${t.cls.namespace}/${t.cls.name}: ${why}`);
    emit();
    check();
  };

  const watch = new ResilientWatch<DrainPod>({
    kc,
    path: '/api/v1/pods',
    queryParams: { fieldSelector },
    list: () => json.get<{ items: DrainPod[]; metadata?: { resourceVersion?: string } }>('/api/v1/pods', { fieldSelector }),
    onList: (items) => {
      clearErrorOf(WATCH);
      present.clear();
      for (const p of items) present.add(p.metadata?.uid ?? '');
      if (!listed) {
        listed = items;
        firstList?.();
      }
      for (const uid of targets.keys()) if (!present.has(uid)) markGone(uid);
      if (targets.size) emit();
    },
    onEvent: (type, p) => {
      const uid = p.metadata?.uid ?? '';
      if (type === 'DELETED') {
        present.delete(uid);
        markGone(uid);
      } else present.add(uid);
    },
    onError: (message) => {
      setError(WATCH, `watching the node's pods: ${message}`);
      if (listed) emit();
    },
    backoff: { initialMs: 500, maxMs: 5_000 },
  });

  /** PDB reads after 429s, shared for a second per namespace. */
  const pdbReads = new Map<string, { at: number; p: Promise<PdbObject[]> }>();
  const pdbsOf = (namespace: string, version: EvictionVersion) => {
    const cached = pdbReads.get(namespace);
    if (cached && performance.now() - cached.at < 1_000) return cached.p;
    const p = listPdbs(kc, version, namespace);
    p.catch(() => {});
    pdbReads.set(namespace, { at: performance.now(), p });
    return p;
  };

  const deleteOptions = (uid: string) => ({
    ...(opts.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}),
    preconditions: { uid },
  });

  /** After a 404 or 409: is the pod we meant gone (not found, or another pod by that name)? */
  const isReplacedOrGone = async (t: Target): Promise<boolean> => {
    try {
      const p = await core.readNamespacedPod({ name: t.cls.name, namespace: t.cls.namespace });
      return p.metadata?.uid !== t.cls.uid;
    } catch (err) {
      if (statusCode(err) === 404) return true;
      throw err;
    }
  };

  const remove = async (t: Target, version: EvictionVersion) => {
    const { namespace, name, uid } = t.cls;
    const evict = t.cls.action === 'evict' && version !== 'none';
    let tooMany = 0;
    let transient = 0;
    while (t.state === 'pending') {
      stop.signal.throwIfAborted();
      try {
        if (evict) {
          await abortable(
            core.createNamespacedPodEviction({
              name,
              namespace,
              body: { apiVersion: version, kind: 'Eviction', metadata: { name, namespace }, deleteOptions: deleteOptions(uid) },
            }),
            stop.signal,
          );
        } else {
          await abortable(core.deleteNamespacedPod({ name, namespace, body: deleteOptions(uid) }), stop.signal);
        }
        blocked.delete(uid);
        clearErrorOf(uid);
        emit();
        return; // accepted: the watch says when it is gone
      } catch (err) {
        if (stop.signal.aborted) throw abortReason(stop.signal);
        const code = statusCode(err);
        if (code === 404 || code === 409) {
          if (await abortable(isReplacedOrGone(t), stop.signal)) return markGone(uid);
          if (transient++ < 5) continue; // a conflict on a pod that is still ours: try again
        }
        if (code === 429) {
          // A budget (or the server's rate limits): find the budget by reading the PDBs that cover the pod.
          let covering: PdbObject[] = [];
          try {
            covering = (await abortable(pdbsOf(namespace, version), stop.signal)).filter((b) => pdbSelectsPod(b, t.pod));
          } catch (e) {
            if (stop.signal.aborted) throw abortReason(stop.signal);
            setError(uid, `reading PodDisruptionBudgets of ${namespace}: ${describeError(e)}`);
          }
          const pdb = covering[0];
          if (pdb) {
            const ref = pdbRef(pdb);
            blocked.delete(uid); // re-insert: the latest refusal is the one shown
            blocked.set(uid, ref);
            setError(uid, `${namespace}/${name}: eviction refused by PodDisruptionBudget ${ref.namespace}/${ref.name} (${ref.disruptionsAllowed} disruptions allowed); retrying`);
          } else {
            setError(uid, `${namespace}/${name}: ${describeError(err)}; retrying`);
          }
          emit();
          await sleep(backoffMs(tooMany++), stop.signal);
          continue;
        }
        if (code === 403 && causeReasons(err).includes('NamespaceTerminating')) {
          // Evictions in a terminating namespace are refused; the namespace controller deletes
          // its pods anyway: wait for the watch to see this one go.
          setError(uid, `${namespace}/${name}: namespace ${namespace} is terminating; waiting for its pods to be deleted`);
          emit();
          return;
        }
        if (code === 500 && evict) {
          // The eviction API refuses pods covered by several budgets (HTTP 500): say which.
          const covering = await abortable(pdbsOf(namespace, version), stop.signal).then(
            (all) => all.filter((b) => pdbSelectsPod(b, t.pod)),
            () => [],
          );
          if (covering.length > 1) {
            return markFailed(uid, `covered by ${covering.length} PodDisruptionBudgets (${covering.map((b) => b.metadata?.name).join(', ')}), which the eviction API refuses`);
          }
        }
        if (isTransient(err) && transient < 5) {
          setError(uid, `${namespace}/${name}: ${describeError(err)}; retrying`);
          emit();
          await sleep(backoffMs(transient++), stop.signal);
          continue;
        }
        return markFailed(uid, describeError(err));
      }
    }
  };

  try {
    const version = opts.evictionVersion ?? (await abortable(evictionVersionOf(kc), stop.signal));
    cordoned = await abortable(cordon(kc, node), stop.signal);

    const firstListed = new Promise<void>((resolve) => (firstList = resolve));
    watch.start();
    await abortable(firstListed, stop.signal);
    const pods = listed ?? [];
    const owners = await abortable(ownerInfo(kc, pods), stop.signal);
    classes = classifyPods(pods, owners, flags);

    const refused = refusalMessage(node, classes);
    if (refused) {
      const pods = classes.filter((c) => c.action === 'needs-force' || c.action === 'needs-delete-emptydir-data');
      throw new DrainError(refused, 'refused', node, pods.map((c) => ({ namespace: c.namespace, name: c.name, reason: c.reason })), progress(), cordoned);
    }

    const byUid = new Map(pods.map((p) => [p.metadata?.uid ?? '', p]));
    for (const c of classes) {
      if (c.action !== 'evict' && c.action !== 'delete') continue;
      targets.set(c.uid, { cls: c, pod: byUid.get(c.uid) ?? {}, state: present.has(c.uid) ? 'pending' : 'gone' });
    }
    emit();

    const done = new Promise<void>((resolve) => {
      check = () => {
        for (const t of targets.values()) if (t.state === 'pending') return;
        resolve();
      };
    });
    check();

    // Evict (or delete) with bounded concurrency; the watch decides when each pod is gone.
    const queue = [...targets.values()];
    const worker = async () => {
      for (let t = queue.shift(); t; t = queue.shift()) {
        if (t.state !== 'pending') continue;
        try {
          await remove(t, version);
        } catch (err) {
          if (stop.signal.aborted) throw abortReason(stop.signal);
          markFailed(t.cls.uid, describeError(err));
        }
      }
    };
    const workers = Promise.all(Array.from({ length: Math.min(Math.max(1, opts.concurrency ?? DEFAULT_EVICTION_CONCURRENCY), queue.length) }, worker));
    workers.catch(() => {}); // an abort surfaces through `done` below
    await abortable(Promise.all([done, workers]), stop.signal);

    const failed = [...targets.values()].filter((t) => t.state === 'failed');
    if (failed.length) {
      const lines = failed.map((t) => `${t.cls.namespace}/${t.cls.name} (${t.error})`);
      throw new DrainError(
        `drain of node ${node}: ${failed.length} pod${failed.length === 1 ? '' : 's'} could not be evicted: ${list(lines)}`,
        'failed',
        node,
        failed.map((t) => ({ namespace: t.cls.namespace, name: t.cls.name, reason: t.error ?? '' })),
        progress(),
        cordoned,
      );
    }
    return { node, cordoned, pods: classes, progress: progress() };
  } catch (err) {
    if (timedOut && !(err instanceof DrainError)) {
      const left = [...targets.values()].filter((t) => t.state === 'pending');
      const p = progress();
      const pdb = p.blockingPdb ? `; blocked by PodDisruptionBudget ${p.blockingPdb.namespace}/${p.blockingPdb.name} (${p.blockingPdb.disruptionsAllowed} disruptions allowed)` : '';
      const what = listed === undefined ? 'the pods of the node could not be listed' : `${left.length} pod${left.length === 1 ? '' : 's'} left: ${list(left.map((t) => `${t.cls.namespace}/${t.cls.name}`))}`;
      throw new DrainError(
        `drain of node ${node} timed out after ${Math.round(timeoutMs / 1000)} s: ${what}${pdb}${lastError && !pdb ? ` (last error: ${lastError})` : ''}`,
        'timeout',
        node,
        left.map((t) => ({ namespace: t.cls.namespace, name: t.cls.name, reason: blocked.has(t.cls.uid) ? `blocked by PodDisruptionBudget ${blocked.get(t.cls.uid)!.name}` : 'not gone yet' })),
        p,
        cordoned,
      );
    }
    throw err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
    if (!stop.signal.aborted) stop.abort(new Error('drain finished'));
    await watch.stop();
  }
}
