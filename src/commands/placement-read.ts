/** The fleet's control plane and workload clusters read for placement: `workloads`, `explain` and the Workloads tab read them so. */
import { UserError } from '../errors.js';
import { readPlacement } from '../kube/nova/placement-read.js';
import { describeError } from '../kube/transport/client.js';
import type { Session } from '../session/session.js';
import { fleetTargets } from './backup/target.js';

export async function readFleetPlacement(session: Session, what: string) {
  const fleet = fleetTargets(session, what);
  const read = await readPlacement(
    fleet.controlPlane.kc,
    fleet.workloads.map((w) => ({ context: w.context, clusterName: w.clusterName, kc: w.kc })),
  ).catch((err: unknown) => {
    throw new UserError(`the control plane (${fleet.controlPlane.context}) could not be read: ${describeError(err)}`);
  });
  return { context: fleet.controlPlane.context, kc: fleet.controlPlane.kc, read };
}
