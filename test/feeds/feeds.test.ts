import type { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';
import { createFeeds } from '../../src/feeds/feeds.js';
import { rolloutsFeed } from '../../src/feeds/rollouts/feed.js';
import { storageFeed, type StorageWork } from '../../src/feeds/storage/feed.js';
import type { Session } from '../../src/session/session.js';
import type { Catalogue } from '../../src/storage/catalogue.js';
import type { ClusterStorage } from '../../src/storage/inventory.js';
import { createFleetStore } from '../../src/store/fleet-store.js';

/** A session with no context to watch (no status feed), whose KubeConfigs are named after it. */
const session = (name: string) =>
  ({ contexts: [], files: [], kc: (context: string) => ({ name: `${name}/${context}` }) as unknown as KubeConfig }) as unknown as Session;
const EMPTY: ClusterStorage = { source: 'cluster', nodes: [], storageClasses: [], volumes: [], claims: [], missing: [] };

describe('the feeds holder', () => {
  it('starts a tab’s feed when first asked (status loading, then on), with the session’s KubeConfigs as they are now', async () => {
    const store = createFleetStore([]);
    const used: string[] = [];
    let bound = 0;
    const storage = async (on: Pick<Session, 'kc'>): Promise<StorageWork> => {
      bound++;
      return {
        inventory: async (context) => {
          used.push((on.kc(context) as unknown as { name: string }).name);
          return EMPTY;
        },
        catalogue: () => ({ name: 'c', features: [] }) as unknown as Catalogue,
      };
    };
    const feeds = createFeeds(store, session('first'), [storageFeed({ work: storage })]);
    expect(store.getState().storage.status).toBe('off');
    feeds.actions.storage!.show();
    expect(store.getState().storage.status).toBe('loading');
    await vi.waitFor(() => expect(store.getState().storage.status).toBe('on'));
    feeds.actions.storage!.show();
    expect(bound).toBe(1);

    feeds.actions.storage!.read({ kind: 'context', name: 'a' });
    await vi.waitFor(() => expect(used).toEqual(['first/a']));

    // A new session (a sandbox started, a fleet installed): the same feed reads through it.
    await feeds.setSession(session('second'));
    feeds.actions.storage!.read({ kind: 'context', name: 'a' });
    await vi.waitFor(() => expect(used).toEqual(['first/a', 'second/a']));
    await feeds.stop();
  });

  it('a feed that cannot load says why in its slice', async () => {
    const store = createFleetStore([]);
    const feeds = createFeeds(store, session('s'), [rolloutsFeed({ work: () => Promise.reject(new Error('cannot load the rollouts')) })]);
    feeds.actions.rollouts!.show();
    await vi.waitFor(() => expect(store.getState().rollouts.status).toEqual({ error: 'cannot load the rollouts' }));
    await feeds.stop();
  });
});
