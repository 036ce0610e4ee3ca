/** The fleet's control plane and workload clusters read for placement: `workloads`, `explain` and the Workloads tab read them so. */
import { readPlacement } from '../kube/nova/placement-read.js';
import type { Session } from '../session/session.js';
import { fleetTargets } from './backup/target.js';

export async function readFleetPlacement(session: Session, what: string) {
  const fleet = fleetTargets(session, what);
  const read = await readPlacement(
    fleet.controlPlane.kc,
    fleet.workloads.map((w) => ({ context: w.context, clusterName: w.clusterName, kc: w.kc })),
  );
  return { context: fleet.controlPlane.context, kc: fleet.controlPlane.kc, read };
}
