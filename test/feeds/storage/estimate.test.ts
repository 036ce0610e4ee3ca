import { describe, expect, it, vi } from 'vitest';
import type { StorageWork } from '../../../src/feeds/storage/feed.js';
import { startStorageFeed } from '../../../src/feeds/storage/start.js';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../../../src/storage/catalogue.js';
import type { ClusterStorage } from '../../../src/storage/inventory.js';
import { createFleetStore, type FleetStore } from '../../../src/store/fleet-store.js';
import { estimateRefusal, type StorageTarget } from '../../../src/store/storage.js';
import type { EstimateState } from '../../../src/store/storage-estimate.js';
import { info } from '../../helpers/screens/fleets.js';
import { seedCluster } from '../../helpers/objects/seed-storage.js';

const CP: StorageTarget = { kind: 'context', name: 'kind-cp' };

/** The storage feed over the seed's nodes (each read answers with `inventory()` as it is then), the example catalogue first. */
function started(over: Partial<StorageWork> = {}, inventory: () => ClusterStorage = () => seedCluster()) {
  const store = createFleetStore([info('kind-cp')]);
  const work: StorageWork = {
    inventory: async () => inventory(),
    catalogue: (file) => {
      if (file === 'bad.yaml') throw new Error('catalogue bad.yaml does not exist');
      return loadCatalogue(file ?? EXAMPLE_CATALOGUE_FILE);
    },
    ...over,
  };
  return { store, feed: startStorageFeed(store, work) };
}

const dialogue = (store: FleetStore): EstimateState | undefined => store.getState().storage.estimates['context:kind-cp'];
const read = async (store: FleetStore, feed: ReturnType<typeof started>['feed']) => {
  feed.read(CP);
  await vi.waitFor(() => expect(store.getState().storage.inventories['context:kind-cp']?.loading).toBe(false));
};

describe('the estimate dialogue in the storage feed', () => {
  it('opens once the inventory is read, on the pools chosen for it; closed, it keeps the choices', async () => {
    const { store, feed } = started();
    feed.estimate.open(CP);
    expect(store.getState().storage.open).toBeUndefined();
    expect(estimateRefusal(store.getState().storage, 'context:kind-cp')).toBe('the inventory is still being read');

    await read(store, feed);
    expect(store.getState().storage.inventories['context:kind-cp']?.defaults?.pools).toEqual({ shared: 'vg_share', unshared: 'vg_data' });
    feed.estimate.open(CP);
    expect(store.getState().storage.open).toEqual(CP);
    feed.estimate.send({ type: 'focus', delta: 1 });
    feed.estimate.send({ type: 'focus', delta: 1 });
    feed.estimate.send({ type: 'toggle' });
    feed.estimate.close();
    expect(store.getState().storage.open).toBeUndefined();
    // Intents with no dialogue open change nothing.
    feed.estimate.send({ type: 'toggle' });
    feed.estimate.open(CP);
    expect(dialogue(store)?.form.features).toEqual(['kloudinsights', 'kloudhybrid']);
  });

  it('enter on the last size, every size accepted, confirms the choices and closes the dialogue', async () => {
    const { store, feed } = started();
    await read(store, feed);
    feed.estimate.open(CP);
    for (const _ of [1, 2]) feed.estimate.send({ type: 'next' });
    for (const _ of [1, 2, 3, 4]) feed.estimate.send({ type: 'next' });
    expect(store.getState().storage.open).toEqual(CP);
    feed.estimate.send({ type: 'next' });
    expect(store.getState().storage.open).toBeUndefined();
    expect(dialogue(store)?.form.done).toBe(true);
  });

  it('c walks to the next catalogue that could be read; one that could not is said in the dialogue', async () => {
    const { store, feed } = started({ catalogueFiles: ['bad.yaml', EXAMPLE_CATALOGUE_FILE] }, () => seedCluster());
    await read(store, feed);
    feed.estimate.open(CP);
    expect(dialogue(store)?.catalogue.name).toBe('kloudspot-example');
    feed.estimate.send({ type: 'catalogue' });
    expect(dialogue(store)).toMatchObject({ error: 'catalogue bad.yaml does not exist', form: { catalogueFile: EXAMPLE_CATALOGUE_FILE } });
    feed.estimate.send({ type: 'catalogue' });
    expect(dialogue(store)?.form.catalogueFile).toBeUndefined();
    expect(dialogue(store)?.error).toBeUndefined();
  });

  it('an inventory read again is weighed against at once', async () => {
    let free = 87.1;
    const { store, feed } = started({}, () => seedCluster(free));
    await read(store, feed);
    feed.estimate.open(CP);
    expect(dialogue(store)?.result).toMatchObject({ estimate: { ok: true } });
    free = 5;
    await read(store, feed);
    const result = dialogue(store)?.result;
    expect(result && 'estimate' in result && result.estimate.verdict).toBe('Not enough storage: Unshared 9 GB short on node-c');
  });
});
