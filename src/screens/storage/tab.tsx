import { useStore } from 'zustand';
import { FeedGate } from '../feed-gate.js';
import { Placeholder } from '../placeholder.js';
import type { ScreenTab, TabScreenProps } from '../tab.js';
import { ESTIMATE_KEYS } from './estimate-keys.js';
import { STORAGE_KEYS } from './keys.js';
import { StorageScreen } from './storage-screen.js';

const ABOUT = {
  text: 'Coming: what storage each node and the cluster have, what the planned stateful components need, and whether it fits.',
  steps: ['Storage per node', 'Storage classes of the cluster', 'Needs of the stateful components', 'Does it fit'],
};

function StorageTab(props: TabScreenProps) {
  const status = useStore(props.store, (s) => s.storage.status);
  if (!props.actions.storage) return <Placeholder title="Storage" about={ABOUT} width={props.width} height={props.height} />;
  return (
    <FeedGate status={status} what="the storage tools">
      <StorageScreen {...props} actions={props.actions.storage} />
    </FeedGate>
  );
}

/** Storage: what each node and the cluster have, and whether a catalogue of volumes fits. */
export const storageTab: ScreenTab = {
  id: 'storage',
  title: 'Storage',
  Screen: StorageTab,
  keys: [STORAGE_KEYS, ESTIMATE_KEYS],
  shown: (actions) => actions.storage?.show(),
};
