import { describe, expect, it, vi } from 'vitest';
import type { StorageWork } from '../../../src/feeds/storage/feed.js';
import { startStorageFeed } from '../../../src/feeds/storage/start.js';
import type { Catalogue } from '../../../src/storage/catalogue.js';
import type { ClusterStorage } from '../../../src/storage/inventory.js';
import { createFleetStore } from '../../../src/store/fleet-store.js';
import { info } from '../../helpers/screens/fleets.js';

const CATALOGUE: Catalogue = { name: 'c', features: [] } as unknown as Catalogue;
const storage = (n: number): ClusterStorage => ({
  source: 'cluster',
  nodes: [],
  storageClasses: [],
  volumes: [],
  claims: [],
  missing: [`read ${n}`],
});

describe('the storage feed', () => {
  it('loads the catalogues it offers (a bad one as its one-line error) and reads a target when asked (the pools chosen for it), dropping a superseded answer', async () => {
    const store = createFleetStore([info('a')]);
    const answers: ((s: ClusterStorage) => void)[] = [];
    const work: StorageWork = {
      inventory: () => new Promise((resolve) => answers.push(resolve)),
      catalogue: (file) => {
        if (file === 'bad.yaml') throw new Error('catalogue bad.yaml does not exist\nmore');
        return CATALOGUE;
      },
      catalogueFiles: ['bad.yaml'],
    };
    const feed = startStorageFeed(store, work, () => 42);
    let slice = store.getState().storage;
    expect(slice).toMatchObject({ local: false, catalogueFiles: [undefined, 'bad.yaml'] });
    expect(slice.catalogues['']).toEqual({ catalogue: CATALOGUE });
    expect(slice.catalogues['bad.yaml']).toEqual({ error: 'catalogue bad.yaml does not exist' });

    feed.read({ kind: 'context', name: 'a' });
    feed.read({ kind: 'context', name: 'a' });
    expect(store.getState().storage.inventories['context:a']).toMatchObject({ generation: 2, loading: true });
    answers[1]!(storage(2));
    await vi.waitFor(() =>
      expect(store.getState().storage.inventories['context:a']).toEqual({
        generation: 2,
        loading: false,
        storage: storage(2),
        at: 42,
        defaults: { pools: {}, reason: 'No volume group for unshared volumes (no node storage found)' },
      }),
    );
    answers[0]!(storage(1));
    await new Promise((r) => setImmediate(r));
    slice = store.getState().storage;
    expect(slice.inventories['context:a']!.storage).toEqual(storage(2));
  });

  it('says why a target could not be read, in one line', async () => {
    const store = createFleetStore([info('a')]);
    const feed = startStorageFeed(store, {
      inventory: async () => Promise.reject(new Error('connect ECONNREFUSED\nstack')),
      catalogue: () => CATALOGUE,
    });
    feed.read({ kind: 'local' });
    await vi.waitFor(() =>
      expect(store.getState().storage.inventories['local:']).toMatchObject({ loading: false, error: 'this host is not offered' }),
    );
    feed.read({ kind: 'context', name: 'a' });
    await vi.waitFor(() =>
      expect(store.getState().storage.inventories['context:a']).toMatchObject({ loading: false, error: 'connect ECONNREFUSED' }),
    );
  });
});
