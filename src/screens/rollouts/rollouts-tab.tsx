import { Text } from 'ink';
import { useEffect, type Dispatch } from 'react';
import { useStore } from 'zustand';
import type { RolloutActions } from '../../store/actions.js';
import type { FleetStore } from '../../store/fleet-store.js';
import type { LogTarget } from '../../store/log-target.js';
import { RolloutsScreen } from './rollouts-screen.js';
import type { RolloutsAction, RolloutsNav } from './use-rollouts-state.js';

export interface RolloutsTabProps {
  store: FleetStore;
  actions: RolloutActions;
  nav: RolloutsNav;
  dispatch: Dispatch<RolloutsAction>;
  readOnly: boolean;
  active: boolean;
  height: number;
  width: number;
  /** `l` on a node whose drain a budget blocks: the blocked pod's log. */
  onOpenLogs?: ((target: LogTarget) => void) | undefined;
}

/** The Rollouts tab: its feed starts when the tab is first shown; the screen once it runs. */
export function RolloutsTab(props: RolloutsTabProps) {
  const status = useStore(props.store, (s) => s.rollouts.status);
  useEffect(() => props.actions.show(), [props.actions]);
  if (status === 'on') return <RolloutsScreen {...props} />;
  if (typeof status === 'object') return <Text>{status.error}</Text>;
  return <Text>loading the rollouts…</Text>;
}
