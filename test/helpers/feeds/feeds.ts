import type { Feed, FeedFactory } from '../../../src/feeds/feed.js';
import type { Session } from '../../../src/session/session.js';
import type { FleetStore } from '../../../src/store/fleet-store.js';

/** A session of no cluster: for feeds whose workflows are fakes that never ask it. */
export const NO_SESSION = { contexts: [], files: [], kc: () => ({}) } as unknown as Session;

/** A feed made as the dashboard makes it, started with `session`. */
export function startFeed(store: FleetStore, make: FeedFactory, session: Session = NO_SESSION): Feed {
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
