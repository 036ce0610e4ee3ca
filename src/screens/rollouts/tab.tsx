import { feedTab } from '../feed-gate.js';
import { ABORT_CONFIRM_KEYS, ROLLOUT_LIST_KEYS, ROLLOUT_PROGRESS_KEYS } from './keys.js';
import { RolloutsScreen } from './rollouts-screen.js';
import { NEW_ROLLOUT_KEYS } from './wizard/keys.js';

/** Rollouts: replace groups of nodes by priority, fleetdeck's or Navarchos'. */
export const rolloutsTab = feedTab({
  group: 'rollouts',
  title: 'Rollouts',
  about: {
    text: 'Coming: replace groups of nodes by priority, with live progress per node.',
    steps: ['Cordon', 'Drain (respecting PodDisruptionBudgets)', 'Wait for the replacement', 'Next node'],
  },
  what: 'the rollouts',
  keys: [ROLLOUT_LIST_KEYS, ROLLOUT_PROGRESS_KEYS, ABORT_CONFIRM_KEYS, NEW_ROLLOUT_KEYS],
  Screen: RolloutsScreen,
});
