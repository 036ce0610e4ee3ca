import type { Feed, FeedFactory } from '../../../src/feeds/feed.js';
import type { Session } from '../../../src/session/session.js';
import type { FleetStore } from '../../../src/store/fleet-store.js';

/** A session of no cluster: for feeds whose workflows are fakes that never ask it. */
export const NO_SESSION = { contexts: [], files: [], kc: () => ({}) } as unknown as Session;

/** A session of no cluster with the store's contexts (the fakes answer for them). */
export function storeSession(store: FleetStore): Session {
  return { ...NO_SESSION, contexts: store.getState().status.order.map((name) => ({ name })) } as unknown as Session;
}

/** A feed made as the dashboard makes it, started with `session` (default: the store's contexts, no cluster). */
export function startFeed(store: FleetStore, make: FeedFactory, session: Session = storeSession(store)): Feed {
  let feed: Feed | undefined;
  const quit = new AbortController();
  feed = make({
    store,
    quit: quit.signal,
    setSession: async (next) => feed?.restart(next),
    actions: () => (feed?.name && feed.actions ? { [feed.name]: feed.actions } : {}),
  });
  feed.start(session);
  return feed;
}
