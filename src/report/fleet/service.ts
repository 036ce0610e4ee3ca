import type { CheckItem } from '../../checklist/checklist.js';
import type { ContextState } from '../../store/types.js';
import type { FleetConfig } from '../../kube/fleet/fleet.js';
import type { FleetNamespaceSummary } from '../../kube/fleet/fleet-namespace.js';
import { APISERVER_SERVICE } from './hints.js';

export function serviceItem(ctx: ContextState, fleet: FleetConfig): CheckItem {
  const id = 'nova/apiserver-service';
  const label = 'API Server Service';
  const s = ctx.fleetNamespace as FleetNamespaceSummary;
  const svc = s.services.find((x) => x.name === APISERVER_SERVICE);
  if (!svc) {
    return {
      id,
      label,
      state: 'fail',
      detail: 'not found',
      hint: `create it: kubectl --context=${fleet.hostingContext} create -f install/base/control-plane/apiserver.yaml -n ${fleet.namespace} (or fleetdeck install)`,
    };
  }
  if (svc.ingress.length === 0) {
    return {
      id,
      label,
      state: 'warn',
      detail: svc.type === 'LoadBalancer' ? 'Pending (no external IP or hostname)' : `${svc.type}, no external IP or hostname`,
      hint: `if it's still Pending after a few minutes, check whether ${ctx.name} has a working ingress controller / load balancer: Nova API Server is exposed as a LoadBalancer Service and needs an IP address or domain reachable from the Nova Agents in the workload clusters and from users`,
    };
  }
  return { id, label, state: 'ok', detail: svc.ingress.join(', ') };
}
