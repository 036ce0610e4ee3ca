import { describe, expect, it } from 'vitest';
import { cleanObject, generatedBy, judge } from '../../src/backup/clean.js';
import type { ApiObject } from '../../src/kube/api/api-resources.js';

const obj = (apiVersion: string, kind: string, metadata: Record<string, unknown>, rest: Record<string, unknown> = {}): ApiObject =>
  ({ apiVersion, kind, metadata: { name: 'x', ...metadata }, ...rest }) as ApiObject;

const SERVER_META = {
  uid: 'u-1',
  resourceVersion: '42',
  generation: 3,
  creationTimestamp: '2026-11-26T10:00:00Z',
  selfLink: '/apis/x',
  managedFields: [{ manager: 'kubectl' }],
};

describe('cleanObject: what the server writes is left out', () => {
  it('drops status and server metadata, keeps labels, annotations and the spec, apiVersion/kind/metadata first', () => {
    const given = {
      spec: { replicas: 2 },
      status: { readyReplicas: 2 },
      metadata: {
        name: 'web',
        namespace: 'team-a',
        ...SERVER_META,
        labels: { app: 'web' },
        annotations: { 'deployment.kubernetes.io/revision': '4', note: 'mine' },
      },
      kind: 'Deployment',
      apiVersion: 'apps/v1',
    } as unknown as ApiObject;
    const out = cleanObject(given);
    expect(out).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'team-a', labels: { app: 'web' }, annotations: { note: 'mine' } },
      spec: { replicas: 2 },
    });
    expect(Object.keys(out)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    // The input is not changed.
    expect(given.status).toEqual({ readyReplicas: 2 });
  });

  it("drops a Service's allocated cluster IP but keeps a headless one", () => {
    const svc = (clusterIP: string) =>
      cleanObject(obj('v1', 'Service', { namespace: 'a' }, { spec: { clusterIP, clusterIPs: [clusterIP], ports: [{ port: 80 }] } }));
    expect(svc('10.96.0.7').spec).toEqual({ ports: [{ port: 80 }] });
    expect(svc('None').spec).toEqual({ clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 80 }] });
  });

  it("drops a Namespace's spec and its automatic name label, a ServiceAccount's token Secrets, an aggregated role's rules", () => {
    expect(
      cleanObject(
        obj('v1', 'Namespace', { name: 'a', labels: { 'kubernetes.io/metadata.name': 'a' } }, { spec: { finalizers: ['kubernetes'] } }),
      ),
    ).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } });
    expect(
      cleanObject(
        obj('v1', 'ServiceAccount', { name: 'bot', namespace: 'a' }, { secrets: [{ name: 'bot-token-abcde' }, { name: 'mine' }] }),
      ).secrets,
    ).toEqual([{ name: 'mine' }]);
    expect(
      cleanObject(obj('v1', 'ServiceAccount', { name: 'bot', namespace: 'a' }, { secrets: [{ name: 'bot-token-abcde' }] })),
    ).not.toHaveProperty('secrets');
    const agg = cleanObject(
      obj(
        'rbac.authorization.k8s.io/v1',
        'ClusterRole',
        { name: 'mon' },
        { aggregationRule: { clusterRoleSelectors: [] }, rules: [{ verbs: ['get'] }] },
      ),
    );
    expect(agg).not.toHaveProperty('rules');
    expect(agg).toHaveProperty('aggregationRule');
  });
});

describe('generatedBy / judge: only what an operator created is kept', () => {
  it.each([
    [obj('v1', 'ConfigMap', { name: 'extension-apiserver-authentication', namespace: 'kube-system' }), 'in kube-system'],
    [obj('v1', 'Namespace', { name: 'kube-public' }), 'built-in namespace'],
    [obj('v1', 'Namespace', { name: 'default' }), 'built-in namespace'],
    [
      obj('apps/v1', 'ReplicaSet', { namespace: 'a', ownerReferences: [{ kind: 'Deployment', name: 'web', controller: true }] }),
      'made by its owner',
    ],
    [obj('v1', 'Secret', { namespace: 'elotl', labels: { 'app.kubernetes.io/managed-by': 'fleetdeck' } }), 'made by the install'],
    [obj('rbac.authorization.k8s.io/v1', 'ClusterRole', { name: 'system:controller:x' }), 'built-in RBAC'],
    [
      obj('rbac.authorization.k8s.io/v1', 'ClusterRole', { name: 'view', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } }),
      'built-in RBAC',
    ],
    [obj('v1', 'Secret', { namespace: 'a' }, { type: 'kubernetes.io/service-account-token' }), 'service-account token'],
    [obj('v1', 'ServiceAccount', { name: 'default', namespace: 'a' }), 'default ServiceAccount'],
    [obj('v1', 'ConfigMap', { name: 'kube-root-ca.crt', namespace: 'a' }), 'made by the server'],
    [obj('v1', 'Service', { name: 'kubernetes', namespace: 'default' }), 'made by the server'],
  ])('%# skips %o', (o, why) => {
    expect(generatedBy(o)).toContain(why);
    expect(judge(o, { includeSecrets: true })).toEqual({ skip: generatedBy(o) });
  });

  it("keeps an operator's objects, also a ReplicaSet nobody owns and an owner that is not a controller", () => {
    for (const o of [
      obj('policy.elotl.co/v1alpha1', 'SchedulePolicy', { namespace: 'a' }),
      obj('apps/v1', 'ReplicaSet', { namespace: 'a' }),
      obj('v1', 'ConfigMap', { namespace: 'a', ownerReferences: [{ kind: 'X', name: 'y' }] }),
      obj('rbac.authorization.k8s.io/v1', 'ClusterRole', { name: 'reader' }),
    ])
      expect(judge(o, { includeSecrets: false })).toHaveProperty('keep');
  });

  it('keeps a Secret with its data only with --include-secrets', () => {
    const s = obj('v1', 'Secret', { name: 's1', namespace: 'a', ...SERVER_META }, { type: 'Opaque', data: { password: 'aHVudGVyMg==' } });
    expect(judge(s, { includeSecrets: false })).toEqual({ skip: 'data not included (--include-secrets)' });
    expect(judge(s, { includeSecrets: true })).toEqual({
      keep: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 's1', namespace: 'a' },
        type: 'Opaque',
        data: { password: 'aHVudGVyMg==' },
      },
    });
  });
});
