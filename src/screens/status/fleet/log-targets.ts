import type { LogTarget } from '../../../store/log-target.js';
import type { FleetState } from '../../../store/fleet-store.js';
import { COMPONENTS } from '../../../report/fleet/components.js';
import { AGENT_DEPLOYMENT } from '../../../report/fleet/hints.js';

/** `a=b,c=d` from a pod template's labels. */
const selectorOf = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

/** The agent's pods in a workload context: those of its Deployment's pod template (its labels, as reported). */
function agentTarget(state: FleetState, context: string, clusterName?: string): LogTarget | undefined {
  const fleet = state.fleet;
  if (!fleet) return undefined;
  const s = state.status.contexts[context]?.fleetNamespace;
  const d = s?.workloads.find((w) => w.kind === 'Deployment' && w.name === AGENT_DEPLOYMENT);
  const selector = d && Object.keys(d.labels).length > 0 ? selectorOf(d.labels) : undefined;
  if (!selector) return undefined;
  return {
    title: `${AGENT_DEPLOYMENT}${clusterName && clusterName !== context ? ` (cluster ${clusterName})` : ''}`,
    context,
    namespace: fleet.namespace,
    // The pod's Events (the agent's own Warnings, e.g. ClusterRegistrationFailed), not the Deployment's scaling.
    selector,
  };
}

/**
 * The pods behind a row of the fleet checklist, or undefined for a row that stands for none:
 * a control-plane component (its pods in the hosting context), the API server Service (the API
 * server's pods behind it), an agent (its Deployment's pods in the workload context).
 */
export function fleetItemLogTarget(id: string, state: FleetState): LogTarget | undefined {
  const fleet = state.fleet;
  if (!fleet) return undefined;
  const [kind, rest = ''] = id.split(/\/(.*)/s);
  if (kind === 'agent') return agentTarget(state, rest, fleet.workloads.find((w) => w.context === rest)?.clusterName);
  if (kind !== 'nova') return undefined;
  const componentId = rest === 'apiserver-service' ? 'apiserver' : rest;
  const comp = COMPONENTS.find((c) => c.id === componentId);
  if (!comp) return undefined;
  const label = rest === 'apiserver-service' ? 'API Server Service' : comp.label.replace(/ status$/, '');
  return {
    title: `${label} (${comp.key}=${comp.value})`,
    context: fleet.hostingContext,
    namespace: fleet.namespace,
    selector: `${comp.key}=${comp.value}`,
  };
}

/** The agent behind a row of the registered clusters' table: the workload context whose agent registers that cluster. */
export function clusterLogTarget(clusterName: string, state: FleetState): LogTarget | undefined {
  const w = state.fleet?.workloads.find((x) => x.clusterName === clusterName);
  return w ? agentTarget(state, w.context, clusterName) : undefined;
}
