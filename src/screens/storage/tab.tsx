import { useStore } from 'zustand';
import { FeedGate } from '../feed-gate.js';
import { Placeholder } from '../placeholder.js';
import type { ScreenTab, TabScreenProps } from '../tab.js';
import { StorageScreen } from './storage-screen.js';
import { useStorageState } from './use-storage-state.js';

const ABOUT = {
  text: 'Coming: what storage each node and the cluster have, what the planned stateful components need, and whether it fits.',
  steps: ['Storage per node', 'Storage classes of the cluster', 'Needs of the stateful components', 'Does it fit'],
};

function StorageTab({ store, actions, width, height, active }: TabScreenProps) {
  const status = useStore(store, (s) => s.storage.status);
  const [nav, dispatch] = useStorageState();
  if (!actions.storage) return <Placeholder title="Storage" about={ABOUT} width={width} height={height} />;
  return (
    <FeedGate status={status} what="the storage tools">
      <StorageScreen store={store} actions={actions.storage} nav={nav} dispatch={dispatch} active={active} height={height} width={width} />
    </FeedGate>
  );
}

/** Storage: what each node and the cluster have, and whether a catalogue of volumes fits. */
export const storageTab: ScreenTab = {
  id: 'storage',
  title: 'Storage',
  Screen: StorageTab,
  keys: [],
  shown: (actions) => actions.storage?.show(),
};
