/**
 * The Day 2 feed over fake operations: a new session (a fleet installed or gone, a kubeconfig
 * edited) reads an open page's facts again through it, rather than keeping the old control
 * plane's.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Day2Registry } from '../../src/day2/registry.js';
import { startDay2Feed } from '../../src/feeds/day2.js';
import type { Session } from '../../src/session/session.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { day2Session } from '../helpers/feeds/day2.js';

describe('the Day 2 feed', () => {
  it('a new session reads an open page’s facts again: no fleet now, no control plane and no bundle', async () => {
    const store = createFleetStore([]);
    let session: Session = day2Session();
    const registry: Day2Registry = {
      operations: [],
      lastBackup: () => undefined,
      installedBundle: async (target) => `bundle of ${target.context}`,
    };
    const feed = startDay2Feed(store, () => session, { registry: () => registry });
    feed.open();
    await vi.waitFor(() => expect(store.getState().day2.facts).toEqual({ context: 'nova', bundle: 'bundle of nova' }));

    session = { ...day2Session(), fleet: undefined } as unknown as Session;
    feed.restart();
    await vi.waitFor(() => expect(store.getState().day2.facts).toEqual({}));
    expect(store.getState().day2.open).toBe(true);
    await feed.stop();
  });
});
