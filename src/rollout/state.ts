/**
 * Where a rollout's state lives: ConfigMap `fleetdeck-rollout-<name>` in kube-system of the
 * rollout's cluster, labelled `app.kubernetes.io/managed-by=fleetdeck` and
 * `fleetdeck.io/rollout=<name>`, data key `rollout.json`. Written with optimistic concurrency
 * (resourceVersion; a 409 re-reads and tries again), watched (by label) for a live view. The
 * ConfigMap itself is read and written by src/kube/records/rollout-record.ts.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { describeError, statusCode } from '../kube/transport/client.js';
import {
  createRecord,
  isConflict,
  listRecords,
  readRecord,
  replaceRecord,
  watchRecords,
  type StoredRecord,
} from '../kube/records/rollout-record.js';
import { configMapName, MANAGED_BY_LABEL, ROLLOUT_LABEL, ROLLOUT_NAMESPACE, STATE_KEY, type RolloutState } from './types.js';

const CONFLICT_RETRIES = 8;

export interface StoredRollout {
  state: RolloutState;
  resourceVersion: string;
  /** The ConfigMap's uid (the owner of the rollout's Lease), when known. */
  uid?: string;
  /** The API server's time of the write that returned this (from the ConfigMap's managedFields), when known. */
  serverTime?: string;
}

const refOf = (name: string) => ({ namespace: ROLLOUT_NAMESPACE, name: configMapName(name) });
const labelsOf = (state: RolloutState) => ({ [MANAGED_BY_LABEL]: 'fleetdeck', [ROLLOUT_LABEL]: state.spec.name });
const dataOf = (state: RolloutState) => ({ [STATE_KEY]: JSON.stringify(state) });

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

const stateOf = (r: StoredRecord) => rolloutFromConfigMap({ metadata: { name: r.name }, data: r.data });

/** The rollout's state and its resourceVersion; undefined when there is no such rollout. */
export async function readRollout(kc: KubeConfig, name: string): Promise<StoredRollout | undefined> {
  let record: StoredRecord | undefined;
  try {
    record = await readRecord(kc, refOf(name));
  } catch (err) {
    throw new UserError(`cannot read rollout ${name}: ${describeError(err)}`);
  }
  return record && { state: stateOf(record), resourceVersion: record.resourceVersion, uid: record.uid };
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
    const record = await createRecord(kc, refOf(state.spec.name), labelsOf(stamped), dataOf(stamped));
    return { state: stamped, resourceVersion: record.resourceVersion, uid: record.uid };
  } catch (err) {
    if (statusCode(err) === 409)
      throw new RolloutExists(`a rollout named ${state.spec.name} exists already (fleetdeck rollout list shows it); choose another --name`);
    throw new UserError(
      `cannot create the rollout's ConfigMap ${ROLLOUT_NAMESPACE}/${configMapName(state.spec.name)}: ${describeError(err)}`,
    );
  }
}

/**
 * Writes the state over the version `resourceVersion` (updatedAt stamped now). Resolves with
 * the new resourceVersion; a 409 (someone wrote in between) is thrown as client-node's error.
 */
export async function writeRollout(kc: KubeConfig, state: RolloutState, resourceVersion: string): Promise<StoredRollout> {
  const stamped = { ...state, updatedAt: new Date().toISOString() };
  const record = await replaceRecord(kc, refOf(state.spec.name), labelsOf(stamped), dataOf(stamped), resourceVersion);
  return {
    state: stamped,
    resourceVersion: record.resourceVersion,
    uid: record.uid,
    ...(record.serverTime ? { serverTime: record.serverTime } : {}),
  };
}

/**
 * Read, change, write, with optimistic concurrency: on a 409 the state is read again and
 * `mutate` applied to the fresh one (up to 8 times). `mutate` changes the state in place (or
 * returns a new one); throwing from it cancels the update.
 */
export async function updateRollout(
  kc: KubeConfig,
  name: string,
  mutate: (state: RolloutState) => RolloutState | undefined,
): Promise<StoredRollout> {
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
  let records: StoredRecord[];
  try {
    records = await listRecords(kc, ROLLOUT_NAMESPACE, ROLLOUT_LABEL);
  } catch (err) {
    throw new UserError(`cannot list rollouts (ConfigMaps in ${ROLLOUT_NAMESPACE} labelled ${ROLLOUT_LABEL}): ${describeError(err)}`);
  }
  const out: RolloutState[] = [];
  for (const r of records) {
    try {
      out.push(stateOf(r));
    } catch {
      // Not ours to judge here: a ConfigMap that holds no state is left out of the list.
    }
  }
  return out.sort((a, b) => ((a.log[0]?.time ?? a.updatedAt) < (b.log[0]?.time ?? b.updatedAt) ? 1 : -1));
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
 * Watches the rollouts of a cluster (all of them, or one by name): ConfigMaps in kube-system
 * with the label selector `fleetdeck.io/rollout[=NAME]`. A second fleetdeck uses it to show the
 * progress the owner writes; the owner uses it to see an abort.
 */
export function watchRollouts(kc: KubeConfig, handlers: RolloutWatchHandlers, name?: string): RolloutWatch {
  const labelSelector = name ? `${ROLLOUT_LABEL}=${name}` : ROLLOUT_LABEL;
  const parse = (r: StoredRecord): RolloutState | undefined => {
    try {
      return stateOf(r);
    } catch (err) {
      handlers.onError?.((err as Error).message);
      return undefined;
    }
  };
  return watchRecords(kc, ROLLOUT_NAMESPACE, labelSelector, {
    onList: (records) => {
      const states = records.map(parse).filter((s): s is RolloutState => s !== undefined);
      handlers.onList?.(states);
      for (const s of states) handlers.onState(s);
    },
    onChanged: (r) => {
      const s = parse(r);
      if (s) handlers.onState(s);
    },
    onDeleted: (r) => handlers.onDeleted?.(r.labels[ROLLOUT_LABEL] ?? r.name),
    onError: (message) => handlers.onError?.(message),
  });
}
