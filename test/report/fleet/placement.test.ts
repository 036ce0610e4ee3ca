import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../../src/kube/api/api-resources.js';
import type { ControlPlaneSummary } from '../../../src/kube/fleet/control-plane.js';
import { novaClusters, novaClustersTable } from '../../../src/report/fleet-checklist.js';
import { placedCounts, placementItems, placementRows, worstPending } from '../../../src/report/fleet/placement.js';
import { statusText } from '../../../src/report/status.js';
import { healthy, item, NOW, withControlPlane } from '../fleet-checklist-fixture.js';

const GiB = 2 ** 30;

function clusterObject(name: string, freeCpu: string, labels: Record<string, string> = {}): ApiObject {
  return {
    apiVersion: 'cluster.elotl.co/v1alpha1',
    kind: 'Cluster',
    metadata: { name, labels },
    status: {
      conditions: [{ type: 'Ready', status: 'True' }],
      capacityResources: { [`${name}-n1`]: { cpu: '4', memory: String(8 * GiB) } },
      availableResources: { [`${name}-n1`]: { cpu: freeCpu, memory: String(6 * GiB) } },
    },
  };
}

function deployment(name: string, ns: string, cpu: string, labels: Record<string, string> = {}): ApiObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu, memory: '64Mi' } } }] } },
    },
  };
}

const namespace = (name: string): ApiObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const policy: ApiObject = {
  apiVersion: 'policy.elotl.co/v1alpha1',
  kind: 'SchedulePolicy',
  metadata: { name: 'team-a', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } }, clusterSelector: {} },
};
const refusal: ApiObject = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'big.1', namespace: 'team-a' },
  reason: 'NoClusterFits',
  message: 'no cluster fits: Cluster w1 skipped, short of 6 CPU',
  involvedObject: { kind: 'Deployment', namespace: 'team-a', name: 'big' },
  lastTimestamp: '2026-06-01T11:00:00Z',
};

/** A control plane: web and api placed on w1, db on w2, big refused for room, a ConfigMap no policy matches. */
function controlPlane(): ControlPlaneSummary {
  const target = (c: string) => ({ 'nova.elotl.co/target-cluster': c });
  return {
    synced: true,
    crds: { cluster: true, schedulePolicy: true, scheduleGroup: true },
    clusters: [
      { name: 'w1', ready: 'True', cpu: { available: 500, allocatable: 4000 }, memory: { available: 6 * GiB, allocatable: 8 * GiB } },
      { name: 'w2', ready: 'True' },
    ],
    schedulePolicies: 1,
    placement: {
      synced: true,
      clusters: [clusterObject('w1', '500m'), clusterObject('w2', '3')],
      policies: [policy],
      namespaces: [namespace('team-a'), namespace('team-b')],
      objects: [
        deployment('web', 'team-a', '100m', target('w1')),
        deployment('api', 'team-a', '100m', target('w1')),
        deployment('db', 'team-a', '100m', target('w2')),
        deployment('big', 'team-a', '6'),
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'team-b' } },
      ],
      refusals: [refusal],
    },
  };
}

describe('Placement in the fleet overview', () => {
  it('counts the workloads each cluster is a target of', () => {
    const rows = placementRows(controlPlane())!;
    expect(rows).toHaveLength(5);
    expect(Object.fromEntries(placedCounts(rows))).toEqual({ w1: 2, w2: 1 });
  });

  it('names the pending workload with the worst reason: a refusal for room before a missing policy', () => {
    const worst = worstPending(placementRows(controlPlane())!)!;
    expect(`${worst.kind} ${worst.name}: ${worst.reason}`).toBe('Deployment big: no cluster fits: Cluster w1 skipped, short of 6 CPU');
    const items = placementItems(controlPlane(), 'nova');
    expect(items.map((i) => [i.label, i.state, i.detail ?? null])).toEqual([
      ['Checking workload placement', 'info', null],
      ['3 workloads placed on 2 clusters', 'ok', null],
      ['2 workloads pending', 'warn', 'worst: Deployment team-a/big: no cluster fits: Cluster w1 skipped, short of 6 CPU'],
    ]);
    expect(items[2]!.hint).toBe('see why: fleetdeck explain deployment/big -n team-a; all of them: fleetdeck workloads --pending');
  });

  it('without a refusal Event, a workload no policy matches is the worst', () => {
    const cp = controlPlane();
    cp.placement = { ...cp.placement!, refusals: [], objects: cp.placement!.objects.filter((o) => o.metadata.name !== 'big') };
    expect(placementItems(cp, 'nova')[2]!.detail).toBe(
      'worst: ConfigMap team-b/settings: no SchedulePolicy matches it and it has no nova.elotl.co/cluster annotation',
    );
  });

  it('says loading until every list is in, and what it may not read', () => {
    const cp = controlPlane();
    expect(placementItems({ ...cp, placement: { ...cp.placement!, synced: false } }, 'nova')[1]).toMatchObject({ state: 'pending' });
    const denied = placementItems({ ...cp, placement: { ...cp.placement!, forbidden: 'cannot list deployments.apps: HTTP 403' } }, 'nova');
    expect(denied[1]).toMatchObject({ state: 'warn', unknown: true, detail: 'cannot check: cannot list deployments.apps: HTTP 403' });
    const many =
      'cannot list deployments.apps: HTTP 403: no (needs list and watch on deployments.apps); cannot list namespaces: HTTP 403: no (needs list and watch on namespaces)';
    expect(placementItems({ ...cp, placement: { ...cp.placement!, forbidden: many } }, 'nova')[1]!.detail).toBe(
      'cannot check: cannot list deployments.apps, namespaces (needs list and watch on each)',
    );
    const viewer = placementItems({ ...cp, placement: { ...cp.placement!, leftOut: ['secrets'] } }, 'nova');
    expect(viewer[1]!.detail).toBe('secrets not counted: the user may not list them');
    expect(placementItems({ ...cp, placement: undefined }, 'nova')).toEqual([]);
  });

  it('is a section of the fleet checklist, and the Clusters table shows room and workloads', () => {
    const state = withControlPlane(healthy(), () => controlPlane());
    expect(item(state, 'placement/pending').label).toBe('2 workloads pending');
    expect(novaClusters(state).map((c) => [c.name, c.workloads])).toEqual([
      ['w1', 2],
      ['w2', 1],
    ]);
    const table = novaClustersTable(state);
    expect(table[0]!.slice(-3)).toEqual(['CPU-FREE', 'MEM-FREE', 'WORKLOADS']);
    expect(table[1]!.slice(-3)).toEqual(['0.5/4', '6/8Gi', '2']);
    expect(table[2]!.slice(-3)).toEqual(['', '', '1']);
    const text = statusText(state, { ascii: false }, NOW);
    expect(text).toContain('2 workloads pending');
    expect(text.split('\n').find((l) => l.startsWith('w1'))).toMatch(/0\.5\/4\s+6\/8Gi\s+2$/);
  });

  it('before the lists are in, no count is claimed', () => {
    const state = withControlPlane(healthy(), () => ({ ...controlPlane(), placement: { ...controlPlane().placement!, synced: false } }));
    expect(novaClusters(state).map((c) => c.workloads)).toEqual([null, null]);
  });
});
