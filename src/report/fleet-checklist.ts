import { fleetFilePath } from '../config/fleet-config.js';
import type { CheckItem } from '../checklist/checklist.js';
import type { FleetState } from '../store/fleet-store.js';
import type { NovaCluster } from '../kube/fleet/control-plane.js';
import type { FleetConfig } from '../kube/fleet/fleet.js';
import { agentItem } from './fleet/agents.js';
import { certItem } from './fleet/certificates.js';
import { COMPONENTS, componentItem, controlPlaneSummaryItem } from './fleet/components.js';
import { crdItems } from './fleet/crds.js';
import { placedCounts, placementItems, placementRows } from './fleet/placement.js';
import { contextGate, gated, namespaceGate } from './fleet/gates.js';
import { serviceItem } from './fleet/service.js';
import { versionsItem } from './fleet/versions.js';

function hostingItems(state: FleetState, fleet: FleetConfig, now: number): CheckItem[] {
  const items: CheckItem[] = [{ id: 'nova/title', label: 'Checking status of Nova Control Plane Components', state: 'info' }];
  const install = `install the control plane: fleetdeck install (creates namespace ${fleet.namespace} in ${fleet.hostingContext})`;
  const ctxGate = contextGate(state, fleet.hostingContext, 'hosting', fleet);
  const ctx = state.status.contexts[fleet.hostingContext];
  const gateFor = (resource: string) => ctxGate ?? (ctx ? namespaceGate(ctx, resource, install) : undefined);

  const podsGate = gateFor('pods') ?? gateFor('deployments') ?? gateFor('statefulsets');
  const components = COMPONENTS.map((comp, i) =>
    podsGate ? gated(`nova/${comp.id}`, comp.label, podsGate, i === 0) : componentItem(comp, ctx!, fleet),
  );
  items.push(...components, controlPlaneSummaryItem(components, podsGate));

  const svcGate = gateFor('services');
  items.push(svcGate ? gated('nova/apiserver-service', 'API Server Service', svcGate, !podsGate) : serviceItem(ctx!, fleet));
  // Secrets are not among the main lists (their denial is `secretsForbidden`): this gate is load and namespace only.
  const certGate = gateFor('secrets');
  items.push(
    certGate
      ? gated('nova/certificates', 'Control plane certificates', certGate, !podsGate && !svcGate)
      : certItem(ctx!, fleet, now, state.certs.warnDays),
  );
  return items;
}

function workloadItems(state: FleetState, fleet: FleetConfig): CheckItem[] {
  const items: CheckItem[] = [{ id: 'workloads/title', label: 'Checking workload clusters', state: 'info' }];
  if (fleet.workloads.length === 0) {
    items.push({
      id: 'workloads/none',
      label: '0 workload contexts in the fleet',
      state: 'warn',
      hint: `name them with --context <context> (once per cluster) or under workloads: in ${fleetFilePath()}`,
    });
    return items;
  }
  items.push(...fleet.workloads.map((w) => agentItem(state, fleet, w)));
  const versions = versionsItem(state, fleet);
  if (versions) items.push(versions);
  return items;
}

/**
 * The fleet checklist in the wording of `kubectl nova status`, then more: control-plane
 * components, API server Service, CRDs, connected clusters, agents, SchedulePolicies,
 * version skew, certificates. Without a fleet: how to define or install one.
 * A context that cannot be asked never yields a √: its rows say why.
 */
export function fleetChecklist(state: FleetState, now: number = Date.now()): CheckItem[] {
  const fleet = state.fleet;
  if (!fleet) {
    return [
      {
        id: 'fleet/none',
        label: 'No fleet defined',
        state: 'warn',
        hint: `run fleetdeck install, or pass --hosting-context (with --control-plane-context, --namespace and --context for each workload cluster), or write ${fleetFilePath()}`,
      },
    ];
  }
  // The hosting cluster is not the fleet's: nothing of the fleet is checked against this kubeconfig.
  const away = fleet.problems?.[fleet.hostingContext];
  if (away)
    return [
      {
        id: 'fleet/elsewhere',
        label: `The fleet ${fleet.name ? `${fleet.name}, ` : ''}hosted in ${fleet.hostingContext}`,
        state: 'fail',
        detail: `not checked: ${away.detail}`,
        hint: away.hint,
        unknown: true,
      },
    ];
  const cp = state.status.contexts[fleet.controlPlaneContext]?.controlPlane;
  const placement = cp?.synced ? placementItems(cp, fleet.controlPlaneContext) : [];
  return [...hostingItems(state, fleet, now), ...crdItems(state, fleet), ...placement, ...workloadItems(state, fleet)];
}

/** A Cluster as the status shows it: `kubectl get clusters`' row, its room, and how many workloads it is a target of (null: not known yet). */
export interface ClusterOverview extends NovaCluster {
  workloads: number | null;
}

function controlPlaneOf(state: FleetState) {
  const cp = state.fleet ? state.status.contexts[state.fleet.controlPlaneContext]?.controlPlane : undefined;
  if (cp) return cp;
  for (const name of state.status.order) {
    const c = state.status.contexts[name]?.controlPlane;
    if (c) return c;
  }
  return undefined;
}

/** The Cluster objects the control plane knows (the fleet's control-plane context first, else any). */
export function novaClusters(state: FleetState): ClusterOverview[] {
  const cp = controlPlaneOf(state);
  if (!cp) return [];
  const rows = placementRows(cp);
  const counts = rows ? placedCounts(rows) : undefined;
  return cp.clusters.map((c) => ({ ...c, workloads: counts ? (counts.get(c.name) ?? 0) : null }));
}

const cores = (milli: number) => String(Math.round(milli / 100) / 10);
const gib = (b: number) => String(Math.round(b / 2 ** 30 / 0.1) / 10);
/** "available/allocatable" in cores, or GiB with the unit. */
function roomCell(r: { available: number; allocatable: number } | undefined, unit: 'cpu' | 'memory'): string {
  if (!r) return '';
  return unit === 'cpu' ? `${cores(r.available)}/${cores(r.allocatable)}` : `${gib(r.available)}/${gib(r.allocatable)}Gi`;
}

/** `kubectl get clusters` as rows of strings, then the room left (CPU cores, memory) and the workloads placed: the header, then one row per Cluster. */
export function novaClustersTable(state: FleetState): string[][] {
  const header = ['NAME', 'K8S-VERSION', 'K8S-CLUSTER', 'REGION', 'ZONE', 'READY', 'IDLE', 'STANDBY', 'CPU-FREE', 'MEM-FREE', 'WORKLOADS'];
  return [
    header,
    ...novaClusters(state).map((c) => [
      c.name,
      c.k8sVersion ?? '',
      c.k8sCluster ?? '',
      c.region ?? '',
      c.zone ?? '',
      c.ready ?? '',
      c.idle ?? '',
      c.standby ?? '',
      roomCell(c.cpu, 'cpu'),
      roomCell(c.memory, 'memory'),
      c.workloads === null ? '' : String(c.workloads),
    ]),
  ];
}
