/**
 * Who drives a rollout: the owner recorded in its state, alive while its heartbeat is fresh
 * (and, on this host, while its process exists and is a fleetdeck); claiming the rollout in one write; the
 * errors that end a run driven elsewhere (aborted, taken over).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../../errors.js';
import { updateRollout, type StoredRollout } from '../state.js';
import { ownerLiveness } from '../owner-liveness.js';
import { FINAL_PHASES, type RolloutOwner, type RolloutState } from '../types.js';
import { appendLog, liveOwner, resumedState } from './decide.js';

export type Self = { host: string; pid: number };

/** Another fleetdeck aborted the rollout (phase Aborted in the ConfigMap). */
export class RolloutAborted extends Error {
  constructor(message = 'the rollout was aborted') {
    super(message);
    this.name = 'RolloutAborted';
  }
}

/** Another fleetdeck took the rollout over. */
export class RolloutTakenOver extends Error {
  constructor(owner: RolloutOwner) {
    super(`the rollout was taken over by fleetdeck pid ${owner.pid} on ${owner.host}`);
    this.name = 'RolloutTakenOver';
  }
}

export const sameOwner = (a: Self | undefined, b: Self) => a !== undefined && a.host === b.host && a.pid === b.pid;

/**
 * The owner that keeps others from driving the rollout: one with a heartbeat younger than 30 s —
 * unless it ran on this host and its process is gone or is no fleetdeck (see owner-liveness.ts).
 */
export function blockingOwner(state: RolloutState, now: number, self: Self): RolloutOwner | undefined {
  const o = liveOwner(state, now, self);
  return o && ownerLiveness(o, now).state === 'live' ? o : undefined;
}

/** "rollout NAME is being run by fleetdeck pid P on H (heartbeat N s ago); …" */
export function ownedElsewhereMessage(name: string, other: RolloutOwner, now: number): string {
  const age = Math.round((now - Date.parse(other.heartbeat)) / 1000);
  return `rollout ${name} is being run by fleetdeck pid ${other.pid} on ${other.host} (heartbeat ${age} s ago); watch it with fleetdeck rollout watch ${name}, or take over with --force-takeover`;
}

/**
 * Claims the rollout in one write (phase Running, owner = self), so two fleetdecks cannot both
 * take it: the second one's write conflicts, re-reads, sees a live owner. Refused when the
 * rollout is over, or owned by another live fleetdeck (unless `forceTakeover`).
 */
export function claimRollout(kc: KubeConfig, name: string, self: Self, forceTakeover: boolean): Promise<StoredRollout> {
  return updateRollout(kc, name, (s) => {
    if (FINAL_PHASES.includes(s.phase)) throw new UserError(`rollout ${name} is ${s.phase}: there is nothing to resume`);
    const other = blockingOwner(s, Date.now(), self);
    if (other && !forceTakeover) throw new UserError(ownedElsewhereMessage(name, other, Date.now()));
    const resumed = s.phase !== 'Pending';
    const previous = s.owner && !sameOwner(s.owner, self) ? s.owner : undefined;
    const next = resumedState(s);
    next.phase = 'Running';
    next.owner = { ...self, heartbeat: new Date().toISOString() };
    const taken = other
      ? ` (taken over from pid ${other.pid} on ${other.host})`
      : previous
        ? ` (its previous owner, pid ${previous.pid} on ${previous.host}, is gone)`
        : '';
    appendLog(next, `${resumed ? 'resumed' : 'started'} by fleetdeck pid ${self.pid} on ${self.host}${taken}`);
    return next;
  });
}
