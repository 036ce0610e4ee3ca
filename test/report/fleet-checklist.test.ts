import { describe, expect, it } from 'vitest';
import { fleetFilePath } from '../../src/config/fleet-config.js';
import { fleetChecklist, novaClustersTable } from '../../src/report/fleet-checklist.js';
import { NO_CLUSTERS_HINT, NO_POLICIES_HINT } from '../../src/report/fleet/hints.js';
import { fleetHealthy, statusText } from '../../src/report/status.js';
import { formatChecklist, type CheckItem } from '../../src/checklist/checklist.js';
import { emptyContext, emptyTabSlices, type FleetState } from '../../src/store/fleet-store.js';
import type { ContextState } from '../../src/store/types.js';
import type { ComponentPod } from '../../src/kube/fleet/component-pod.js';
import type { ControlPlaneSummary } from '../../src/kube/fleet/control-plane.js';
import type { FleetConfig } from '../../src/kube/fleet/fleet.js';
import type { FleetNamespaceSummary, WorkloadSummary } from '../../src/kube/fleet/fleet-namespace.js';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0);
const DAY = 86_400_000;

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

function agentNamespace(ready = 1): FleetNamespaceSummary {
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

function healthy(): FleetState {
  const contexts: Record<string, ContextState> = {
    'kind-cp': reachable('kind-cp', { fleetNamespace: hostingNamespace() }),
    nova: reachable('nova', { controlPlane: controlPlane() }),
    'kind-workload-1': reachable('kind-workload-1', { fleetNamespace: agentNamespace() }),
    'kind-workload-2': reachable('kind-workload-2', { fleetNamespace: agentNamespace() }),
  };
  return { ...emptyTabSlices(), status: { order: Object.keys(contexts), contexts, revision: 1 }, fleet: FLEET };
}

/** A copy of the state with one context changed. */
function withContext(state: FleetState, name: string, change: (c: ContextState) => ContextState): FleetState {
  return { ...state, status: { ...state.status, contexts: { ...state.status.contexts, [name]: change(state.status.contexts[name]!) } } };
}

function withHosting(state: FleetState, change: (ns: FleetNamespaceSummary) => FleetNamespaceSummary): FleetState {
  return withContext(state, 'kind-cp', (c) => ({ ...c, fleetNamespace: change(c.fleetNamespace!) }));
}

function withControlPlane(state: FleetState, change: (cp: ControlPlaneSummary) => ControlPlaneSummary): FleetState {
  return withContext(state, 'nova', (c) => ({ ...c, controlPlane: change(c.controlPlane!) }));
}

const text = (state: FleetState) => formatChecklist(fleetChecklist(state, NOW));
const item = (state: FleetState, id: string): CheckItem => {
  const found = fleetChecklist(state, NOW).find((i) => i.id === id);
  if (!found) throw new Error(`no item ${id}`);
  return found;
};
const noOk = (items: CheckItem[], prefix: string) => items.filter((i) => i.id.startsWith(prefix)).every((i) => i.state !== 'ok');

describe('fleet checklist', () => {
  it('reads like `kubectl nova status` for a healthy fleet, then checks more', () => {
    // Given a fleet where everything is up, with no SchedulePolicy yet
    const state = healthy();

    // When the checklist is printed
    const lines = text(state).split('\n');

    // Then the seed's lines come word for word, in its order
    expect(lines).toEqual([
      'Checking status of Nova Control Plane Components',
      '* API Server status... Running √',
      '* Kube-controller-manager status... Running √',
      '* ETCD status... Running √',
      '* Nova scheduler status... Running √',
      'Nova Control Plane is healthy √',
      '* API Server Service... 172.18.255.200 √',
      '* Control plane certificates... valid for 3649 days √',
      'Checking presence of Nova Custom Resource Definitions',
      '* Cluster CRD presence... installed √',
      '* Cluster kind-workload-1 connected and ready √',
      '* Cluster kind-workload-2 connected and ready √',
      '* SchedulePolicy CRD presence... installed √',
      '* 0 SchedulePolicies defined ‼',
      `  ${NO_POLICIES_HINT}`,
      '* ScheduleGroup CRD presence... installed √',
      'All Nova Custom Resource Definitions installed √',
      'Checking workload clusters',
      '* Agent in kind-workload-1... 1/1 ready, registered, Ready √',
      '* Agent in kind-workload-2... 1/1 ready, registered, Ready √',
      '* Kubernetes versions... consistent (v1.20) √',
    ]);
    // And a warning does not make the fleet unhealthy
    expect(fleetHealthy(state, NOW)).toBe(true);
  });

  it('counts SchedulePolicies once there are some', () => {
    const state = withControlPlane(healthy(), (cp) => ({ ...cp, schedulePolicies: 2 }));
    expect(text(state)).toContain('* 2 SchedulePolicies defined √');
    expect(text(withControlPlane(healthy(), (cp) => ({ ...cp, schedulePolicies: 1 })))).toContain('* 1 SchedulePolicy defined √');
  });

  it('without Clusters: the seed line and its hint, verbatim', () => {
    // Given a control plane that no agent has registered with yet
    const state = withControlPlane(healthy(), (cp) => ({ ...cp, clusters: [] }));

    // When printed
    const lines = text(state).split('\n');

    // Then it reads as in the seed, right after the Cluster CRD line
    const at = lines.indexOf('* Cluster CRD presence... installed √');
    expect(lines.slice(at, at + 4)).toEqual([
      '* Cluster CRD presence... installed √',
      '0 workload clusters connected ‼',
      '  please connect at least one Cluster, otherwise Nova does not have a target cluster to run your workloads. Connecting clusters can be done by running novactl install agent <cluster-name> in correct Kube context.',
      '* SchedulePolicy CRD presence... installed √',
    ]);
    expect(NO_CLUSTERS_HINT).toBe(lines[at + 2]!.trim());
    // And each agent says it is not registered
    expect(item(state, 'agent/kind-workload-1')).toMatchObject({ state: 'fail', detail: '1/1 ready, not registered' });
    expect(item(state, 'agent/kind-workload-1').hint).toContain('kubectl logs --context=kind-workload-1 -n elotl deployment/nova-agent');
    expect(fleetHealthy(state, NOW)).toBe(false);
  });

  it('etcd Pending: the failure names the scheduler message, the hint the storage provisioner', () => {
    // Given etcd pods that cannot be scheduled for want of a PersistentVolume
    const message = '0/6 nodes are available: 6 pod has unbound immediate PersistentVolumeClaims.';
    const state = withHosting(healthy(), (ns) => ({
      ...ns,
      workloads: ns.workloads.map((w) => (w.name === 'etcd' ? { ...w, ready: 0 } : w)),
      pods: ns.pods.map((p) =>
        p.labels.app === 'etcd' ? { ...p, phase: 'Pending', ready: false, reason: `Unschedulable: ${message}`, node: undefined } : p,
      ),
    }));

    // When printed
    const lines = text(state).split('\n');

    // Then
    const at = lines.findIndex((l) => l.startsWith('* ETCD status'));
    expect(lines[at]).toBe(`* ETCD status... Pending 0/3 (Unschedulable: ${message}) ✗`);
    expect(lines[at + 1]).toMatch(/^ {2}ETCD pods will not start if the storage provisioner is not configured/);
    expect(lines[at + 1]).toContain('storage provisioner and a default StorageClass');
    expect(lines).toContain('Nova Control Plane is not healthy ✗');
    expect(fleetHealthy(state, NOW)).toBe(false);
  });

  it('API server pods crashing: the failure says CrashLoopBackOff and the hint shows the logs', () => {
    const state = withHosting(healthy(), (ns) => ({
      ...ns,
      pods: ns.pods.map((p) => (p.labels.component === 'apiserver' ? { ...p, ready: false, reason: 'CrashLoopBackOff' } : p)),
    }));
    const api = item(state, 'nova/apiserver');
    expect(api).toMatchObject({ state: 'fail', detail: 'Running 0/3 (CrashLoopBackOff)' });
    expect(api.hint).toBe('see why it exits: kubectl --context=kind-cp -n elotl logs apiserver-0 --previous');
  });

  it('one replica of three down is degraded, not failed', () => {
    const state = withHosting(healthy(), (ns) => ({
      ...ns,
      pods: ns.pods.map((p) =>
        p.name === 'nova-scheduler-2'
          ? {
              ...p,
              phase: 'Pending',
              ready: false,
              reason: "Unschedulable: 0/6 nodes are available: 6 node(s) didn't match pod anti-affinity rules.",
            }
          : p,
      ),
    }));
    expect(item(state, 'nova/nova-scheduler')).toMatchObject({
      state: 'warn',
      detail: expect.stringMatching(/^Running 2\/3 \(Unschedulable: /),
    });
    expect(item(state, 'nova/nova-scheduler').hint).toContain('topology.kubernetes.io/zone');
    expect(item(state, 'nova/healthy')).toMatchObject({ label: 'Nova Control Plane is degraded', state: 'warn' });
  });

  it('a component that is not there at all fails with the install command', () => {
    const state = withHosting(healthy(), (ns) => ({
      ...ns,
      workloads: ns.workloads.filter((w) => w.name !== 'nova-scheduler'),
      pods: ns.pods.filter((p) => p.labels.component !== 'nova-scheduler'),
    }));
    expect(item(state, 'nova/nova-scheduler')).toMatchObject({ state: 'fail', detail: 'not found' });
    expect(item(state, 'nova/nova-scheduler').hint).toContain('component=nova-scheduler');
  });

  it('LoadBalancer IP Pending: a warning with the ingress controller / load balancer hint', () => {
    const state = withHosting(healthy(), (ns) => ({ ...ns, services: [{ name: 'apiserver', type: 'LoadBalancer', ingress: [] }] }));
    const lines = text(state).split('\n');
    const at = lines.findIndex((l) => l.startsWith('* API Server Service'));
    expect(lines[at]).toBe('* API Server Service... Pending (no external IP or hostname) ‼');
    expect(lines[at + 1]).toMatch(
      /still Pending after a few minutes, check whether kind-cp has a working ingress controller \/ load balancer/,
    );
    // A hostname serves as well as an IP
    const named = withHosting(healthy(), (ns) => ({
      ...ns,
      services: [{ name: 'apiserver', type: 'LoadBalancer', ingress: ['nova.example.com'] }],
    }));
    expect(text(named)).toContain('* API Server Service... nova.example.com √');
  });

  it('certificates: ‼ within 30 days naming the secret and key, ✗ once expired, ‼ when none are found', () => {
    // Given one certificate expiring in 10 days
    const soon = withHosting(healthy(), (ns) => ({
      ...ns,
      certs: [...ns.certs, { secret: 'etcd-certs', key: 'peer.crt', subject: 'CN=etcd-peer', notAfter: NOW + 10 * DAY + 60_000 }],
    }));
    expect(text(soon)).toContain('* Control plane certificates... etcd-certs/peer.crt (CN=etcd-peer) expires in 10 days (2026-06-11) ‼');
    expect(item(soon, 'nova/certificates').hint).toMatch(/^renew them: fleetdeck certs renew/);
    // --warn-days 5: ten days left is fine; --warn-days 60: the 3649 days are not flagged, the ten are
    const warn5 = { ...soon, certs: { ...soon.certs, warnDays: 5 } };
    expect(item(warn5, 'nova/certificates')).toMatchObject({ state: 'ok', detail: 'valid for 10 days' });
    expect(item({ ...soon, certs: { ...soon.certs, warnDays: 60 } }, 'nova/certificates').state).toBe('warn');

    // Given two expired ones
    const expired = withHosting(healthy(), (ns) => ({
      ...ns,
      certs: [
        ...ns.certs,
        { secret: 'etcd-certs', key: 'peer.crt', subject: 'CN=etcd-peer', notAfter: NOW - 2 * DAY },
        { secret: 'etcd-certs', key: 'server.crt', subject: 'CN=etcd', notAfter: NOW - DAY },
      ],
    }));
    expect(text(expired)).toContain(
      '* Control plane certificates... etcd-certs/peer.crt (CN=etcd-peer) expired on 2026-05-30 (+1 more expired) ✗',
    );
    expect(fleetHealthy(expired, NOW)).toBe(false);

    // Given none
    const none = withHosting(healthy(), (ns) => ({ ...ns, certs: [] }));
    expect(item(none, 'nova/certificates')).toMatchObject({ state: 'warn', detail: 'none found' });

    // Given Secrets that cannot be read
    const forbidden = withHosting(healthy(), (ns) => ({
      ...ns,
      certs: [],
      secretsForbidden: 'cannot list secrets in namespace elotl: HTTP 403: forbidden (needs list and watch on secrets)',
    }));
    expect(item(forbidden, 'nova/certificates')).toMatchObject({
      state: 'warn',
      unknown: true,
      detail: expect.stringMatching(/^cannot check: cannot list secrets/),
    });
    // A check that could not be made leaves the fleet not known healthy: status exits 1.
    expect(fleetHealthy(healthy(), NOW)).toBe(true);
    expect(fleetHealthy(forbidden, NOW)).toBe(false);
    // An ordinary warning does not.
    expect(fleetHealthy(none, NOW)).toBe(true);
  });

  it('a missing CRD fails with the create command for the control plane context', () => {
    const state = withControlPlane(healthy(), (cp) => ({ ...cp, crds: { ...cp.crds, scheduleGroup: false } }));
    const lines = text(state).split('\n');
    expect(lines).toContain('* ScheduleGroup CRD presence... not installed ✗');
    expect(lines).toContain(
      '  install them: kubectl --context=nova create -f install/base/control-plane/nova_crds.yaml (or fleetdeck install)',
    );
    expect(lines).toContain('Not all Nova Custom Resource Definitions are installed ✗');
  });

  it('no Cluster CRD: no Cluster lines, and the agents cannot be registered', () => {
    const state = withControlPlane(healthy(), (cp) => ({ ...cp, crds: { ...cp.crds, cluster: false }, clusters: [] }));
    const lines = text(state).split('\n');
    expect(lines).toContain('* Cluster CRD presence... not installed ✗');
    expect(lines.some((l) => l.includes('workload clusters connected'))).toBe(false);
    expect(item(state, 'agent/kind-workload-1')).toMatchObject({ state: 'fail', detail: '1/1 ready, not registered (no Cluster CRD)' });
  });

  it('a Cluster that is not Ready shows its conditions', () => {
    const state = withControlPlane(healthy(), (cp) => ({
      ...cp,
      clusters: cp.clusters.map((c) => (c.name === 'kind-workload-2' ? { ...c, ready: 'False', idle: undefined } : c)),
    }));
    const lines = text(state).split('\n');
    expect(lines).toContain('* Cluster kind-workload-2... connected, not ready (Ready=False, Idle=unknown, Standby=False) ✗');
    expect(lines).toContain("  look at the agent's log: kubectl logs --context=kind-workload-2 -n elotl deployment/nova-agent");
    expect(item(state, 'agent/kind-workload-2')).toMatchObject({ state: 'fail', detail: '1/1 ready, registered, Ready=False' });
  });

  it('workload agent missing, or not ready', () => {
    // Given no agent Deployment in kind-workload-2
    const missing = withContext(healthy(), 'kind-workload-2', (c) => ({
      ...c,
      fleetNamespace: { ...agentNamespace(), workloads: [], pods: [] },
    }));
    const agent = item(missing, 'agent/kind-workload-2');
    expect(agent).toMatchObject({ state: 'fail', detail: 'no nova-agent Deployment in elotl, registered, Ready' });
    expect(agent.hint).toContain('novactl install agent kind-workload-2');

    // Given no namespace at all
    const noNs = withContext(healthy(), 'kind-workload-2', (c) => ({
      ...c,
      fleetNamespace: { ...agentNamespace(), exists: false, workloads: [], pods: [] },
    }));
    expect(item(noNs, 'agent/kind-workload-2')).toMatchObject({
      state: 'fail',
      detail: 'no agent (namespace elotl not found), registered, Ready',
    });

    // Given an agent that crashes
    const crashing = withContext(healthy(), 'kind-workload-1', (c) => ({ ...c, fleetNamespace: agentNamespace(0) }));
    const a = item(crashing, 'agent/kind-workload-1');
    expect(a).toMatchObject({ state: 'fail', detail: '0/1 ready (CrashLoopBackOff), registered, Ready' });
    expect(a.hint).toBe('see why it exits: kubectl --context=kind-workload-1 -n elotl logs nova-agent-7d9f-abcde --previous');
  });

  it('version skew between workload clusters is a warning listing them', () => {
    const state = withContext(healthy(), 'kind-workload-2', (c) => ({ ...c, version: 'v1.25.3' }));
    const v = item(state, 'workloads/versions');
    expect(v).toMatchObject({ state: 'warn', detail: 'v1.20 (kind-workload-1), v1.25 (kind-workload-2)' });
    expect(v.hint).toContain('same Kubernetes minor version');
    expect(fleetHealthy(state, NOW)).toBe(true);
  });

  it('an unreachable hosting context gives no √ for what it hosts, and says since when', () => {
    // Given the hosting context went away (its last summary is still in the store)
    const state = withContext(healthy(), 'kind-cp', (c) => ({
      ...c,
      reachability: 'unreachable',
      lastError: 'connection refused',
      unreachableSince: NOW - 60_000,
    }));

    // When checked
    const items = fleetChecklist(state, NOW);

    // Then nothing it hosts is ok, each says why
    const hosted = items.filter(
      (i) => i.id.startsWith('nova/') && i.state !== 'info' && !i.id.startsWith('nova/cluster') && i.id !== 'nova/schedulepolicies',
    );
    expect(hosted.map((i) => i.id)).toEqual([
      'nova/apiserver',
      'nova/controller-manager',
      'nova/etcd',
      'nova/nova-scheduler',
      'nova/healthy',
      'nova/apiserver-service',
      'nova/certificates',
    ]);
    expect(hosted.every((i) => i.state === 'fail')).toBe(true);
    expect(item(state, 'nova/apiserver').detail).toMatch(/^unknown: kind-cp unreachable since \d\d:\d\d:\d\d \(connection refused\)$/);
    expect(item(state, 'nova/apiserver').hint).toContain('kubectl --context=kind-cp get --raw /readyz');
    expect(item(state, 'nova/healthy')).toMatchObject({ label: 'Nova Control Plane health is unknown', state: 'fail' });
    expect(fleetHealthy(state, NOW)).toBe(false);
  });

  it('an unreachable control plane: CRDs unknown, agents not √ (registration unknown)', () => {
    const state = withContext(healthy(), 'nova', (c) => ({
      ...c,
      reachability: 'unreachable',
      lastError: 'timed out',
      unreachableSince: NOW,
    }));
    const items = fleetChecklist(state, NOW);
    expect(noOk(items, 'crd/')).toBe(true);
    expect(noOk(items, 'agent/')).toBe(true);
    expect(items.some((i) => i.id.startsWith('nova/cluster/'))).toBe(false);
    expect(item(state, 'agent/kind-workload-1')).toMatchObject({
      state: 'warn',
      detail: expect.stringMatching(/^1\/1 ready, registration unknown \(nova unreachable since/),
    });
  });

  it('a control plane context missing from the kubeconfig: the install writes it', () => {
    const base = healthy();
    const { nova: _gone, ...contexts } = base.status.contexts;
    const state: FleetState = { ...base, status: { ...base.status, contexts, order: base.status.order.filter((n) => n !== 'nova') } };
    const cluster = item(state, 'crd/cluster');
    expect(cluster).toMatchObject({ state: 'fail', detail: 'unknown: context nova is not in the kubeconfig' });
    expect(cluster.hint).toContain('kubectl nova --context=kind-cp get kubeconfig -n elotl');
    expect(fleetHealthy(state, NOW)).toBe(false);
  });

  it('contexts still connecting or loading are pending, never √', () => {
    const connecting = withContext(healthy(), 'kind-cp', (c) => ({ ...c, reachability: 'unknown', fleetNamespace: undefined }));
    expect(item(connecting, 'nova/apiserver')).toMatchObject({ state: 'pending', detail: 'connecting to kind-cp…' });
    expect(item(connecting, 'nova/healthy').state).toBe('pending');

    const loading = withContext(healthy(), 'nova', (c) => ({ ...c, controlPlane: { ...c.controlPlane!, synced: false } }));
    expect(item(loading, 'crd/cluster')).toMatchObject({ state: 'pending', detail: 'loading…' });
    expect(noOk(fleetChecklist(loading, NOW), 'crd/')).toBe(true);
    expect(fleetHealthy(loading, NOW)).toBe(false);
  });

  it('forbidden lists: "cannot check" with the message, no √', () => {
    const message = 'cannot list pods in namespace elotl: HTTP 403: pods is forbidden (needs list and watch on pods)';
    const state = withHosting(healthy(), (ns) => ({ ...ns, pods: [], forbidden: message }));
    const api = item(state, 'nova/apiserver');
    expect(api).toMatchObject({ state: 'warn', detail: `cannot check: ${message}` });
    expect(item(state, 'nova/healthy')).toMatchObject({ state: 'warn', label: 'Nova Control Plane health cannot be checked' });
    // Services were listed: that row still answers
    expect(item(state, 'nova/apiserver-service').state).toBe('ok');

    const crds = withControlPlane(healthy(), (cp) => ({
      ...cp,
      forbidden: 'cannot list customresourcedefinitions: HTTP 403: forbidden (needs list and watch on customresourcedefinitions)',
      crds: { cluster: true, schedulePolicy: false, scheduleGroup: false },
    }));
    // The Clusters could be listed, so their CRD is evidently there; ScheduleGroups cannot be told
    expect(item(crds, 'crd/cluster')).toMatchObject({ state: 'ok', detail: 'installed' });
    expect(item(crds, 'crd/scheduleGroup')).toMatchObject({
      state: 'warn',
      detail: expect.stringMatching(/^cannot check: cannot list customresourcedefinitions/),
    });
  });

  it('the hosting namespace does not exist: not installed', () => {
    const state = withHosting(healthy(), (ns) => ({ ...ns, exists: false, workloads: [], pods: [], services: [], certs: [] }));
    expect(item(state, 'nova/apiserver')).toMatchObject({ state: 'fail', detail: 'not installed (namespace elotl not found in kind-cp)' });
    expect(item(state, 'nova/healthy')).toMatchObject({ label: 'Nova Control Plane is not installed', state: 'fail' });
  });

  it('without a fleet: one warning saying how to define one', () => {
    const { fleet: _none, ...state } = healthy();
    const items = fleetChecklist(state, NOW);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ state: 'warn', label: 'No fleet defined' });
    for (const flag of ['fleetdeck install', '--hosting-context', '--control-plane-context', '--namespace', '--context', fleetFilePath()]) {
      expect(items[0]!.hint).toContain(flag);
    }
  });
});

describe('Cluster table and text report', () => {
  it('has the columns of `kubectl get clusters`', () => {
    expect(novaClustersTable(healthy())).toEqual([
      ['NAME', 'K8S-VERSION', 'K8S-CLUSTER', 'REGION', 'ZONE', 'READY', 'IDLE', 'STANDBY'],
      ['kind-workload-1', '1.20', 'workload-1', '', '', 'True', 'True', 'False'],
      ['kind-workload-2', '1.20', 'workload-2', '', '', 'True', 'True', 'False'],
    ]);
  });

  it('prints the fleet checklist, the table, then the contexts', () => {
    const out = statusText(healthy(), { ascii: false }, NOW).split('\n');
    expect(out[0]).toBe('Checking status of Nova Control Plane Components');
    const header = out.findIndex((l) => l.startsWith('NAME'));
    expect(out[header]).toBe('NAME              K8S-VERSION   K8S-CLUSTER   REGION   ZONE   READY   IDLE   STANDBY');
    expect(out[header + 1]).toBe('kind-workload-1   1.20          workload-1                    True    True   False');
    expect(out[header - 1]).toBe('');
    expect(out.indexOf('Checking contexts')).toBeGreaterThan(header);
  });
});
