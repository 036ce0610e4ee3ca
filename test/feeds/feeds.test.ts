import type { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it, vi } from 'vitest';
import { createFeeds } from '../../src/feeds/feeds.js';
import { rolloutsFeed } from '../../src/feeds/rollouts/feed.js';
import { storageFeed, type StorageWork } from '../../src/feeds/storage/feed.js';
import type { Session } from '../../src/session/session.js';
import type { Catalogue } from '../../src/storage/catalogue.js';
import type { ClusterStorage } from '../../src/storage/inventory.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { statusFeed } from '../../src/feeds/status-feed.js';
import { approvalsFeed } from '../../src/feeds/approvals.js';
import { fakeRolloutWork } from '../helpers/feeds/rollouts-feed.js';
import { info } from '../helpers/screens/fleets.js';
import { unreachableKubeConfig } from '../helpers/kubeconfig/fake-contexts.js';

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

    // A new session (a sandbox started, a fleet installed): the same feed reads again what it read, through it.
    await feeds.setSession(session('second'));
    await vi.waitFor(() => expect(used).toEqual(['first/a', 'second/a']));
    feeds.actions.storage!.read({ kind: 'context', name: 'b' });
    await vi.waitFor(() => expect(used).toEqual(['first/a', 'second/a', 'second/b']));
    await feeds.stop();
  });

  it('a feed that cannot load says why in its slice', async () => {
    const store = createFleetStore([]);
    const feeds = createFeeds(store, session('s'), [rolloutsFeed({ work: () => Promise.reject(new Error('cannot load the rollouts')) })]);
    feeds.actions.rollouts!.show();
    await vi.waitFor(() => expect(store.getState().rollouts.status).toEqual({ error: 'cannot load the rollouts' }));
    await feeds.stop();
  });

  it('a new session re-points every feed, whichever reacts first: the rollouts watches follow its contexts, the open approvals panel says its context is gone', async () => {
    // Sessions whose contexts' KubeConfigs exist only for their own contexts (as a real session's)
    const kcOf = (names: string[]) => (context: string) => {
      if (!names.includes(context)) throw new Error(`context "${context}" is not in the kubeconfig`);
      return unreachableKubeConfig(context);
    };
    const sessionOf = (names: string[]) => ({ contexts: names.map(info), files: [], kc: kcOf(names) }) as unknown as Session;
    const store = createFleetStore(['old-a', 'both'].map(info));
    const fake = fakeRolloutWork({ nodes: [], dryRun: () => ({}) as never });
    const watched: string[] = [];
    const watch = fake.work.watch;
    fake.work.watch = (context, handlers) => {
      sessionNow.kc(context); // the workflows reach the cluster through the session as it is now
      watched.push(context);
      return watch(context, handlers);
    };
    let sessionNow = sessionOf(['old-a', 'both']);
    const panel: string[] = [];
    const approvals = {
      watch: (context: string) => {
        sessionNow.kc(context);
        panel.push(context);
        return () => {};
      },
      decide: async () => '',
    };
    const feeds = createFeeds(store, sessionNow, [
      statusFeed({ requestTimeoutMs: 200 }),
      rolloutsFeed({
        work: (s) => {
          sessionNow = s;
          return fake.work;
        },
      }),
      approvalsFeed({ work: () => approvals }),
    ]);
    feeds.actions.rollouts!.show();
    await vi.waitFor(() => expect(store.getState().rollouts.status).toBe('on'));
    expect(watched.sort()).toEqual(['both', 'old-a']);
    feeds.actions.approvals!.open('old-a');
    await vi.waitFor(() => expect(panel).toEqual(['old-a']));

    // A kubeconfig edited elsewhere: old-a gone, new-b added
    watched.length = 0;
    const next = sessionOf(['both', 'new-b']);
    await feeds.setSession(next);
    expect(store.getState().status.order).toEqual(['both', 'new-b']);
    expect(watched.sort()).toEqual(['both', 'new-b']);
    expect(store.getState().banner).toBeUndefined();
    expect(JSON.stringify(store.getState().approvals)).toContain('context \\"old-a\\" is not in the kubeconfig');
    await feeds.stop();
  });
});
