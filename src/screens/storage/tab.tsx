import { feedTab } from '../feed-gate.js';
import { ESTIMATE_KEYS } from './estimate-keys.js';
import { STORAGE_KEYS } from './keys.js';
import { StorageScreen } from './storage-screen.js';

/** Storage: what each node and the cluster have, and whether a catalogue of volumes fits. */
export const storageTab = feedTab({
  group: 'storage',
  title: 'Storage',
  about: {
    text: 'Coming: what storage each node and the cluster have, what the planned stateful components need, and whether it fits.',
    steps: ['Storage per node', 'Storage classes of the cluster', 'Needs of the stateful components', 'Does it fit'],
  },
  what: 'the storage tools',
  keys: [STORAGE_KEYS, ESTIMATE_KEYS],
  Screen: ({ own, ...props }) => <StorageScreen {...props} actions={own} />,
});
