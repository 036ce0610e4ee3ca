/**
 * Stores filled as the feeds would fill them, for the dashboard's tests and the plain output's:
 * three contexts, a Nova fleet in trouble, and the summaries they are made of.
 */
import { createFleetStore, type FleetStore } from '../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../src/store/status.js';
import { emptyPods } from '../../../src/kube/pods/pods.js';
import type { ComponentPod } from '../../../src/kube/fleet/component-pod.js';
import type { ContextInfo } from '../../../src/kube/config/kubeconfig.js';
import type { FleetConfig } from '../../../src/kube/fleet/fleet.js';
import type { FleetNamespaceSummary } from '../../../src/kube/fleet/fleet-namespace.js';
import type { NodeSummary } from '../../../src/kube/nodes/nodes.js';
import type { PodProblem, PodsSummary } from '../../../src/kube/pods/pods.js';
import type { WarningEvent } from '../../../src/kube/events/events.js';

export function info(name: string): ContextInfo {
  return { name, cluster: name, user: `${name}-admin`, server: `https://127.0.0.1:6443/${name}` };
}

export function node(name: string, opts: Partial<NodeSummary> = {}): NodeSummary {
  return { name, uid: `uid-${name}`, ready: true, unschedulable: false, roles: [], kubeletVersion: 'v1.31.0', ...opts };
}

/** 10:42:07 today, local time, so clock() prints it back. */
export const AT_10_42_07 = new Date(2025, 0, 1, 10, 42, 7).getTime();

/**
 * Three contexts: a hosting cluster (3/3 nodes, two zones), a workload with a
 * NotReady and a cordoned node, and an unreachable one.
 */
export function threeContexts(): FleetStore {
  const store = createFleetStore([info('kind-hosting'), info('kind-workload-1'), info('kind-workload-2')]);
  const b = new UpdateBatcher(store, -1);
  b.patchContext('kind-hosting', {
    reachability: 'reachable',
    latencyMs: 3,
    version: 'v1.31.0',
    evictionVersion: 'policy/v1',
    lastSuccessAt: AT_10_42_07,
  });
  b.resetNodes('kind-hosting', [node('h-1', { zone: 'zone-a' }), node('h-2', { zone: 'zone-a' }), node('h-3', { zone: 'zone-b' })]);
  b.patchContext('kind-workload-1', { reachability: 'reachable', latencyMs: 12, version: 'v1.30.2', evictionVersion: 'policy/v1' });
  b.resetNodes('kind-workload-1', [
    node('w1-a', { zone: 'zone-a' }),
    node('w1-b', { zone: 'zone-b', ready: false, notReadyReason: 'KubeletNotReady: container runtime is down' }),
    node('w1-c', { zone: 'zone-b', unschedulable: true, kubeletVersion: 'v1.30.2' }),
    node('w1-d', { zone: 'zone-c' }),
  ]);
  b.patchContext('kind-workload-2', {
    reachability: 'unreachable',
    version: 'v1.29.4',
    unreachableSince: AT_10_42_07,
    lastError: 'connect ECONNREFUSED 127.0.0.1:6445',
  });
  b.flush();
  return store;
}

/** The fleet of `novaFleet()`: kind-cp hosts the control plane, nova is its own context, two workload clusters. */
export const NOVA_FLEET: FleetConfig = {
  hostingContext: 'kind-cp',
  controlPlaneContext: 'nova',
  namespace: 'elotl',
  workloads: [
    { context: 'kind-workload-1', clusterName: 'kind-workload-1' },
    { context: 'kind-workload-2', clusterName: 'kind-workload-2' },
  ],
};

export function pods(over: Partial<PodsSummary> = {}): PodsSummary {
  return { ...emptyPods(), synced: true, ...over };
}

export function problem(name: string, reason: string, over: Partial<PodProblem> = {}): PodProblem {
  return { namespace: 'default', name, phase: 'Pending', reason, restarts: 0, ...over };
}

export function warning(reason: string, object: string, minutesAgo: number, over: Partial<WarningEvent> = {}): WarningEvent {
  return { reason, object, message: `${reason} on ${object}`, count: 1, lastSeen: Date.now() - minutesAgo * 60_000, ...over };
}

function component(name: string, key: string, value: string, ready = true, reason?: string): ComponentPod {
  return { name, labels: { [key]: value }, phase: ready ? 'Running' : 'Pending', ready, ...(reason ? { reason } : {}), node: 'cp-a' };
}

/**
 * A Nova fleet in trouble: the hosting cluster's nova-scheduler is crash-looping,
 * kind-workload-2's agent cannot pull its image and its Cluster is not ready;
 * problem pods and Warning events in kind-cp and kind-workload-2.
 */
export function novaFleet(): FleetStore {
  const store = createFleetStore([info('kind-cp'), info('nova'), info('kind-workload-1'), info('kind-workload-2')], NOVA_FLEET);
  const b = new UpdateBatcher(store, -1);
  const reachable = (ctx: string, version: string, latencyMs: number) =>
    b.patchContext(ctx, { reachability: 'reachable', version, latencyMs, evictionVersion: 'policy/v1', lastSuccessAt: AT_10_42_07 });
  reachable('kind-cp', 'v1.31.0', 4);
  reachable('nova', 'v1.31.0', 6);
  reachable('kind-workload-1', 'v1.31.0', 11);
  reachable('kind-workload-2', 'v1.31.0', 14);
  b.resetNodes('kind-cp', [
    node('cp-a', { zone: 'zone-a', roles: ['control-plane'] }),
    node('cp-b', { zone: 'zone-b' }),
    node('cp-c', { zone: 'zone-c' }),
  ]);
  b.resetNodes('nova', []);
  b.resetNodes('kind-workload-1', [node('w1-a', { zone: 'zone-a' }), node('w1-b', { zone: 'zone-b', unschedulable: true })]);
  b.resetNodes('kind-workload-2', [
    node('w2-a', { zone: 'zone-a' }),
    node('w2-b', { zone: 'zone-b', ready: false, notReadyReason: 'KubeletNotReady: PLEG is not healthy' }),
  ]);

  const agent = (ready: number, reason?: string): FleetNamespaceSummary => ({
    synced: true,
    namespace: 'elotl',
    exists: true,
    workloads: [{ kind: 'Deployment', name: 'nova-agent', desired: 1, ready, labels: { app: 'nova-agent' } }],
    pods: [
      {
        name: 'nova-agent-6d5f9-abcde',
        labels: { app: 'nova-agent' },
        phase: ready ? 'Running' : 'Pending',
        ready: ready > 0,
        ...(reason ? { reason } : {}),
      },
    ],
    services: [],
    certs: [],
  });
  b.setSlice('kind-cp', 'fleetNamespace', {
    synced: true,
    namespace: 'elotl',
    exists: true,
    workloads: [
      { kind: 'Deployment', name: 'apiserver', desired: 1, ready: 1, labels: { component: 'apiserver' } },
      { kind: 'Deployment', name: 'kube-controller-manager', desired: 1, ready: 1, labels: { component: 'controller-manager' } },
      { kind: 'StatefulSet', name: 'etcd', desired: 1, ready: 1, labels: { app: 'etcd' } },
      { kind: 'Deployment', name: 'nova-scheduler', desired: 1, ready: 0, labels: { component: 'nova-scheduler' } },
    ],
    pods: [
      component('apiserver-5c7b9-x1', 'component', 'apiserver'),
      component('kube-controller-manager-7f8-x2', 'component', 'controller-manager'),
      component('etcd-0', 'app', 'etcd'),
      component('nova-scheduler-59d-x3', 'component', 'nova-scheduler', false, 'CrashLoopBackOff'),
    ],
    services: [{ name: 'apiserver', type: 'LoadBalancer', ingress: ['172.18.255.200'] }],
    certs: [{ secret: 'nova-certs', key: 'apiserver.crt', subject: 'CN=apiserver', notAfter: Date.now() + 300 * 86_400_000 }],
  });
  b.setSlice('kind-workload-1', 'fleetNamespace', agent(1));
  b.setSlice('kind-workload-2', 'fleetNamespace', agent(0, 'ImagePullBackOff'));
  b.setSlice('nova', 'controlPlane', {
    synced: true,
    crds: { cluster: true, schedulePolicy: true, scheduleGroup: true },
    clusters: [
      {
        name: 'kind-workload-1',
        k8sVersion: 'v1.31.0',
        k8sCluster: 'kind-workload-1',
        region: 'local',
        zone: 'zone-a',
        ready: 'True',
        idle: 'True',
        standby: 'False',
      },
      {
        name: 'kind-workload-2',
        k8sVersion: 'v1.31.0',
        k8sCluster: 'kind-workload-2',
        region: 'local',
        zone: 'zone-b',
        ready: 'False',
        idle: 'True',
        standby: 'False',
      },
    ],
    schedulePolicies: 1,
  });

  b.setSlice(
    'kind-cp',
    'pods',
    pods({
      total: 142,
      byPhase: { Running: 136, Pending: 2, Failed: 1, Succeeded: 3, Unknown: 0 },
      problemCount: 3,
      problems: [
        problem('nova-scheduler-59d-x3', 'CrashLoopBackOff', { namespace: 'elotl', phase: 'Running', restarts: 17, node: 'cp-a' }),
        problem('ingest-7c9d4-q2w', 'Unschedulable: 0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available', {
          namespace: 'batch',
        }),
        problem('report-28893110-k2x', 'Error', { namespace: 'batch', phase: 'Failed', node: 'cp-b' }),
      ],
    }),
  );
  b.setSlice('kind-cp', 'events', {
    synced: true,
    warnings: [
      warning('BackOff', 'Pod elotl/nova-scheduler-59d-x3', 1, {
        message: 'Back-off restarting failed container nova-scheduler in pod nova-scheduler-59d-x3_elotl',
        count: 42,
        namespace: 'elotl',
      }),
      warning('FailedScheduling', 'Pod batch/ingest-7c9d4-q2w', 3, {
        message:
          '0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
        count: 7,
        namespace: 'batch',
      }),
    ],
  });
  b.setSlice('nova', 'pods', pods());
  b.setSlice('nova', 'events', { synced: true, warnings: [] });
  b.setSlice('kind-workload-1', 'pods', pods({ total: 88, byPhase: { Running: 88, Pending: 0, Failed: 0, Succeeded: 0, Unknown: 0 } }));
  b.setSlice('kind-workload-1', 'events', { synced: true, warnings: [] });
  b.setSlice(
    'kind-workload-2',
    'pods',
    pods({
      total: 40,
      byPhase: { Running: 39, Pending: 1, Failed: 0, Succeeded: 0, Unknown: 0 },
      problemCount: 1,
      problems: [problem('nova-agent-6d5f9-abcde', 'ImagePullBackOff', { namespace: 'elotl', node: 'w2-a' })],
    }),
  );
  b.setSlice('kind-workload-2', 'events', {
    synced: true,
    warnings: [
      warning('Failed', 'Pod elotl/nova-agent-6d5f9-abcde', 2, {
        message: 'Failed to pull image "elotl/nova-agent:v9.9.9": not found',
        count: 12,
        namespace: 'elotl',
      }),
    ],
  });
  b.flush();
  return store;
}
