import type { FleetState } from '../../store/fleet-store.js';
import type { LogTarget } from '../../store/log-target.js';
import type { RolloutRef } from './rows.js';

/** The log target of the pod that blocks the drain of the open rollout's node at `row`, or why there is none. */
export function blockedPodTarget(state: FleetState, open: RolloutRef, row: number): LogTarget | string {
  if (open.kind !== 'fleetdeck') return 'logs: open the blocked pod from the Status tab (Navarchos reports no blocking pod)';
  const node = state.rollouts.byContext[open.context]?.rollouts[open.name]?.nodes[row];
  if (!node) return 'no node selected';
  const pdb = node.blockingPdb;
  if (!pdb?.pod) return `no pod blocks the drain of ${node.name}`;
  const [namespace = pdb.namespace, name = ''] = pdb.pod.includes('/') ? pdb.pod.split('/') : [pdb.namespace, pdb.pod];
  return {
    title: `${namespace}/${name} (blocks ${node.name}: PodDisruptionBudget ${pdb.name})`,
    context: open.context,
    namespace,
    pods: [name],
    events: { kind: 'Pod', name, namespace },
  };
}
