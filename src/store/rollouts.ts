/**
 * The Rollouts tab's slice: every watched context's fleetdeck rollouts (their ConfigMaps), their
 * Leases (who runs them, and how fresh) and Navarchos as last seen, and the actions started from the screen (run, resume, abort) with
 * their outcome. Pure reducers; the rollouts feed is their only caller.
 */
import type { LeaseSummary } from '../kube/records/lease.js';
import type { NavarchosState } from '../kube/navarchos/objects.js';
import type { HolderView } from '../rollout/owner-liveness.js';
import type { RolloutState } from '../rollout/types.js';
import type { NewRolloutState } from './rollout-wizard.js';
import type { FeedStatus } from './types.js';

/** An action started from the screen on a fleetdeck rollout. */
export interface ActionStatus {
  kind: 'run' | 'resume' | 'abort';
  state: 'running' | 'done' | 'failed';
  /** Why it failed, one line. */
  error?: string;
}

/** What the screen knows of one context. */
export interface ContextRollouts {
  /** fleetdeck's rollouts, by name. */
  rollouts: Record<string, RolloutState>;
  /** The rollouts' Leases, by rollout name (a rollout without one: nobody took it since). */
  leases?: Record<string, LeaseSummary>;
  /** The first list arrived. */
  listed: boolean;
  /** Why the list is incomplete (the watch retries), one line. */
  error?: string;
  /** Navarchos as last seen (absent until its watch answered). */
  navarchos?: NavarchosState;
}

export interface RolloutsSlice {
  status: FeedStatus;
  /** The contexts watched, in display order. */
  contexts: string[];
  byContext: Record<string, ContextRollouts>;
  /** By actionKey(context, name). */
  actions: Record<string, ActionStatus>;
  /** The new-rollout wizard, while open. */
  wizard?: NewRolloutState;
  /** Who runs each rollout and whether they still do, by actionKey (the feed keeps it current). */
  holders?: Record<string, HolderView>;
}

/** The key of an action started from the screen (run, resume, abort) on a fleetdeck rollout. */
export const actionKey = (context: string, name: string) => `${context}/${name}`;

export const emptyRollouts = (): RolloutsSlice => ({ status: 'off', contexts: [], byContext: {}, actions: {} });

const fresh = (): ContextRollouts => ({ rollouts: {}, listed: false });

function withoutError(c: ContextRollouts): ContextRollouts {
  const { error: _error, ...rest } = c;
  return rest;
}

/** Exactly these contexts, in this order; what was known of those that stay is kept. */
export function watchedContexts(s: RolloutsSlice, contexts: readonly string[]): RolloutsSlice {
  const byContext: Record<string, ContextRollouts> = {};
  for (const name of contexts) byContext[name] = s.byContext[name] ?? fresh();
  return { ...s, contexts: [...contexts], byContext };
}

/** Change one watched context (a context no longer watched is left alone). */
export function patchContext(s: RolloutsSlice, context: string, change: (c: ContextRollouts) => ContextRollouts): RolloutsSlice {
  const current = s.byContext[context];
  if (!current) return s;
  return { ...s, byContext: { ...s.byContext, [context]: change(current) } };
}

export const rolloutsListed = (s: RolloutsSlice, context: string, states: readonly RolloutState[]) =>
  patchContext(s, context, (c) => ({
    ...withoutError(c),
    listed: true,
    rollouts: Object.fromEntries(states.map((r) => [r.spec.name, r])),
  }));

export const rolloutChanged = (s: RolloutsSlice, context: string, state: RolloutState) =>
  patchContext(s, context, (c) => ({ ...withoutError(c), listed: true, rollouts: { ...c.rollouts, [state.spec.name]: state } }));

export const rolloutDeleted = (s: RolloutsSlice, context: string, name: string) =>
  patchContext(s, context, (c) => {
    const rollouts = { ...c.rollouts };
    delete rollouts[name];
    return { ...c, rollouts };
  });

export const leasesListed = (s: RolloutsSlice, context: string, leases: readonly LeaseSummary[]) =>
  patchContext(s, context, (c) => ({ ...c, leases: Object.fromEntries(leases.map((l) => [leaseRollout(l), l])) }));

export const leaseChanged = (s: RolloutsSlice, context: string, lease: LeaseSummary) =>
  patchContext(s, context, (c) => ({ ...c, leases: { ...c.leases, [leaseRollout(lease)]: lease } }));

export const leaseDeleted = (s: RolloutsSlice, context: string, lease: LeaseSummary) =>
  patchContext(s, context, (c) => {
    const leases = { ...c.leases };
    delete leases[leaseRollout(lease)];
    return { ...c, leases };
  });

/** The rollout a Lease is about: its fleetdeck.io/rollout label. */
const leaseRollout = (l: LeaseSummary) => l.labels['fleetdeck.io/rollout'] ?? l.name.replace(/^fleetdeck-rollout-/, '');

export const rolloutsFailed = (s: RolloutsSlice, context: string, error: string) => patchContext(s, context, (c) => ({ ...c, error }));

export const navarchosSeen = (s: RolloutsSlice, context: string, navarchos: NavarchosState) =>
  patchContext(s, context, (c) => ({ ...c, navarchos }));

export const actionChanged = (s: RolloutsSlice, key: string, status: ActionStatus): RolloutsSlice => ({
  ...s,
  actions: { ...s.actions, [key]: status },
});
