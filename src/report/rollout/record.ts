/** Where a rollout's record is, in words ("ConfigMap fleetdeck-rollout-X in fleetdeck-system"). */
import { configMapName, ROLLOUT_NAMESPACE } from '../../rollout/types.js';

export function recordPlace(name: string): string {
  return `ConfigMap ${configMapName(name)} in ${ROLLOUT_NAMESPACE}`;
}
