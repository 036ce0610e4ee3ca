/**
 * The storage feed's readers bound to the session's KubeConfigs, the same as `fleetdeck storage
 * estimate`: readClusterInventory per context, readLocalInventory for this host, and the
 * catalogues (the default one, and the shipped example offered in the dialogue). Loaded (its own
 * chunk) when the Storage tab is first shown.
 */
import { readClusterInventory } from '../../storage/cluster.js';
import { EXAMPLE_CATALOGUE_FILE, loadCatalogue } from '../../storage/catalogue.js';
import { readLocalInventory } from '../../storage/local.js';
import type { Session } from '../../session/session.js';
import type { StorageWork } from './feed.js';

/** The readers on the session's clusters; `catalogueFile` is the one the dialogue starts with. */
export function storageWork(session: Pick<Session, 'kc'>, catalogueFile?: string): StorageWork {
  return {
    inventory: (context) => readClusterInventory(session.kc(context)),
    local: () => readLocalInventory(),
    catalogue: (file) => loadCatalogue(file ?? catalogueFile),
    catalogueFiles: [EXAMPLE_CATALOGUE_FILE].filter((f) => f !== catalogueFile),
  };
}
