/**
 * The Storage tab's feed: each target's inventory when asked (the tab reads a target when it is
 * first shown, `r` again) with the pools an estimate starts with, the catalogues the estimate
 * dialogue offers, and the dialogue itself (its model runs here: estimate.ts), into the storage
 * slice. It only reads. The feed proper (start.ts) and its readers (work.ts) load, their own
 * chunk, when the tab is first shown.
 */
import type { Catalogue } from '../../storage/catalogue.js';
import type { ClusterStorage } from '../../storage/inventory.js';
import type { Session } from '../../session/session.js';
import { updateSlice } from '../../store/fleet-store.js';
import { type FeedFactory, type HeldActions, heldSession } from '../feed.js';
import { lazyFeed } from '../lazy.js';

/** What the feed reads, by context name (work.ts binds it to the session; tests pass fakes). */
export interface StorageWork {
  /** The storage of a context's nodes and cluster, as `fleetdeck storage estimate --context` reads it. */
  inventory(context: string): Promise<ClusterStorage>;
  /** This host's disks and volume groups (lsblk, vgs), offered after the contexts. Absent: not offered. */
  local?: () => Promise<ClusterStorage>;
  /** The default catalogue, or the one in `file`; throws with one line when a file cannot be used. */
  catalogue(file?: string): Catalogue;
  /** More catalogue files the dialogue offers (key c cycles through them). */
  catalogueFiles?: string[];
}

/**
 * The feed's work once started (start.ts): everything the tab asks for but showing it, and the
 * contract's restart: every target read so far is read again through the new session (what was
 * read stays shown until then).
 */
export type StartedStorage = Omit<HeldActions<'storage', 'restart'>, 'show'>;

export interface StorageFeedOptions {
  /** The readers bound to a session (default: work.ts, loaded when the tab is first shown). */
  work?: (session: Session) => StorageWork | Promise<StorageWork>;
}

const realStorageWork = async (session: Session): Promise<StorageWork> => (await import('./work.js')).storageWork(session);

/** The Storage tab's feed: loaded when the tab is first shown; it only reads. */
export function storageFeed(o: StorageFeedOptions = {}): FeedFactory {
  return ({ store }) =>
    heldSession('storage', (session) => {
      const load = lazyFeed(
        async () => {
          const [{ startStorageFeed }, work] = await Promise.all([import('./start.js'), (o.work ?? realStorageWork)(session)]);
          return startStorageFeed(store, work);
        },
        (status) => updateSlice(store, 'storage', (s) => ({ ...s, status })),
      );
      // The dialogue opens on an inventory read, so on a feed loaded: before that there is nothing to do.
      const loaded = () => load.current()?.estimate;
      return {
        actions: {
          show: () => void load.start(),
          // Asked for as the screen first shows (the feed may be reporting itself on this very moment).
          read: (target) =>
            void load.start().then(
              (feed) => feed.read(target),
              () => {},
            ),
          estimate: {
            open: (target) => loaded()?.open(target),
            send: (intent) => loaded()?.send(intent),
            close: () => loaded()?.close(),
          },
        },
        // What was read came through the old session: read again through the new one.
        restart: () => load.current()?.restart(),
      };
    });
}
