/**
 * The Storage tab as the screen tests drive it: the real storage feed over fake readers
 * (StorageWork) that count the reads, a cluster without OpenEBS, the dashboard opened on the tab.
 */
import { expect, vi } from 'vitest';
import type { StorageWork } from '../../../src/feeds/storage/feed.js';
import { startStorageFeed } from '../../../src/feeds/storage/start.js';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue, type Catalogue } from '../../../src/storage/catalogue.js';
import type { ClusterStorage } from '../../../src/storage/inventory.js';
import type { StorageActions } from '../../../src/store/actions.js';
import { createFleetStore, updateSlice } from '../../../src/store/fleet-store.js';
import { info } from '../../helpers/screens/fleets.js';
import { appProps, KEYS, renderApp, type Screen } from '../../helpers/screens/screen.js';

const GB = 1024 ** 3;
const gb = (n: number) => Math.round(n * GB);
export const RIGHT = '\u001B[C';

/** Every line at most 80 columns, and fewer lines than the 24 rows. */
export function expectFits(frame: string): void {
  const lines = frame.split('\n');
  for (const line of lines) expect([...line].length, `${line}\n--- in ---\n${frame}`).toBeLessThanOrEqual(80);
  expect(lines.length, frame).toBeLessThan(24);
}

/** A cluster without OpenEBS: nodes with neither volume groups nor disks, and the two sources said missing. */
export function bareCluster(): ClusterStorage {
  return {
    source: 'cluster',
    nodes: [
      { node: 'w1-a', volumeGroups: [], disks: [], ephemeralBytes: gb(98.3) },
      { node: 'w1-b', volumeGroups: [], disks: [], ephemeralBytes: gb(98.3) },
    ],
    storageClasses: [{ name: 'standard', provisioner: 'rancher.io/local-path', default: true }],
    volumes: [],
    claims: [],
    missing: ['LVMNode (local.openebs.io) not installed', 'BlockDevice (openebs.io) not installed'],
  };
}

/**
 * The dashboard's store with these contexts and the storage feed started over fake readers: each
 * context's inventory from `inventories` (the reads counted), the catalogues from `load` (the
 * shipped example as the default one unless said) with `files` offered after it.
 */
export function fakeStorage(
  inventories: Record<string, () => ClusterStorage>,
  catalogues: { files?: string[]; load?: (file?: string) => Catalogue } = {},
) {
  const store = createFleetStore(Object.keys(inventories).map(info));
  const reads: string[] = [];
  const work: StorageWork = {
    inventory: async (context) => {
      reads.push(context);
      return inventories[context]!();
    },
    catalogue: catalogues.load ?? ((file) => loadCatalogue(file ?? EXAMPLE_CATALOGUE_FILE)),
    ...(catalogues.files ? { catalogueFiles: catalogues.files } : {}),
  };
  updateSlice(store, 'storage', (s) => ({ ...s, status: 'on' }));
  const actions: StorageActions = { show: () => {}, ...startStorageFeed(store, work) };
  return { store, actions, reads };
}

export async function openStorage(fake: ReturnType<typeof fakeStorage>, onQuit = vi.fn()): Promise<Screen> {
  const screen = await renderApp(appProps(fake.store, { actions: { storage: fake.actions }, onQuit }));
  await screen.waitFor('kind-cp');
  await screen.press('4');
  return screen;
}

/** The tab opened, its inventory read, and the estimate dialogue opened on its first page. */
export async function openDialogue(fake: ReturnType<typeof fakeStorage>): Promise<Screen> {
  const screen = await openStorage(fake);
  await screen.waitFor('vg_data');
  await screen.press(KEYS.enter);
  await screen.waitFor('1/3 Features');
  return screen;
}

/** From the inventory: open the dialogue and go to the sizes page (features and pools as they are). */
export async function toSizes(screen: Screen): Promise<string> {
  await screen.press(KEYS.enter);
  await screen.waitFor('1/3 Features');
  await screen.press(KEYS.enter);
  await screen.waitFor('2/3 Pools');
  await screen.press(KEYS.enter);
  return screen.waitFor('3/3 Sizes');
}
