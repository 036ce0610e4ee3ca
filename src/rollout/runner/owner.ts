/**
 * Who drives a rollout: the holder of its Lease (src/rollout/ownership.ts); the record names it
 * too (`owner`, for information). Claiming the record in one write once the Lease is held; the
 * errors that end a run driven elsewhere (aborted, taken over).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import type { Holder } from '../owner-liveness.js';
import type { HolderView } from '../ownership.js';
import { updateRollout, type StoredRollout } from '../state.js';
import { FINAL_PHASES, ownerIdentity, type RolloutOwner } from '../types.js';
import { appendLog, resumedState } from './decide.js';

export type Self = Holder;

/** Another fleetdeck aborted the rollout (phase Aborted in the ConfigMap). */
export class RolloutAborted extends Error {
  constructor(message = 'the rollout was aborted') {
    super(message);
    this.name = 'RolloutAborted';
  }
}

/** Another holder took the rollout over (its Lease, or the record naming another owner), or the Lease was lost. */
export class RolloutTakenOver extends Error {
  constructor(
    readonly holder: string | undefined,
    message = `the rollout was taken over by ${holder ?? 'another fleetdeck'}`,
  ) {
    super(message);
    this.name = 'RolloutTakenOver';
  }
}

export const sameOwner = (a: RolloutOwner | undefined, self: Self) => a !== undefined && ownerIdentity(a) === self.identity;

/** The record's owner for `self`. */
export const ownerOf = (self: Self, since: string): RolloutOwner =>
  self.kind === 'process' ? { holder: self.identity, host: self.host, pid: self.pid, since } : { holder: self.identity, since };

/**
 * Claims the record in one write (phase Running, owner = self), once `self` holds the Lease.
 * Refused when the rollout is over. `previous` is the holder the Lease was taken from.
 */
export function claimRollout(kc: KubeConfig, name: string, self: Self, previous?: HolderView): Promise<StoredRollout> {
  return updateRollout(kc, name, (s) => {
    if (FINAL_PHASES.includes(s.phase)) throw new UserError(`rollout ${name} is ${s.phase}: there is nothing to resume`);
    const resumed = s.phase !== 'Pending';
    const next = resumedState(s);
    next.phase = 'Running';
    next.owner = ownerOf(self, new Date().toISOString());
    const taken = previous
      ? previous.liveness.state === 'live'
        ? ` (taken over from ${previous.holder})`
        : ` (its previous holder, ${previous.holder}, is ${previous.liveness.state})`
      : '';
    appendLog(next, `${resumed ? 'resumed' : 'started'} by ${self.identity}${taken}`);
    return next;
  });
}
