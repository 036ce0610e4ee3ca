/** The fleet a day-2 operation needs beyond the control plane (renewal and upgrade reach every cluster). */
import { UserError } from '../errors.js';
import type { Day2Fleet, Day2Target } from './operation.js';

export function fleetOf(target: Day2Target, what: string): Day2Fleet {
  if (!target.fleet)
    throw new UserError(`${what} needs every cluster of the fleet in the kubeconfig (the hosting and each workload cluster's context)`);
  return target.fleet;
}
