import { useStore } from 'zustand';
import { FeedGate } from '../feed-gate.js';
import { Placeholder } from '../placeholder.js';
import type { ScreenTab, TabScreenProps } from '../tab.js';
import { ABORT_CONFIRM_KEYS, ROLLOUT_LIST_KEYS, ROLLOUT_PROGRESS_KEYS } from './keys.js';
import { RolloutsScreen } from './rollouts-screen.js';
import { NEW_ROLLOUT_KEYS } from './wizard/keys.js';

const ABOUT = {
  text: 'Coming: replace groups of nodes by priority, with live progress per node.',
  steps: ['Cordon', 'Drain (respecting PodDisruptionBudgets)', 'Wait for the replacement', 'Next node'],
};

function RolloutsTab(props: TabScreenProps) {
  const status = useStore(props.store, (s) => s.rollouts.status);
  if (!props.actions.rollouts) return <Placeholder title="Rollouts" about={ABOUT} width={props.width} height={props.height} />;
  return (
    <FeedGate status={status} what="the rollouts">
      <RolloutsScreen {...props} />
    </FeedGate>
  );
}

/** Rollouts: replace groups of nodes by priority, fleetdeck's or Navarchos'. */
export const rolloutsTab: ScreenTab = {
  id: 'rollouts',
  title: 'Rollouts',
  Screen: RolloutsTab,
  keys: [ROLLOUT_LIST_KEYS, ROLLOUT_PROGRESS_KEYS, ABORT_CONFIRM_KEYS, NEW_ROLLOUT_KEYS],
  shown: (actions) => actions.rollouts?.show(),
};
