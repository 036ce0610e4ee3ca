import { afterEach, describe, expect, it, vi } from 'vitest';
import { READ_EVERY_MS, workloadsFeed } from '../../src/feeds/workloads.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { startFeed } from '../helpers/feeds/feeds.js';
import { placementRead } from '../helpers/screens/workloads.js';

afterEach(() => vi.useRealTimers());

describe('the workloads feed', () => {
  it('reads while the tab is shown, every few seconds after the last read; stops when the tab is left; a failing read keeps the rows and says why', async () => {
    vi.useFakeTimers();
    const store = createFleetStore([], undefined);
    let reads = 0;
    let fail = false;
    const feed = startFeed(
      store,
      workloadsFeed({
        read: async () => {
          reads++;
          if (fail) throw new Error('connect ECONNREFUSED 127.0.0.1:6443\nmore');
          return { context: 'nova', read: placementRead() };
        },
      }),
    );
    const actions = feed.actions as { show(): void; hide(): void };
    actions.show();
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toBe(1);
    expect(store.getState().workloads.rows.map((r) => `${r.name} ${r.state}`)).toEqual(['huge pending', 'pinned placed', 'web divided']);
    await vi.advanceTimersByTimeAsync(READ_EVERY_MS);
    expect(reads).toBe(2);
    fail = true;
    await vi.advanceTimersByTimeAsync(READ_EVERY_MS);
    expect(store.getState().workloads).toMatchObject({ error: 'connect ECONNREFUSED 127.0.0.1:6443', source: { context: 'nova' } });
    expect(store.getState().workloads.rows).toHaveLength(3);
    actions.hide();
    await vi.advanceTimersByTimeAsync(READ_EVERY_MS * 5);
    expect(reads).toBe(3);
    await feed.stop();
  });

  it('without a fleet the tab says what it needs', async () => {
    const store = createFleetStore([], undefined);
    const feed = startFeed(
      store,
      workloadsFeed({
        read: async () =>
          Promise.reject(
            new Error(
              'the Workloads tab works on the control plane of a fleet: pass --hosting-context (or install one: fleetdeck install)',
            ),
          ),
      }),
    );
    (feed.actions as { show(): void }).show();
    await vi.waitFor(() =>
      expect(store.getState().workloads.source).toEqual({ error: expect.stringContaining('install one: fleetdeck install') }),
    );
    await feed.stop();
  });
});
