/** A fleet as the store holds it, healthy, and copies of it with one part changed; the checklist read from it at a fixed time. */
import { fleetChecklist } from '../../src/report/fleet-checklist.js';
import { formatChecklist, type CheckItem } from '../../src/checklist/checklist.js';
import { emptyTabSlices, type FleetState } from '../../src/store/fleet-store.js';
import { emptyContext } from '../../src/store/status.js';
import type { ContextState } from '../../src/store/types.js';
import type { ComponentPod } from '../../src/kube/fleet/component-pod.js';
import type { ControlPlaneSummary } from '../../src/kube/fleet/control-plane.js';
import type { FleetConfig } from '../../src/kube/fleet/fleet.js';
import type { FleetNamespaceSummary, WorkloadSummary } from '../../src/kube/fleet/fleet-namespace.js';

export const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
export const DAY = 86_400_000;

const FLEET: FleetConfig = {
  hostingContext: 'kind-cp',
  controlPlaneContext: 'nova',
  namespace: 'elotl',
  workloads: [
    { context: 'kind-workload-1', clusterName: 'kind-workload-1' },
    { context: 'kind-workload-2', clusterName: 'kind-workload-2' },
  ],
};

const COMPONENT_LABELS: Record<string, Record<string, string>> = {
  apiserver: { component: 'apiserver' },
  'kube-controller-manager': { component: 'controller-manager' },
  etcd: { app: 'etcd' },
  'nova-scheduler': { component: 'nova-scheduler' },
};

function workload(
  kind: WorkloadSummary['kind'],
  name: string,
  labels: Record<string, string>,
  desired = 3,
  ready = desired,
): WorkloadSummary {
  return { kind, name, desired, ready, labels };
}

function pod(name: string, labels: Record<string, string>, extra: Partial<ComponentPod> = {}): ComponentPod {
  return { name, labels, phase: 'Running', ready: true, node: 'node-1', ...extra };
}

function hostingNamespace(): FleetNamespaceSummary {
  const workloads = Object.entries(COMPONENT_LABELS).map(([name, labels]) =>
    workload(name === 'etcd' ? 'StatefulSet' : 'Deployment', name, labels),
  );
  const pods = Object.entries(COMPONENT_LABELS).flatMap(([name, labels]) => [0, 1, 2].map((i) => pod(`${name}-${i}`, labels)));
  return {
    synced: true,
    namespace: 'elotl',
    exists: true,
    workloads,
    pods,
    services: [{ name: 'apiserver', type: 'LoadBalancer', ingress: ['172.18.255.200'] }],
    certs: [
      { secret: 'nova-ca', key: 'ca.crt', subject: 'CN=nova-ca', notAfter: NOW + 3650 * DAY + 3600_000 },
      { secret: 'apiserver-certs', key: 'tls.crt', subject: 'CN=apiserver', notAfter: NOW + 3649 * DAY + 3600_000 },
    ],
  };
}

export function agentNamespace(ready = 1): FleetNamespaceSummary {
  const labels = { app: 'nova-agent' };
  return {
    synced: true,
    namespace: 'elotl',
    exists: true,
    workloads: [workload('Deployment', 'nova-agent', labels, 1, ready)],
    pods: [pod('nova-agent-7d9f-abcde', labels, ready ? {} : { phase: 'Running', ready: false, reason: 'CrashLoopBackOff' })],
    services: [],
    certs: [],
  };
}

function controlPlane(): ControlPlaneSummary {
  return {
    synced: true,
    crds: { cluster: true, schedulePolicy: true, scheduleGroup: true },
    clusters: [
      { name: 'kind-workload-1', k8sVersion: '1.20', k8sCluster: 'workload-1', ready: 'True', idle: 'True', standby: 'False' },
      { name: 'kind-workload-2', k8sVersion: '1.20', k8sCluster: 'workload-2', ready: 'True', idle: 'True', standby: 'False' },
    ],
    schedulePolicies: 0,
  };
}

function reachable(name: string, extra: Partial<ContextState> = {}): ContextState {
  return {
    ...emptyContext({ name, cluster: name, user: 'admin', server: `https://${name}:6443` }),
    reachability: 'reachable',
    version: 'v1.20.2',
    latencyMs: 2,
    nodes: { synced: true, items: {} },
    ...extra,
  };
}

export function healthy(): FleetState {
  const contexts: Record<string, ContextState> = {
    'kind-cp': reachable('kind-cp', { fleetNamespace: hostingNamespace() }),
    nova: reachable('nova', { controlPlane: controlPlane() }),
    'kind-workload-1': reachable('kind-workload-1', { fleetNamespace: agentNamespace() }),
    'kind-workload-2': reachable('kind-workload-2', { fleetNamespace: agentNamespace() }),
  };
  return { ...emptyTabSlices(), status: { order: Object.keys(contexts), contexts, revision: 1 }, fleet: FLEET };
}

/** A copy of the state with one context changed. */
export function withContext(state: FleetState, name: string, change: (c: ContextState) => ContextState): FleetState {
  return { ...state, status: { ...state.status, contexts: { ...state.status.contexts, [name]: change(state.status.contexts[name]!) } } };
}

export function withHosting(state: FleetState, change: (ns: FleetNamespaceSummary) => FleetNamespaceSummary): FleetState {
  return withContext(state, 'kind-cp', (c) => ({ ...c, fleetNamespace: change(c.fleetNamespace!) }));
}

export function withControlPlane(state: FleetState, change: (cp: ControlPlaneSummary) => ControlPlaneSummary): FleetState {
  return withContext(state, 'nova', (c) => ({ ...c, controlPlane: change(c.controlPlane!) }));
}

export const text = (state: FleetState) => formatChecklist(fleetChecklist(state, NOW));
export const item = (state: FleetState, id: string): CheckItem => {
  const found = fleetChecklist(state, NOW).find((i) => i.id === id);
  if (!found) throw new Error(`no item ${id}`);
  return found;
};
export const noOk = (items: CheckItem[], prefix: string) => items.filter((i) => i.id.startsWith(prefix)).every((i) => i.state !== 'ok');
