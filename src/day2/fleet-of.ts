/** The fleet a day-2 operation needs beyond the control plane (renewal and upgrade reach every cluster). */
import { UserError } from '../errors.js';
import type { Target, WorkloadTarget } from '../install/plan.js';
import type { Day2Fleet, Day2Target } from './operation.js';

/** Every cluster of the fleet, as a renewal and an upgrade reach them. */
export interface FleetTargets {
  hosting: Target;
  /** The control plane's own API, through its load balancer. */
  controlPlane: Target;
  workloads: WorkloadTarget[];
  namespace: string;
}

export function fleetOf(target: Day2Target, what: string): Day2Fleet {
  if (!target.fleet)
    throw new UserError(`${what} needs every cluster of the fleet in the kubeconfig (the hosting and each workload cluster's context)`);
  return target.fleet;
}

/** The operation's control plane and its fleet's clusters; `what` names the operation in the error. */
export function fleetTargetsOf(target: Day2Target, what: string): FleetTargets {
  const fleet = fleetOf(target, what);
  return {
    hosting: fleet.hosting,
    controlPlane: { context: target.context, kc: target.kc },
    workloads: fleet.workloads,
    namespace: fleet.namespace,
  };
}
