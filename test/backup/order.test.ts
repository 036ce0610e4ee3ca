import { describe, expect, it } from 'vitest';
import { phaseOf, restoreOrder } from '../../src/backup/order.js';
import { backedUp, isCustomGroup } from '../../src/backup/select.js';
import type { ApiObject } from '../../src/kube/api/api-resources.js';

const o = (apiVersion: string, kind: string, name: string, namespace?: string): ApiObject => ({
  apiVersion,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
});

describe('restoreOrder: each object after what it needs', () => {
  it('CRDs, namespaces, identities and roles before bindings, config, the other kinds, custom resources last', () => {
    const given = [
      o('policy.elotl.co/v1alpha1', 'SchedulePolicy', 'p1', 'team-a'),
      o('apps/v1', 'Deployment', 'web', 'team-a'),
      o('rbac.authorization.k8s.io/v1', 'RoleBinding', 'rb', 'team-a'),
      o('v1', 'Secret', 's', 'team-a'),
      o('cluster.elotl.co/v1alpha1', 'Cluster', 'c1'),
      o('v1', 'Namespace', 'team-b'),
      o('rbac.authorization.k8s.io/v1', 'ClusterRole', 'reader'),
      o('v1', 'ConfigMap', 'cfg', 'team-a'),
      o('v1', 'ServiceAccount', 'bot', 'team-a'),
      o('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'widgets.example.com'),
      o('v1', 'Namespace', 'team-a'),
      o('v1', 'Service', 'web', 'team-a'),
    ];
    expect(restoreOrder(given).map((x) => `${x.kind} ${x.metadata.name}`)).toEqual([
      'CustomResourceDefinition widgets.example.com',
      'Namespace team-a',
      'Namespace team-b',
      'ServiceAccount bot',
      'ClusterRole reader',
      'RoleBinding rb',
      'ConfigMap cfg',
      'Secret s',
      'Deployment web',
      'Service web',
      'Cluster c1',
      'SchedulePolicy p1',
    ]);
    // The input keeps its order.
    expect(given[0]!.kind).toBe('SchedulePolicy');
  });

  it('phases by group: policy/v1 is Kubernetes, policy.elotl.co is custom', () => {
    expect(phaseOf(o('policy/v1', 'PodDisruptionBudget', 'x', 'a'))).toBe('workloads');
    expect(phaseOf(o('policy.elotl.co/v1alpha1', 'ScheduleGroup', 'x', 'a'))).toBe('custom');
    expect(phaseOf(o('networking.k8s.io/v1', 'Ingress', 'x', 'a'))).toBe('workloads');
    expect(isCustomGroup('snapshot.storage.k8s.io')).toBe(false);
    expect(isCustomGroup('metrics.kubernetes.io')).toBe(false);
    expect(isCustomGroup('cluster.elotl.co')).toBe(true);
  });
});

describe('backedUp: Nova supported kinds, CRDs and custom resources; not the server bookkeeping', () => {
  it.each([
    ['', 'configmaps', true],
    ['apps', 'deployments', true],
    ['rbac.authorization.k8s.io', 'rolebindings', true],
    ['apiextensions.k8s.io', 'customresourcedefinitions', true],
    ['policy.elotl.co', 'schedulepolicies', true],
    ['', 'events', false],
    ['', 'endpoints', false],
    ['discovery.k8s.io', 'endpointslices', false],
    ['coordination.k8s.io', 'leases', false],
    ['extensions', 'ingresses', false],
    ['', 'nodes', false],
  ])('%s/%s → %s', (group, resource, expected) => {
    expect(backedUp({ group, resource })).toBe(expected);
  });
});
