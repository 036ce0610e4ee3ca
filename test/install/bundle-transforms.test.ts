import { beforeAll, describe, expect, it } from 'vitest';
import {
  forNamespace,
  loadBundle,
  requiredPermissions,
  withClusterName,
  withHA,
  withoutHA,
  type Bundle,
} from '../../src/install/bundle.js';
import { UserError } from '../../src/errors.js';
import { args, find, flag, key, pod, spec } from './bundle-lookup.js';

let bundle: Bundle;
beforeAll(async () => {
  bundle = await loadBundle();
});

describe('transforms', () => {
  it('forNamespace: namespaced objects and ServiceAccount subjects only, inputs unchanged', () => {
    const before = structuredClone(bundle);
    const cp = forNamespace([bundle.service, ...bundle.controlPlane, ...bundle.crds], 'team-a');
    for (const o of cp) expect(o.metadata.namespace, key(o)).toBe(o.kind === 'CustomResourceDefinition' ? undefined : 'team-a');
    const agent = forNamespace(bundle.agent, 'team-a');
    expect(Object.fromEntries(agent.map((o) => [o.kind, o.metadata.namespace]))).toEqual({
      ServiceAccount: 'team-a',
      ClusterRole: undefined,
      ClusterRoleBinding: undefined,
      Deployment: 'team-a',
    });
    expect(find(agent, 'ClusterRoleBinding', 'nova-agent').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'nova-agent', namespace: 'team-a' },
    ]);
    // A subject of another namespace stays; a custom kind whose CRD is cluster-scoped gets none, any other kind the install's.
    const other = forNamespace(
      [
        ...bundle.crds,
        { apiVersion: 'cluster.elotl.co/v1alpha1', kind: 'Cluster', metadata: { name: 'c' } },
        { apiVersion: 'policy.elotl.co/v1alpha1', kind: 'SchedulePolicy', metadata: { name: 'p', namespace: 'x' } },
        { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'x' } },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'rb' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
          subjects: [
            { kind: 'ServiceAccount', name: 'default', namespace: 'kube-system' },
            { kind: 'Group', name: 'g' },
          ],
        },
      ],
      'team-a',
    );
    expect(find(other, 'Cluster', 'c').metadata.namespace).toBeUndefined();
    expect(find(other, 'SchedulePolicy', 'p').metadata.namespace).toBeUndefined();
    expect(find(other, 'Widget', 'w').metadata.namespace).toBe('team-a');
    expect(find(other, 'RoleBinding', 'rb').metadata.namespace).toBe('team-a');
    expect(find(other, 'RoleBinding', 'rb').subjects).toEqual([
      { kind: 'ServiceAccount', name: 'default', namespace: 'kube-system' },
      { kind: 'Group', name: 'g' },
    ]);
    expect(() => forNamespace(bundle.agent, 'Team_A')).toThrow(UserError);
    expect(bundle).toEqual(before);
  });

  it('withHA: replicas, required anti-affinity on the topology key with the component own labels, three etcd members', () => {
    const before = structuredClone(bundle.controlPlane);
    const ha = withHA(bundle.controlPlane, { replicas: 3, topologyKey: 'topology.kubernetes.io/zone' });
    expect(bundle.controlPlane).toEqual(before);
    for (const [kind, name, labels] of [
      ['StatefulSet', 'etcd', { app: 'etcd' }],
      ['Deployment', 'apiserver', { component: 'apiserver' }],
      ['Deployment', 'controller-manager', { component: 'controller-manager' }],
      ['Deployment', 'nova-scheduler', { component: 'nova-scheduler' }],
    ] as const) {
      const o = find(ha, kind, name);
      expect(spec(o).replicas).toBe(3);
      expect(pod(o).affinity).toEqual({
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: labels }, topologyKey: 'topology.kubernetes.io/zone' },
          ],
        },
      });
    }
    expect(spec(find(ha, 'Deployment', 'apiserver')).strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
    });
    const etcd = find(ha, 'StatefulSet', 'etcd');
    expect(flag(etcd, 'initial-cluster')).toBe(
      [0, 1, 2].map((i) => `etcd-${i}=https://etcd-${i}.etcd.$(POD_NAMESPACE).svc:2380`).join(','),
    );
    // Everything else of etcd's arguments unchanged.
    expect(args(etcd).filter((a) => !a.startsWith('--initial-cluster='))).toEqual(
      args(find(bundle.controlPlane, 'StatefulSet', 'etcd')).filter((a) => !a.startsWith('--initial-cluster=')),
    );
    expect(find(ha, 'Service', 'etcd')).toEqual(find(bundle.controlPlane, 'Service', 'etcd'));

    const other = withHA(bundle.controlPlane, { replicas: 5, topologyKey: 'kubernetes.io/hostname' });
    expect(
      flag(find(other, 'StatefulSet', 'etcd'), 'initial-cluster')!
        .split(',')
        .map((m) => m.split('=')[0]),
    ).toEqual(['etcd-0', 'etcd-1', 'etcd-2', 'etcd-3', 'etcd-4']);
    expect(
      pod(find(other, 'Deployment', 'apiserver')).affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey,
    ).toBe('kubernetes.io/hostname');
    // Applying it twice adds no second term.
    expect(withHA(ha)).toEqual(ha);
    expect(() => withHA(bundle.controlPlane, { replicas: 0 })).toThrow(RangeError);
  });

  it('withoutHA: one replica, no anti-affinity, one etcd member; undoes withHA', () => {
    const ha = withHA(bundle.controlPlane);
    const single = withoutHA(ha);
    expect(single).toEqual(bundle.controlPlane);
    for (const o of single.filter((x) => spec(x)?.template)) {
      expect(spec(o).replicas).toBe(1);
      expect(pod(o).affinity).toBeUndefined();
    }
    expect(flag(find(single, 'StatefulSet', 'etcd'), 'initial-cluster')).toBe('etcd-0=https://etcd-0.etcd.$(POD_NAMESPACE).svc:2380');
    // Affinity of its own (a node selector term) is kept.
    const withNodeAffinity = structuredClone(ha);
    const nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['cp'] }] }],
      },
    };
    pod(find(withNodeAffinity, 'Deployment', 'apiserver')).affinity.nodeAffinity = nodeAffinity;
    expect(pod(find(withoutHA(withNodeAffinity), 'Deployment', 'apiserver')).affinity).toEqual({ nodeAffinity });
  });

  it('withClusterName: sets --cluster-name, replacing any other', () => {
    const named = withClusterName(bundle.agent, 'kind-workload-1');
    expect(args(find(named, 'Deployment', 'nova-agent'))).toEqual([
      '--cluster-name=kind-workload-1',
      '--kubeconfig=/etc/nova/init/kubeconfig',
    ]);
    const renamed = withClusterName(named, 'east.example');
    expect(args(find(renamed, 'Deployment', 'nova-agent'))).toEqual([
      '--cluster-name=east.example',
      '--kubeconfig=/etc/nova/init/kubeconfig',
    ]);
    const twoArgs = structuredClone(bundle.agent);
    pod(find(twoArgs, 'Deployment', 'nova-agent')).containers[0].args = ['--cluster-name', 'old', '--v=2'];
    expect(args(find(withClusterName(twoArgs, 'new'), 'Deployment', 'nova-agent'))).toEqual(['--cluster-name=new', '--v=2']);
    expect(args(find(bundle.agent, 'Deployment', 'nova-agent'))).toEqual(['--kubeconfig=/etc/nova/init/kubeconfig']);
    expect(() => withClusterName(bundle.agent, 'Kind_Workload')).toThrow(/invalid cluster name "Kind_Workload"/);
    expect(() =>
      withClusterName(
        bundle.agent.filter((o) => o.kind !== 'Deployment'),
        'a',
      ),
    ).toThrow(/no container named nova-agent/);
  });

  it('requiredPermissions: what the install creates and watches, per cluster', () => {
    const { hosting, workload } = requiredPermissions(bundle, 'team-a');
    const has = (list: typeof hosting, group: string, resource: string, verb: string, namespace?: string) =>
      list.some((p) => p.group === group && p.resource === resource && p.verb === verb && p.namespace === namespace);
    const all = ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'];
    for (const verb of all) {
      expect(has(hosting, '', 'namespaces', verb)).toBe(true);
      for (const [group, resource] of [
        ['', 'services'],
        ['', 'secrets'],
        ['apps', 'statefulsets'],
        ['apps', 'deployments'],
      ]) {
        expect(has(hosting, group!, resource!, verb, 'team-a'), `hosting ${group}/${resource} ${verb}`).toBe(true);
      }
      expect(has(workload, '', 'namespaces', verb)).toBe(true);
      for (const [group, resource, ns] of [
        ['', 'secrets', 'team-a'],
        ['', 'serviceaccounts', 'team-a'],
        ['apps', 'deployments', 'team-a'],
        ['rbac.authorization.k8s.io', 'clusterroles', undefined],
        ['rbac.authorization.k8s.io', 'clusterrolebindings', undefined],
      ]) {
        expect(has(workload, group!, resource!, verb, ns), `workload ${group}/${resource} ${verb}`).toBe(true);
      }
    }
    for (const verb of ['get', 'list', 'watch']) {
      expect(has(hosting, '', 'pods', verb, 'team-a')).toBe(true);
      expect(has(hosting, '', 'events', verb, 'team-a')).toBe(true);
    }
    // Granting the agent's ClusterRole needs holding what it grants, cluster-wide.
    expect(has(workload, '', 'nodes', 'list')).toBe(true);
    expect(has(workload, 'apps', 'daemonsets', 'create')).toBe(true);
    // The CRDs go to the new control plane, not the hosting cluster.
    expect(hosting.some((p) => p.resource === 'customresourcedefinitions')).toBe(false);
    // No duplicates, no wildcards, a reason each.
    for (const list of [hosting, workload]) {
      const keys = list.map((p) => `${p.group}/${p.resource}/${p.verb}/${p.namespace ?? ''}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(list.some((p) => p.verb === '*' || p.resource === '*' || p.group === '*')).toBe(false);
      expect(list.every((p) => p.reason.length > 0)).toBe(true);
    }
    expect(requiredPermissions(bundle).hosting.find((p) => p.resource === 'secrets')?.namespace).toBe('elotl');
  });
});
