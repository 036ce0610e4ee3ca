import { describe, expect, it } from 'vitest';
import { contextCheck, fleetHealthy, statusChecks, statusJson } from '../../src/report/status.js';
import { contextChecks, settled } from '../../src/store/selectors.js';
import { formatChecklist } from '../../src/checklist/checklist.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../src/store/status.js';
import { emptyPods } from '../../src/kube/pods/pods.js';
import type { FleetConfig } from '../../src/kube/fleet/fleet.js';
import type { NodeSummary } from '../../src/kube/nodes/nodes.js';

const info = (name: string) => ({ name, cluster: `${name}-cluster`, user: 'admin', server: `https://${name}:6443` });
const node = (name: string, ready = true, zone = 'zone-a'): NodeSummary => ({
  name,
  uid: name,
  ready,
  unschedulable: false,
  roles: ['worker'],
  zone,
  kubeletVersion: 'v1.20.2',
  ...(ready ? {} : { notReadyReason: 'KubeletNotReady' }),
});

function fleet() {
  const store = createFleetStore([info('kind-cp'), info('kind-workload-1'), info('kind-workload-2')]);
  const b = new UpdateBatcher(store, -1);
  b.patchContext('kind-cp', {
    reachability: 'reachable',
    version: 'v1.20.2',
    latencyMs: 3,
    evictionVersion: 'policy/v1beta1',
    lastSuccessAt: 0,
  });
  b.resetNodes('kind-cp', [node('a'), node('b', true, 'zone-b')]);
  b.setSlice('kind-cp', 'pods', {
    ...emptyPods(),
    synced: true,
    total: 3,
    byPhase: { Pending: 1, Running: 2, Succeeded: 0, Failed: 0, Unknown: 0 },
    problems: [{ namespace: 'elotl', name: 'etcd-0', phase: 'Pending', reason: 'Unschedulable: 0/2 nodes are available', restarts: 0 }],
    problemCount: 1,
  });
  b.setSlice('kind-cp', 'events', {
    synced: true,
    warnings: [
      {
        reason: 'FailedScheduling',
        message: '0/2 nodes are available',
        object: 'Pod elotl/etcd-0',
        namespace: 'elotl',
        count: 3,
        lastSeen: 0,
      },
    ],
  });
  b.patchContext('kind-workload-1', { reachability: 'reachable', version: 'v1.20.2', latencyMs: 5 });
  b.resetNodes('kind-workload-1', [node('c'), node('d', false)]);
  b.patchContext('kind-workload-2', {
    reachability: 'unreachable',
    lastError: 'connection refused',
    unreachableSince: Date.UTC(2026, 0, 1),
  });
  b.flush();
  return store.getState();
}

describe('status report', () => {
  it('JSON has the documented shape', () => {
    const json = statusJson(fleet());
    // Without a fleet: no fleet, the checklist says how to define one, no Clusters
    expect(json.fleet).toBeNull();
    expect(json.checklist).toEqual([expect.objectContaining({ id: 'fleet/none', state: 'warn', label: 'No fleet defined' })]);
    expect(json.clusters).toEqual([]);
    expect(json.contexts.map((c) => c.name)).toEqual(['kind-cp', 'kind-workload-1', 'kind-workload-2']);
    expect(json.contexts[0]).toEqual({
      name: 'kind-cp',
      cluster: 'kind-cp-cluster',
      server: 'https://kind-cp:6443',
      user: 'admin',
      reachable: true,
      reachability: 'reachable',
      version: 'v1.20.2',
      latencyMs: 3,
      error: null,
      lastSuccessAt: '1970-01-01T00:00:00.000Z',
      unreachableSince: null,
      serverNotReady: null,
      serverNotReadySince: null,
      evictionVersion: 'policy/v1beta1',
      nodes: {
        ready: 2,
        total: 2,
        cordoned: 0,
        notReady: [],
        byZone: { 'zone-a': { ready: 1, total: 1 }, 'zone-b': { ready: 1, total: 1 } },
        forbidden: null,
        items: [node('a'), node('b', true, 'zone-b')],
      },
      pods: {
        total: 3,
        byPhase: { Pending: 1, Running: 2, Succeeded: 0, Failed: 0, Unknown: 0 },
        problemCount: 1,
        problems: [{ namespace: 'elotl', name: 'etcd-0', phase: 'Pending', reason: 'Unschedulable: 0/2 nodes are available', restarts: 0 }],
        forbidden: null,
      },
      events: {
        warnings: [
          {
            reason: 'FailedScheduling',
            message: '0/2 nodes are available',
            object: 'Pod elotl/etcd-0',
            namespace: 'elotl',
            count: 3,
            lastSeen: 0,
          },
        ],
        forbidden: null,
      },
      kubeletVersions: [{ version: 'v1.20.2', count: 2 }],
      kubeletSkew: [],
    });
    // Not listed yet: null, not zeros
    expect(json.contexts[1]).toMatchObject({ pods: null, events: null, kubeletVersions: [{ version: 'v1.20.2', count: 2 }] });
    expect(json.contexts[2]).toMatchObject({
      reachable: false,
      error: 'connection refused',
      unreachableSince: '2026-01-01T00:00:00.000Z',
      nodes: null,
      pods: null,
    });
    // Survives JSON
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('text reads like the Nova status checklist', () => {
    const text = formatChecklist(statusChecks(fleet()), { ascii: false });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Checking contexts');
    expect(lines[1]).toBe('* Context kind-cp... reachable, v1.20.2, 3 ms, 2/2 nodes Ready √');
    expect(lines[2]).toBe('* Context kind-workload-1... reachable, v1.20.2, 5 ms, 1/2 nodes Ready ‼');
    expect(lines[3]).toBe('  NotReady: d (KubeletNotReady)');
    expect(lines[4]).toMatch(
      /^\* Context kind-workload-2 \(https:\/\/kind-workload-2:6443\)\.\.\. unreachable since \d\d:\d\d:\d\d \(connection refused\) ✗$/,
    );
    expect(lines.at(-1)).toMatch(/^2 of 3 contexts reachable at \d\d:\d\d:\d\d ✗$/);
  });

  it('a context whose credentials cannot be loaded says so, with a hint about its kubeconfig user, not the API server', () => {
    // Given a context whose token file is missing, and one whose credential plugin is not installed
    const store = createFleetStore([info('ci'), info('sso')]);
    const b = new UpdateBatcher(store, -1);
    const missing = 'cannot read the token file of user "admin": open /etc/ci/token: no such file or directory';
    b.patchContext('ci', { reachability: 'credentials', lastError: missing });
    b.patchContext('sso', {
      reachability: 'credentials',
      lastError: 'exec plugin of user "admin": getting credentials: exec: executable sso-login not found; …',
      hint: 'install sso-login, the credential plugin of user "admin", or put it on PATH, or fix the command in the kubeconfig',
    });
    b.flush();
    const state = store.getState();
    // Then the text line says "credentials" and what failed, the hint names the user
    const ci = contextCheck(state.status.contexts.ci!);
    expect(ci).toMatchObject({ state: 'fail', detail: `credentials: ${missing}` });
    expect(ci.hint).toBe(
      'fix user "admin" of context ci in the kubeconfig (what it names must exist and be valid); kubectl --context ci get --raw /version fails the same way',
    );
    expect(contextCheck(state.status.contexts.sso!).hint).toMatch(/^install sso-login, the credential plugin of user "admin"/);
    expect(formatChecklist([ci], { ascii: false })).not.toContain('API server is up');
    // And JSON has the state of its own
    expect(statusJson(state).contexts[0]).toMatchObject({ reachable: false, reachability: 'credentials', error: missing, user: 'admin' });
    expect(fleetHealthy(state)).toBe(false);
  });

  it('a reachable server that is not ready (etcd down) fails its line, says why, and makes the fleet unhealthy', () => {
    const store = createFleetStore([info('cp')]);
    const b = new UpdateBatcher(store, -1);
    b.patchContext('cp', { reachability: 'reachable', version: 'v1.20.2', latencyMs: 1, notReady: 'etcd failed', notReadySince: 0 });
    b.resetNodes('cp', [node('a')]);
    b.flush();
    const c = store.getState().status.contexts.cp!;
    const item = contextCheck(c);
    expect(item.state).toBe('fail');
    expect(item.detail).toMatch(/^reachable but not ready since \d\d:\d\d:\d\d \(etcd failed\)$/);
    expect(item.hint).toContain("kubectl --context cp get --raw '/readyz?verbose'");
    // Its lists would only time out: a one-shot status does not wait for them.
    expect(settled(c)).toBe(true);
    expect(fleetHealthy(store.getState())).toBe(false);
    expect(statusJson(store.getState()).contexts[0]).toMatchObject({
      reachable: true,
      serverNotReady: 'etcd failed',
      serverNotReadySince: '1970-01-01T00:00:00.000Z',
    });
    const lines = formatChecklist(statusChecks(store.getState()), { ascii: true }).split('\n');
    expect(lines.at(-1)).toMatch(/^1 of 1 contexts reachable \(1 not ready\) at \d\d:\d\d:\d\d \[xx\]$/);
    // Ready again: the line is the usual one.
    b.patchContext('cp', { notReady: undefined, notReadySince: undefined });
    b.flush();
    expect(contextCheck(store.getState().status.contexts.cp!).state).toBe('ok');
    expect(fleetHealthy(store.getState())).toBe(true);
  });

  it('a forbidden node list is a warning that names the missing permission', () => {
    const store = createFleetStore([info('ro')]);
    const b = new UpdateBatcher(store, -1);
    b.patchContext('ro', { reachability: 'reachable', version: 'v1.20.2', latencyMs: 1 });
    b.nodesForbidden('ro', 'cannot list nodes: HTTP 403: forbidden (needs get/list/watch on nodes)');
    b.flush();
    const item = contextCheck(store.getState().status.contexts.ro!);
    expect(item.state).toBe('warn');
    expect(item.hint).toContain('needs get/list/watch on nodes');
  });

  it('with a fleet: the JSON carries it, its checklist and Clusters; the text starts with the fleet', () => {
    const fleetConfig: FleetConfig = {
      hostingContext: 'kind-cp',
      controlPlaneContext: 'kind-cp',
      namespace: 'elotl',
      workloads: [{ context: 'kind-workload-1', clusterName: 'kind-workload-1' }],
    };
    const store = createFleetStore([info('kind-cp'), info('kind-workload-1')], fleetConfig);
    const b = new UpdateBatcher(store, -1);
    b.patchContext('kind-cp', { reachability: 'reachable', version: 'v1.20.2', latencyMs: 3 });
    b.patchContext('kind-workload-1', { reachability: 'reachable', version: 'v1.20.2', latencyMs: 3 });
    b.resetNodes('kind-cp', [node('a')]);
    b.resetNodes('kind-workload-1', [node('b')]);
    b.flush();
    const cp = () => store.getState().status.contexts['kind-cp']!;
    // Nodes are in, pods and events are not: not settled, fleet or not
    expect(settled(cp())).toBe(false);
    b.setSlice('kind-cp', 'pods', { ...emptyPods(), synced: true });
    b.setSlice('kind-cp', 'events', { synced: false, forbidden: 'cannot list events: HTTP 403', warnings: [] });
    b.flush();
    // Pods listed, events forbidden (an answer too), the fleet slices not yet
    expect(settled(cp(), fleetConfig)).toBe(false);
    expect(settled(cp())).toBe(true);
    b.setSlice('kind-cp', 'controlPlane', {
      synced: true,
      crds: { cluster: true, schedulePolicy: true, scheduleGroup: true },
      clusters: [{ name: 'kind-workload-1', k8sVersion: '1.20', ready: 'True', idle: 'True', standby: 'False' }],
      schedulePolicies: 1,
    });
    b.setSlice('kind-cp', 'fleetNamespace', {
      synced: false,
      namespace: 'elotl',
      exists: true,
      workloads: [],
      pods: [],
      services: [],
      certs: [],
    });
    b.flush();
    expect(settled(cp(), fleetConfig)).toBe(false);
    expect(fleetHealthy(store.getState())).toBe(false); // pending rows are not healthy
    b.setSlice('kind-cp', 'fleetNamespace', {
      synced: true,
      namespace: 'elotl',
      exists: true,
      workloads: [],
      pods: [],
      services: [],
      certs: [],
    });
    b.flush();
    expect(settled(cp(), fleetConfig)).toBe(true);

    const json = statusJson(store.getState());
    expect(json.fleet).toEqual(fleetConfig);
    expect(json.clusters).toEqual([
      { name: 'kind-workload-1', k8sVersion: '1.20', ready: 'True', idle: 'True', standby: 'False', workloads: null },
    ]);
    expect(json.checklist[0]).toEqual({ id: 'nova/title', label: 'Checking status of Nova Control Plane Components', state: 'info' });
    expect(json.checklist.find((i) => i.id === 'nova/apiserver')).toMatchObject({ state: 'fail', detail: 'not found' });
    expect(fleetHealthy(store.getState())).toBe(false);

    const lines = formatChecklist(statusChecks(store.getState())).split('\n');
    expect(lines[0]).toBe('Checking status of Nova Control Plane Components');
    expect(lines).toContain('* Cluster kind-workload-1 connected and ready √');
    expect(lines).toContain('* 1 SchedulePolicy defined √');
    expect(lines.indexOf('Checking contexts')).toBeGreaterThan(lines.indexOf('Checking workload clusters'));
  });
});

describe('a context without nodes', () => {
  function withoutNodes() {
    const store = createFleetStore([info('nova'), info('empty')], {
      hostingContext: 'kind-cp',
      controlPlaneContext: 'nova',
      namespace: 'elotl',
      workloads: [],
    });
    const b = new UpdateBatcher(store, -1);
    for (const name of ['nova', 'empty']) {
      b.patchContext(name, { reachability: 'reachable', version: 'v1.20.2', latencyMs: 3 });
      b.resetNodes(name, []);
    }
    b.flush();
    return store.getState();
  }

  it('is a warning for a cluster, but expected of the control plane (its workloads run elsewhere)', () => {
    const s = withoutNodes();
    expect(contextCheck(s.status.contexts.nova!, s.fleet)).toMatchObject({
      state: 'ok',
      detail: 'reachable, v1.20.2, 3 ms, 0/0 nodes Ready',
    });
    expect(contextCheck(s.status.contexts.nova!, s.fleet).hint).toBeUndefined();
    expect(contextCheck(s.status.contexts.empty!, s.fleet)).toMatchObject({
      state: 'warn',
      hint: 'the cluster has no nodes: nothing can be scheduled on it',
    });
    // Without the fleet nothing says which context is the control plane's.
    expect(contextCheck(s.status.contexts.nova!)).toMatchObject({ state: 'warn' });
  });

  it("the detail screen's checks agree with the report: ok for the control plane, a warning elsewhere", () => {
    const s = withoutNodes();
    const nodes = (name: string) => contextChecks(s.status.contexts[name]!, s.fleet).find((i) => i.id === 'nodes');
    expect(nodes('nova')).toMatchObject({ state: 'ok', detail: '0/0' });
    expect(nodes('nova')!.hint).toBeUndefined();
    expect(nodes('empty')).toMatchObject({
      state: 'warn',
      detail: '0/0',
      hint: 'the cluster has no nodes: nothing can be scheduled on it',
    });
    for (const name of ['nova', 'empty']) {
      expect(nodes(name)!.state).toBe(contextCheck(s.status.contexts[name]!, s.fleet).state);
    }
    expect(formatChecklist(statusChecks(s)).split('\n')).toContain('* Context nova... reachable, v1.20.2, 3 ms, 0/0 nodes Ready √');
  });
});
