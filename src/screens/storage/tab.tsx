import { type FeedTabOptions, feedTab } from '../feed-gate.js';
import type { ScreenTab } from '../tab.js';
import { ESTIMATE_KEYS } from './estimate-keys.js';
import { STORAGE_KEYS } from './keys.js';
import { StorageScreen } from './storage-screen.js';

const TAB: FeedTabOptions<'storage'> = {
  title: 'Storage',
  about: {
    text: 'Coming: what storage each node and the cluster have, what the planned stateful components need, and whether it fits.',
    steps: ['Storage per node', 'Storage classes of the cluster', 'Needs of the stateful components', 'Does it fit'],
  },
  what: 'the storage tools',
  group: 'storage',
  status: (s) => s.storage.status,
  Screen: ({ own, ...props }) => <StorageScreen {...props} actions={own} />,
};

/** Storage: what each node and the cluster have, and whether a catalogue of volumes fits. */
export const storageTab: ScreenTab = {
  id: 'storage',
  title: 'Storage',
  Screen: feedTab(TAB),
  keys: [STORAGE_KEYS, ESTIMATE_KEYS],
  shown: (actions) => actions.storage?.show(),
};
