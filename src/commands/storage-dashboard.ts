/**
 * The Storage tab's link to the clusters (StorageDeps), from the same readers as
 * `fleetdeck storage estimate`: readClusterInventory per context, readLocalInventory for this
 * host, and the catalogues (the default one, and the shipped example offered in the dialogue).
 * Loaded (its own chunk) when the tab is first shown. It only reads.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { contextConfigs } from '../kube/kubeconfig.js';
import { readClusterInventory } from '../kube/storage.js';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../storage/catalogue.js';
import { readLocalInventory } from '../storage/local.js';
import type { StorageDeps } from '../screens/storage/deps.js';

export interface StorageToolsOptions {
  /** The catalogue the dialogue starts with (default: fleetdeck's own). */
  catalogueFile?: string | undefined;
}

/**
 * `config()` is the dashboard's kubeconfig as it is now and `contexts()` its contexts in display
 * order (a sandbox started or a fleet installed from the dashboard changes both).
 */
export function storageDeps(config: () => KubeConfig, contexts: () => string[], opts: StorageToolsOptions = {}): StorageDeps {
  const kcFor = contextConfigs(config);
  const others = [EXAMPLE_CATALOGUE_FILE].filter((f) => f !== opts.catalogueFile);
  return {
    get contexts() {
      return contexts();
    },
    inventory: async (context) => readClusterInventory(kcFor(context)),
    local: () => readLocalInventory(),
    catalogue: (file) => loadCatalogue(file ?? opts.catalogueFile),
    catalogueFiles: others,
  };
}
