/**
 * The Storage tab's feed: each target's inventory when asked (the tab reads a target when it is
 * first shown, `r` again), and the catalogues the estimate dialogue offers, into the storage
 * slice. It only reads.
 */
import type { Catalogue } from '../storage/catalogue.js';
import type { ClusterStorage } from '../storage/inventory.js';
import type { Session } from '../session/session.js';
import { updateSlice, type FleetStore } from '../store/fleet-store.js';
import { type Feed, type FeedFactory, sessionView } from './feed.js';
import { lazyFeed } from './lazy.js';
import { catalogueLoaded, readDone, readFailed, readStarted, targetKey, type StorageSlice, type StorageTarget } from '../store/storage.js';

/** What the feed reads, by context name (src/feeds/storage-work.ts binds it to the session; tests pass fakes). */
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

export interface StorageFeed {
  read(target: StorageTarget): void;
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

export function startStorageFeed(store: FleetStore, work: StorageWork, now: () => number = Date.now): StorageFeed {
  const update = (change: (s: StorageSlice) => StorageSlice) => updateSlice(store, 'storage', change);
  const files: (string | undefined)[] = [undefined, ...(work.catalogueFiles ?? [])];
  update((s) => {
    let next: StorageSlice = { ...s, local: work.local !== undefined, catalogueFiles: files };
    for (const file of files) {
      try {
        next = catalogueLoaded(next, file, { catalogue: work.catalogue(file) });
      } catch (err) {
        next = catalogueLoaded(next, file, { error: firstLine(err) });
      }
    }
    return next;
  });
  return {
    read(target) {
      const key = targetKey(target);
      let generation = 0;
      update((s) => {
        const started = readStarted(s, key);
        generation = started.generation;
        return started.slice;
      });
      const reading =
        target.kind === 'local' ? (work.local?.() ?? Promise.reject(new Error('this host is not offered'))) : work.inventory(target.name);
      reading.then(
        (storage) => update((s) => readDone(s, key, generation, storage, now())),
        (err: unknown) => update((s) => readFailed(s, key, generation, firstLine(err))),
      );
    },
  };
}

export interface StorageFeedOptions {
  /** The readers bound to a session (default: storage-work.ts, loaded when the tab is first shown). */
  work?: (session: Session) => StorageWork | Promise<StorageWork>;
}

const realStorageWork = async (session: Session): Promise<StorageWork> => (await import('./storage-work.js')).storageWork(session);

/** The Storage tab's feed: loaded when the tab is first shown; it only reads. */
export function storageFeed(o: StorageFeedOptions = {}): FeedFactory {
  return ({ store }): Feed<'storage'> => {
    let session: Session | undefined;
    const load = lazyFeed(
      async () => startStorageFeed(store, await (o.work ?? realStorageWork)(sessionView(() => session))),
      (status) => updateSlice(store, 'storage', (s) => ({ ...s, status })),
    );
    return {
      name: 'storage',
      actions: {
        show: () => void load.start(),
        // Asked for as the screen first shows (the feed may be reporting itself on this very moment).
        read: (target) =>
          void load.start().then(
            (feed) => feed.read(target),
            () => {},
          ),
      },
      start: (s) => {
        session = s;
      },
      // Every read goes through the session as it is then.
      restart: (s) => {
        session = s;
      },
      stop: () => {},
    };
  };
}
