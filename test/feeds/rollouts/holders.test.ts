import { afterEach, describe, expect, it, vi } from 'vitest';
import { followHolders } from '../../../src/feeds/rollouts/holders.js';
import type { RolloutState } from '../../../src/rollout/types.js';
import { createFleetStore, updateSlice } from '../../../src/store/fleet-store.js';
import { leaseChanged, rolloutChanged, rolloutDeleted, watchedContexts } from '../../../src/store/rollouts.js';
import { info } from '../../helpers/screens/fleets.js';

const state = (name: string): RolloutState => ({
  spec: {
    name,
    context: 'c',
    nodeSelectors: [],
    nodeNames: [{ name: 'n', priority: 1 }],
    maxUnavailable: 1,
    replace: 'wait',
    drain: { force: false, deleteEmptyDirData: false, timeoutMs: 60_000 },
    health: { passes: 3, intervalMs: 5_000, timeoutMs: 60_000 },
  },
  phase: 'Running',
  nodes: [],
  log: [],
  updatedAt: new Date(0).toISOString(),
});

const lease = {
  namespace: 'kube-system',
  name: 'fleetdeck-rollout-r1',
  labels: { 'fleetdeck.io/rollout': 'r1' },
  resourceVersion: '1',
  holderIdentity: 'pod/fleetdeck-runner-x',
  renewTime: '2026-01-01T00:00:05Z',
  leaseDurationSeconds: 15,
  leaseTransitions: 0,
};

afterEach(() => vi.useRealTimers());

describe('who runs each rollout, kept in the slice', () => {
  it('follows the Leases: live while renewed, expired once not, and gone with the rollout', () => {
    const store = createFleetStore([info('c')]);
    updateSlice(store, 'rollouts', (s) => rolloutChanged(watchedContexts(s, ['c']), 'c', state('r1')));
    let now = Date.parse('2026-01-01T00:00:10Z');
    const stop = followHolders(store, () => now);
    expect(store.getState().rollouts.holders ?? {}).toEqual({});

    // A pod holds it, its Lease renewed 5 s ago (15 s long)
    updateSlice(store, 'rollouts', (s) => leaseChanged(s, 'c', lease));
    expect(store.getState().rollouts.holders?.['c/r1']).toMatchObject({ holder: 'pod/fleetdeck-runner-x', liveness: { state: 'live' } });

    // Not renewed for longer than its duration: expired (the rollouts' next change sees it)
    now += 60_000;
    updateSlice(store, 'rollouts', (s) => rolloutChanged(s, 'c', { ...state('r1'), updatedAt: new Date(now).toISOString() }));
    expect(store.getState().rollouts.holders?.['c/r1']?.liveness.state).toBe('expired');

    // The rollout deleted: nobody holds it
    updateSlice(store, 'rollouts', (s) => rolloutDeleted(s, 'c', 'r1'));
    expect(store.getState().rollouts.holders).toEqual({});
    stop();
  });

  it('the seconds passing change the slice only when a holder’s state does (the Lease expires)', () => {
    vi.useFakeTimers();
    const store = createFleetStore([info('c')]);
    updateSlice(store, 'rollouts', (s) => leaseChanged(rolloutChanged(watchedContexts(s, ['c']), 'c', state('r1')), 'c', lease));
    let now = Date.parse('2026-01-01T00:00:06Z');
    const stop = followHolders(store, () => now);
    let writes = 0;
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.rollouts.holders !== prev.rollouts.holders) writes++;
    });

    // Live for the next 13 s: the timer judges it every second and writes nothing
    for (let i = 0; i < 10; i++) {
      now += 1000;
      vi.advanceTimersByTime(1000);
    }
    expect(writes).toBe(0);
    expect(store.getState().rollouts.holders?.['c/r1']?.liveness.state).toBe('live');

    // Past its duration: expired, written once; then the seconds passing write nothing again
    for (let i = 0; i < 10; i++) {
      now += 1000;
      vi.advanceTimersByTime(1000);
    }
    expect(writes).toBe(1);
    expect(store.getState().rollouts.holders?.['c/r1']?.liveness.state).toBe('expired');
    unsubscribe();
    stop();
  });
});
