import type { FleetConfig } from '../../../kube/fleet/fleet.js';

/** What a context is in the fleet. A context can be both hosting and workload. */
export type FleetRole = 'hosting' | 'control plane' | 'workload';

/** The roles of a context in the fleet, in that order; none when there is no fleet or it is not part of it. */
export function contextRoles(fleet: FleetConfig | undefined, name: string): FleetRole[] {
  // A context that is not the cluster the fleet file recorded plays no role, nor any when the
  // hosting one is not (as the status feed watches them: src/kube/fleet/fleet.ts, playsRole).
  if (!fleet || fleet.problems?.[name] || fleet.problems?.[fleet.hostingContext]) return [];
  const roles: FleetRole[] = [];
  if (fleet.hostingContext === name) roles.push('hosting');
  if (fleet.controlPlaneContext === name) roles.push('control plane');
  if (fleet.workloads.some((w) => w.context === name)) roles.push('workload');
  return roles;
}

const SHORT: Record<FleetRole, string> = { hosting: 'hosting', 'control plane': 'control', workload: 'workload' };

/** For the ROLE column: "hosting", "control", "workload", "hosting+workload"; "-" outside the fleet. */
export function roleLabel(roles: readonly FleetRole[]): string {
  return roles.length ? roles.map((r) => SHORT[r]).join('+') : '-';
}

/** For the detail: "workload (cluster kind-workload-1) in namespace elotl"; undefined outside the fleet. */
export function roleDescription(fleet: FleetConfig | undefined, name: string): string | undefined {
  const roles = contextRoles(fleet, name);
  if (!fleet || roles.length === 0) return undefined;
  const cluster = fleet.workloads.find((w) => w.context === name)?.clusterName;
  const parts = roles.map((r) => (r === 'workload' && cluster ? `workload (cluster ${cluster})` : r));
  return `${parts.join(' and ')}, namespace ${fleet.namespace}`;
}
