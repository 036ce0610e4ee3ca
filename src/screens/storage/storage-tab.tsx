import { Text } from 'ink';
import { useEffect, type Dispatch } from 'react';
import { useStore } from 'zustand';
import type { StorageActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import { StorageScreen } from './storage-screen.js';
import type { StorageAction, StorageNav } from './use-storage-state.js';

export interface StorageTabProps {
  store: FleetStore;
  actions: StorageActions;
  nav: StorageNav;
  dispatch: Dispatch<StorageAction>;
  active: boolean;
  height: number;
  width: number;
}

/** The Storage tab: its feed starts when the tab is first shown; the screen once it runs. */
export function StorageTab(props: StorageTabProps) {
  const status = useStore(props.store, (s) => s.storage.status);
  useEffect(() => props.actions.show(), [props.actions]);
  if (status === 'on') return <StorageScreen {...props} />;
  if (typeof status === 'object') return <Text>{status.error}</Text>;
  return <Text>loading the storage tools…</Text>;
}
