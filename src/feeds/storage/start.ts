/**
 * The storage feed started (loaded with its readers when the tab is first shown): the catalogues
 * loaded once, a target's inventory read when asked (a superseded read's answer dropped) with the
 * pools an estimate starts with — every one read again after a new session — and the estimate
 * dialogue (estimate.ts).
 */
import { defaultPools } from '../../storage/pools.js';
import { updateSlice, type FleetStore } from '../../store/fleet-store.js';
import {
  catalogueLoaded,
  readDone,
  readFailed,
  readStarted,
  type StorageSlice,
  type StorageTarget,
  targetKey,
} from '../../store/storage.js';
import { StorageEstimate } from './estimate.js';
import type { StartedStorage, StorageWork } from './feed.js';

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

export function startStorageFeed(store: FleetStore, work: StorageWork, now: () => number = Date.now): StartedStorage {
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
  const estimate = new StorageEstimate(store);
  /** Every target read so far: read again through a new session. */
  const read = new Map<string, StorageTarget>();
  return {
    read(target) {
      const key = targetKey(target);
      read.set(key, target);
      let generation = 0;
      update((s) => {
        const started = readStarted(s, key);
        generation = started.generation;
        return started.slice;
      });
      const reading =
        target.kind === 'local' ? (work.local?.() ?? Promise.reject(new Error('this host is not offered'))) : work.inventory(target.name);
      reading.then(
        (storage) => {
          update((s) => readDone(s, key, generation, { storage, at: now(), defaults: defaultPools(storage) }));
          estimate.reread(key);
        },
        (err: unknown) => update((s) => readFailed(s, key, generation, firstLine(err))),
      );
    },
    estimate,
    restart() {
      for (const target of read.values()) this.read(target);
    },
  };
}
