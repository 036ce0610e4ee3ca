/**
 * Where a rollout's state lives: ConfigMap `fleetdeck-rollout-<name>` in kube-system of the
 * rollout's cluster, labelled `app.kubernetes.io/managed-by=fleetdeck` and
 * `fleetdeck.io/rollout=<name>`, data key `rollout.json`. Written with optimistic concurrency
 * (resourceVersion; a 409 re-reads and tries again), watched (by label) for a live view.
 */
import os from 'node:os';
import { CoreV1Api, type KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { describeError, makeClient, makeJsonClient, statusCode } from '../kube/client.js';
import { ResilientWatch } from '../kube/watch.js';
import {
  configMapName,
  MANAGED_BY_LABEL,
  ROLLOUT_LABEL,
  ROLLOUT_NAMESPACE,
  STATE_KEY,
  type RolloutOwner,
  type RolloutState,
} from './types.js';

const REQUEST_TIMEOUT_MS = 15_000;
const CONFLICT_RETRIES = 8;

export interface StoredRollout {
  state: RolloutState;
  resourceVersion: string;
  /** The API server's time of the write that returned this (from the ConfigMap's managedFields), when known. */
  serverTime?: string;
}

/** The latest managedFields time of an object the server returned: the server's clock at that write (second resolution). */
function serverTimeOf(cm: V1ConfigMap): string | undefined {
  let latest: number | undefined;
  for (const f of cm.metadata?.managedFields ?? []) {
    const t = f.time instanceof Date ? f.time.getTime() : typeof f.time === 'string' ? Date.parse(f.time) : NaN;
    if (Number.isFinite(t) && (latest === undefined || t > latest)) latest = t;
  }
  return latest === undefined ? undefined : new Date(latest).toISOString();
}

/** The rollout's ConfigMap (without a resourceVersion). */
export function rolloutConfigMap(state: RolloutState): V1ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: configMapName(state.spec.name),
      namespace: ROLLOUT_NAMESPACE,
      labels: { [MANAGED_BY_LABEL]: 'fleetdeck', [ROLLOUT_LABEL]: state.spec.name },
    },
    data: { [STATE_KEY]: JSON.stringify(state) },
  };
}

/** The state a ConfigMap holds; throws a one-line UserError when it holds none that makes sense. */
export function rolloutFromConfigMap(cm: { metadata?: { name?: string }; data?: Record<string, string> | null }): RolloutState {
  const raw = cm.data?.[STATE_KEY];
  const where = `ConfigMap ${ROLLOUT_NAMESPACE}/${cm.metadata?.name ?? '?'}`;
  if (raw === undefined) throw new UserError(`${where} has no ${STATE_KEY}`);
  let state: RolloutState;
  try {
    state = JSON.parse(raw) as RolloutState;
  } catch (err) {
    throw new UserError(`${where}: ${STATE_KEY} is not JSON (${(err as Error).message})`);
  }
  if (typeof state !== 'object' || state === null || typeof state.spec?.name !== 'string' || !Array.isArray(state.nodes)) {
    throw new UserError(`${where}: ${STATE_KEY} is not a rollout state`);
  }
  state.log ??= [];
  return state;
}

const core = (kc: KubeConfig) => makeClient(kc, CoreV1Api, REQUEST_TIMEOUT_MS);

/** The rollout's state and its resourceVersion; undefined when there is no such rollout. */
export async function readRollout(kc: KubeConfig, name: string): Promise<StoredRollout | undefined> {
  let cm: V1ConfigMap;
  try {
    cm = await core(kc).readNamespacedConfigMap({ name: configMapName(name), namespace: ROLLOUT_NAMESPACE });
  } catch (err) {
    if (statusCode(err) === 404) return undefined;
    throw new UserError(`cannot read rollout ${name}: ${describeError(err)}`);
  }
  return { state: rolloutFromConfigMap(cm), resourceVersion: cm.metadata?.resourceVersion ?? '' };
}

/** Like readRollout, but a missing rollout is a UserError naming it. */
export async function mustReadRollout(kc: KubeConfig, name: string, context: string): Promise<StoredRollout> {
  const found = await readRollout(kc, name);
  if (!found) throw new UserError(`no rollout "${name}" in context ${context} (fleetdeck rollout list shows them)`);
  return found;
}

export class RolloutExists extends UserError {}

/** Creates the rollout's ConfigMap; RolloutExists when one of that name is there already. */
export async function createRollout(kc: KubeConfig, state: RolloutState): Promise<StoredRollout> {
  const stamped = { ...state, updatedAt: new Date().toISOString() };
  try {
    const cm = await core(kc).createNamespacedConfigMap({ namespace: ROLLOUT_NAMESPACE, body: rolloutConfigMap(stamped) });
    return { state: stamped, resourceVersion: cm.metadata?.resourceVersion ?? '' };
  } catch (err) {
    if (statusCode(err) === 409) throw new RolloutExists(`a rollout named ${state.spec.name} exists already (fleetdeck rollout list shows it); choose another --name`);
    throw new UserError(`cannot create the rollout's ConfigMap ${ROLLOUT_NAMESPACE}/${configMapName(state.spec.name)}: ${describeError(err)}`);
  }
}

/**
 * Writes the state over the version `resourceVersion` (updatedAt stamped now). Resolves with
 * the new resourceVersion; a 409 (someone wrote in between) is thrown as client-node's error.
 */
export async function writeRollout(kc: KubeConfig, state: RolloutState, resourceVersion: string): Promise<StoredRollout> {
  const stamped = { ...state, updatedAt: new Date().toISOString() };
  const body = rolloutConfigMap(stamped);
  body.metadata!.resourceVersion = resourceVersion;
  const cm = await core(kc).replaceNamespacedConfigMap({ name: configMapName(state.spec.name), namespace: ROLLOUT_NAMESPACE, body });
  const serverTime = serverTimeOf(cm);
  return { state: stamped, resourceVersion: cm.metadata?.resourceVersion ?? '', ...(serverTime ? { serverTime } : {}) };
}

export const isConflict = (err: unknown) => statusCode(err) === 409;

/**
 * Read, change, write, with optimistic concurrency: on a 409 the state is read again and
 * `mutate` applied to the fresh one (up to 8 times). `mutate` changes the state in place (or
 * returns a new one); throwing from it cancels the update.
 */
export async function updateRollout(kc: KubeConfig, name: string, mutate: (state: RolloutState) => RolloutState | void): Promise<StoredRollout> {
  for (let attempt = 0; ; attempt++) {
    const current = await readRollout(kc, name);
    if (!current) throw new UserError(`rollout ${name} is gone (its ConfigMap ${ROLLOUT_NAMESPACE}/${configMapName(name)} was deleted)`);
    const next = mutate(current.state) ?? current.state;
    try {
      return await writeRollout(kc, next, current.resourceVersion);
    } catch (err) {
      if (isConflict(err) && attempt < CONFLICT_RETRIES) continue;
      throw new UserError(`cannot update rollout ${name}: ${describeError(err)}`);
    }
  }
}

/** Every rollout of the cluster (by label), newest first. */
export async function listRollouts(kc: KubeConfig): Promise<RolloutState[]> {
  let res: { items: V1ConfigMap[] };
  try {
    res = await makeJsonClient(kc, REQUEST_TIMEOUT_MS).get<{ items: V1ConfigMap[] }>(`/api/v1/namespaces/${ROLLOUT_NAMESPACE}/configmaps`, { labelSelector: ROLLOUT_LABEL });
  } catch (err) {
    throw new UserError(`cannot list rollouts (ConfigMaps in ${ROLLOUT_NAMESPACE} labelled ${ROLLOUT_LABEL}): ${describeError(err)}`);
  }
  const out: RolloutState[] = [];
  for (const cm of res.items) {
    try {
      out.push(rolloutFromConfigMap(cm));
    } catch {
      // Not ours to judge here: a ConfigMap that holds no state is left out of the list.
    }
  }
  return out.sort((a, b) => (a.log[0]?.time ?? a.updatedAt) < (b.log[0]?.time ?? b.updatedAt) ? 1 : -1);
}

export interface RolloutWatchHandlers {
  /** A rollout was listed, created or changed. */
  onState: (state: RolloutState) => void;
  /** A rollout's ConfigMap was deleted. */
  onDeleted?: (name: string) => void;
  /** The initial list (and every re-list) is in: every rollout known now. */
  onList?: (states: RolloutState[]) => void;
  onError?: (message: string) => void;
}

export interface RolloutWatch {
  stop(): Promise<void>;
}

/**
 * Watches the rollouts of a cluster (all of them, or one by name): a ResilientWatch on
 * ConfigMaps in kube-system with the label selector `fleetdeck.io/rollout[=NAME]`. A second
 * fleetdeck uses it to show the progress the owner writes; the owner uses it to see an abort.
 */
export function watchRollouts(kc: KubeConfig, handlers: RolloutWatchHandlers, name?: string): RolloutWatch {
  const path = `/api/v1/namespaces/${ROLLOUT_NAMESPACE}/configmaps`;
  const labelSelector = name ? `${ROLLOUT_LABEL}=${name}` : ROLLOUT_LABEL;
  const json = makeJsonClient(kc, REQUEST_TIMEOUT_MS);
  const parse = (cm: V1ConfigMap): RolloutState | undefined => {
    try {
      return rolloutFromConfigMap(cm);
    } catch (err) {
      handlers.onError?.((err as Error).message);
      return undefined;
    }
  };
  const watch = new ResilientWatch<V1ConfigMap>({
    kc,
    path,
    queryParams: { labelSelector },
    list: () => json.get<{ items: V1ConfigMap[]; metadata?: { resourceVersion?: string } }>(path, { labelSelector }),
    onList: (items) => {
      const states = items.map(parse).filter((s): s is RolloutState => s !== undefined);
      handlers.onList?.(states);
      for (const s of states) handlers.onState(s);
    },
    onEvent: (type, cm) => {
      if (type === 'DELETED') {
        handlers.onDeleted?.(cm.metadata?.labels?.[ROLLOUT_LABEL] ?? cm.metadata?.name ?? '');
        return;
      }
      const s = parse(cm);
      if (s) handlers.onState(s);
    },
    onError: (message) => handlers.onError?.(message),
    backoff: { initialMs: 500, maxMs: 5_000 },
  });
  watch.start();
  return { stop: () => watch.stop() };
}

/** This process as a rollout's owner. */
export function selfOwner(now: Date = new Date()): RolloutOwner {
  return { host: os.hostname(), pid: process.pid, heartbeat: now.toISOString() };
}
