import type { FleetConfig } from '../../kube/fleet/fleet.js';

/** The hints `kubectl nova status` prints, word for word. */
export const NO_CLUSTERS_HINT =
  'please connect at least one Cluster, otherwise Nova does not have a target cluster to run your workloads. Connecting clusters can be done by running novactl install agent <cluster-name> in correct Kube context.';
export const NO_POLICIES_HINT =
  'please create at least one SchedulePolicy, otherwise Nova does not know where to run your workloads. SchedulePolicy spec: https://docs.elotl.co/nova/intro';

/** The agent Deployment in each workload cluster. */
export const AGENT_DEPLOYMENT = 'nova-agent';
/** The LoadBalancer Service that exposes the control plane's API server. */
export const APISERVER_SERVICE = 'apiserver';

export function crdHint(fleet: FleetConfig): string {
  return `install them: kubectl --context=${fleet.controlPlaneContext} create -f install/base/control-plane/nova_crds.yaml (or fleetdeck install)`;
}
