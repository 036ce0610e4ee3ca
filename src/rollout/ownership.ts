/**
 * Who runs a rollout: its Lease `kube-system/fleetdeck-rollout-NAME` (coordination.k8s.io/v1),
 * labelled like the record and owned by the record's ConfigMap (deleted with it). The holder
 * renews it every 10 s (leaseDurationSeconds 30). Taking it: create it, or replace it over its
 * resourceVersion when it is free, expired, held by a process of this host that is gone or is
 * no fleetdeck, held by ourselves, or with force; a 409 re-reads and decides again, so two
 * runners never both hold it. Given back (holderIdentity cleared) when the run ends.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { describeError, statusCode } from '../kube/transport/client.js';
import {
  createLease,
  listLeases,
  readLease,
  replaceLease,
  watchLeases,
  type LeaseHold,
  type LeaseSummary,
  type LeaseWatchHandlers,
} from '../kube/records/lease.js';
import { holderView, ownedElsewhereMessage, type HolderView, type ProcessProbe } from './owner-liveness.js';

export { holderView, ownedElsewhereMessage, type HolderView };
import { configMapName, MANAGED_BY_LABEL, OWNER_STALE_MS, ROLLOUT_LABEL, ROLLOUT_NAMESPACE, type RolloutState } from './types.js';

export const LEASE_DURATION_SECONDS = OWNER_STALE_MS / 1000;
const CONFLICT_RETRIES = 8;

const refOf = (name: string) => ({ namespace: ROLLOUT_NAMESPACE, name: configMapName(name) });
const labelsOf = (name: string) => ({ [MANAGED_BY_LABEL]: 'fleetdeck', [ROLLOUT_LABEL]: name });
const recordOwner = (name: string, uid: string | undefined) =>
  uid ? { apiVersion: 'v1', kind: 'ConfigMap', name: configMapName(name), uid } : undefined;

/** The rollout's Lease; undefined when there is none. */
export async function readRolloutLease(kc: KubeConfig, name: string): Promise<LeaseSummary | undefined> {
  try {
    return await readLease(kc, refOf(name));
  } catch (err) {
    throw new UserError(`cannot read the Lease of rollout ${name}: ${describeError(err)}`);
  }
}

/** The live holder of a rollout other than `self`, from its Lease (or an old record); undefined when it is free to take. */
export async function blockingHolder(kc: KubeConfig, state: RolloutState, self?: string): Promise<HolderView | undefined> {
  const v = holderView(await readRolloutLease(kc, state.spec.name), state, Date.now());
  return v && v.holder !== self && v.liveness.state === 'live' ? v : undefined;
}

/** What acquiring does with the Lease as it is: take it (a transition when it changes hands), or refuse (a live other holder). */
export function acquireVerdict(
  current: LeaseHold | undefined,
  self: string,
  now: number,
  force: boolean,
  host?: string,
  probe?: ProcessProbe,
): { take: true; transition: boolean; previous?: HolderView } | { take: false; holder: HolderView } {
  const v = holderView(current, undefined, now, host, probe);
  if (!v || v.holder === self) return { take: true, transition: false };
  if (v.liveness.state === 'live' && !force) return { take: false, holder: v };
  return { take: true, transition: true, previous: v };
}

/** The Lease held by `self` from now. */
function heldBy(self: string, current: LeaseHold | undefined, transition: boolean, now: string): LeaseHold {
  const mine = current?.holderIdentity === self;
  return {
    holderIdentity: self,
    leaseDurationSeconds: LEASE_DURATION_SECONDS,
    acquireTime: mine && current?.acquireTime ? current.acquireTime : now,
    renewTime: now,
    leaseTransitions: (current?.leaseTransitions ?? 0) + (transition ? 1 : 0),
  };
}

export interface Acquired {
  lease: LeaseSummary;
  /** The holder it was taken from (expired, dead, or forced). */
  previous?: HolderView;
}

/**
 * Takes the rollout's Lease for `self`; a UserError naming the live holder when another one
 * holds it (unless `force`). `recordUid` is the record ConfigMap's uid (the Lease's owner).
 */
export async function acquireRolloutLease(
  kc: KubeConfig,
  name: string,
  recordUid: string | undefined,
  self: string,
  force: boolean,
  context?: string,
): Promise<Acquired> {
  const ref = refOf(name);
  for (let attempt = 0; ; attempt++) {
    const current = await readRolloutLease(kc, name);
    const verdict = acquireVerdict(current, self, Date.now(), force);
    if (!verdict.take) throw new UserError(ownedElsewhereMessage(name, verdict.holder, context));
    const hold = heldBy(self, current, verdict.transition, new Date().toISOString());
    try {
      const lease = current
        ? await replaceLease(kc, ref, labelsOf(name), recordOwner(name, recordUid), hold, current.resourceVersion)
        : await createLease(kc, ref, labelsOf(name), recordOwner(name, recordUid), hold);
      return { lease, ...(verdict.previous ? { previous: verdict.previous } : {}) };
    } catch (err) {
      if (statusCode(err) === 409 && attempt < CONFLICT_RETRIES) continue;
      throw new UserError(`cannot take the Lease of rollout ${name}: ${describeError(err)}`);
    }
  }
}

/** Gives the Lease back (holderIdentity cleared) if `self` still holds it; errors are left to the caller. */
export async function releaseRolloutLease(kc: KubeConfig, name: string, self: string, recordUid?: string): Promise<void> {
  const ref = refOf(name);
  for (let attempt = 0; attempt < CONFLICT_RETRIES; attempt++) {
    const current = await readLease(kc, ref);
    if (!current || current.holderIdentity !== self) return;
    const { holderIdentity: _h, renewTime: _r, ...rest } = current;
    try {
      await replaceLease(kc, ref, current.labels, recordOwner(name, recordUid), { ...rest }, current.resourceVersion);
      return;
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
    }
  }
}

/** Another holder has the rollout's Lease, or (`unreachable`) it could not be renewed in time. */
export class LeaseLost extends Error {
  constructor(
    readonly holder: string | undefined,
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
    this.name = 'LeaseLost';
  }
}

/**
 * Renews the Lease every `renewMs` and watches it: another holder seen (in the watch or after a
 * 409), or no renewal for longer than the lease's duration, calls `lost` once.
 */
export function keepLease(
  kc: KubeConfig,
  name: string,
  acquired: LeaseSummary,
  self: string,
  renewMs: number,
  lost: (err: LeaseLost) => void,
): { stop(): Promise<void> } {
  const ref = refOf(name);
  let current = acquired;
  let lastRenewed = Date.now();
  let over = false;
  const lose = (err: LeaseLost) => {
    if (over) return;
    over = true;
    lost(err);
  };
  const otherHolder = (l: LeaseSummary) => {
    if (l.holderIdentity !== self)
      lose(new LeaseLost(l.holderIdentity, `the rollout was taken over by ${l.holderIdentity ?? 'nobody (its Lease was given back)'}`));
  };
  const renew = async () => {
    const { holderIdentity: _h, ...rest } = current;
    const hold: LeaseHold = { ...rest, holderIdentity: self, renewTime: new Date().toISOString() };
    try {
      current = await replaceLease(kc, ref, current.labels, undefined, hold, current.resourceVersion);
      lastRenewed = Date.now();
    } catch (err) {
      if (statusCode(err) === 409 || statusCode(err) === 404) {
        const fresh = await readLease(kc, ref).catch(() => undefined);
        if (fresh === undefined && statusCode(err) === 404)
          return lose(new LeaseLost(undefined, `the Lease of rollout ${name} was deleted`));
        if (fresh) {
          otherHolder(fresh);
          current = fresh;
        }
      }
      if (Date.now() - lastRenewed > current.leaseDurationSeconds * 1000)
        lose(
          new LeaseLost(
            undefined,
            `the Lease of rollout ${name} could not be renewed for ${current.leaseDurationSeconds} s: ${describeError(err)}`,
            true,
          ),
        );
    }
  };
  let renewing: Promise<void> | undefined;
  const timer = setInterval(() => {
    renewing ??= renew().finally(() => {
      renewing = undefined;
    });
  }, renewMs);
  timer.unref();
  const watch = watchLeases(kc, ROLLOUT_NAMESPACE, `${ROLLOUT_LABEL}=${name}`, {
    onList: (leases) => {
      const l = leases.find((x) => x.name === ref.name);
      if (l) otherHolder(l);
    },
    onChanged: (l) => {
      if (l.name === ref.name) otherHolder(l);
    },
    onDeleted: (l) => {
      if (l.name === ref.name) lose(new LeaseLost(undefined, `the Lease of rollout ${name} was deleted`));
    },
    onError: () => {},
  });
  return {
    async stop() {
      over = true;
      clearInterval(timer);
      await renewing;
      await watch.stop();
    },
  };
}

/**
 * Resolves once nobody but `self` holds the rollout live (its holder saw the abort and gave the
 * Lease back, or it expired), after `timeoutMs`, or when the signal aborts. Checked every 500 ms.
 */
export async function untilHolderGone(
  kc: KubeConfig,
  state: RolloutState,
  self: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !signal?.aborted) {
    const lease = await readLease(kc, refOf(state.spec.name)).catch(() => undefined);
    const v = holderView(lease, lease ? undefined : state, Date.now());
    if (!v || v.holder === self || v.liveness.state !== 'live') return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, 500);
      function done() {
        clearTimeout(t);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

/** The rollouts' Leases of a cluster, by rollout name. */
export async function listRolloutLeases(kc: KubeConfig): Promise<Map<string, LeaseSummary>> {
  let leases: LeaseSummary[];
  try {
    leases = await listLeases(kc, ROLLOUT_NAMESPACE, ROLLOUT_LABEL);
  } catch (err) {
    throw new UserError(`cannot list the rollouts' Leases (in ${ROLLOUT_NAMESPACE} labelled ${ROLLOUT_LABEL}): ${describeError(err)}`);
  }
  return new Map(leases.map((l) => [l.labels[ROLLOUT_LABEL] ?? l.name, l]));
}

/** Watches the rollouts' Leases of a cluster (by label), for the list and the Rollouts tab. */
export function watchRolloutLeases(kc: KubeConfig, handlers: LeaseWatchHandlers): { stop(): Promise<void> } {
  return watchLeases(kc, ROLLOUT_NAMESPACE, ROLLOUT_LABEL, handlers);
}
