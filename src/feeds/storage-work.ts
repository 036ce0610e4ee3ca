/**
 * The storage feed's readers bound to the session's KubeConfigs, the same as `fleetdeck storage
 * estimate`: readClusterInventory per context, readLocalInventory for this host, and the
 * catalogues (the default one, and the shipped example offered in the dialogue). Loaded (its own
 * chunk) when the Storage tab is first shown.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { readClusterInventory } from '../storage/cluster.js';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../storage/catalogue.js';
import { readLocalInventory } from '../storage/local.js';
import type { StorageWork } from './storage.js';

/** `kc(context)` is that context's KubeConfig in the session as it is now; `catalogueFile` the one the dialogue starts with. */
export function storageWork(kc: (context: string) => KubeConfig, catalogueFile?: string): StorageWork {
  return {
    inventory: (context) => readClusterInventory(kc(context)),
    local: () => readLocalInventory(),
    catalogue: (file) => loadCatalogue(file ?? catalogueFile),
    catalogueFiles: [EXAMPLE_CATALOGUE_FILE].filter((f) => f !== catalogueFile),
  };
}
