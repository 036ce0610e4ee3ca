import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_BUNDLE_DIR,
  forNamespace,
  loadBundle,
  requiredPermissions,
  withClusterName,
  withHA,
  withoutHA,
  type Bundle,
  type KubeObject,
} from '../../src/install/bundle.js';
import { UserError } from '../../src/errors.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { writeTree } from '../helpers/file-tree.js';
import { hasKubectl } from '../helpers/kubectl.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-bundle-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Writes files (relative path → text) under a fresh directory of the temp dir. */
const tree = (name: string, files: Record<string, string>): string => writeTree(path.join(tmp, name), files);

/** The error a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as Error,
  );
}

const key = (o: KubeObject) => `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const byKey = (objs: KubeObject[]) => [...objs].sort((a, b) => key(a).localeCompare(key(b)));
const find = (objs: KubeObject[], kind: string, name: string) => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  return o;
};

const spec = (o: KubeObject) => o.spec as any;
const pod = (o: KubeObject) => spec(o).template.spec;
const args = (o: KubeObject, container = 0): string[] => pod(o).containers[container].args;
const flag = (o: KubeObject, name: string) =>
  args(o)
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3);

let bundle: Bundle;
beforeAll(async () => {
  bundle = await loadBundle();
});

describe('the default bundle', () => {
  it("is shipped with the package, laid out like Nova's install/ directory", () => {
    expect(DEFAULT_BUNDLE_DIR).toBe(path.join(PACKAGE_ROOT, 'src', 'install', 'bundle'));
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('src/install/bundle');
    for (const f of [
      'base/control-plane/apiserver.yaml',
      'base/control-plane/etcd.yaml',
      'base/control-plane/kube-apiserver.yaml',
      'base/control-plane/kube-controller-manager.yaml',
      'base/control-plane/nova-scheduler.yaml',
      'base/control-plane/nova_crds.yaml',
      'base/control-plane/kustomization.yaml',
      'base/agent/nova_agent.yaml',
      'base/agent/service_account.yaml',
      'base/agent/rbac.yaml',
      'base/agent/kustomization.yaml',
      'overlays/cp-ha/kustomization.yaml',
      'overlays/workload-cluster-1/kustomization.yaml',
      'overlays/workload-cluster-1/nova_agent.yaml',
    ]) {
      const text = fs.readFileSync(path.join(DEFAULT_BUNDLE_DIR, f), 'utf8');
      expect(text.startsWith('# '), `${f} starts with a comment`).toBe(true);
    }
    expect(bundle.source).toBe(DEFAULT_BUNDLE_DIR);
  });

  it('loads without kubectl (its kustomizations only list files)', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      const b = await loadBundle(undefined, { kubectl: 'kubectl' });
      expect(b).toEqual(bundle);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('has the API server Service, etcd, API server, controller manager and scheduler, the CRDs and the agent', () => {
    expect(bundle.service).toMatchObject({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'apiserver' },
      spec: { type: 'LoadBalancer', selector: { component: 'apiserver' }, ports: [{ port: 443, targetPort: 6443 }] },
    });
    expect(bundle.controlPlane.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'Deployment/apiserver',
      'Deployment/controller-manager',
      'Deployment/nova-scheduler',
      'Service/etcd',
      'StatefulSet/etcd',
    ]);
    expect(bundle.crds.map((o) => o.metadata.name).sort()).toEqual([
      'clusters.cluster.elotl.co',
      'schedulegroups.policy.elotl.co',
      'schedulepolicies.policy.elotl.co',
    ]);
    expect(bundle.agent.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'ClusterRole/nova-agent',
      'ClusterRoleBinding/nova-agent',
      'Deployment/nova-agent',
      'ServiceAccount/nova-agent',
    ]);
    // No namespace in the manifests; fleetdeck's labels on everything.
    for (const o of [bundle.service, ...bundle.controlPlane, ...bundle.crds, ...bundle.agent]) {
      expect(o.metadata.namespace, key(o)).toBeUndefined();
      expect(o.metadata.labels, key(o)).toMatchObject({ 'app.kubernetes.io/managed-by': 'fleetdeck', 'app.kubernetes.io/part-of': 'nova' });
    }
  });

  it("labels the pods as the install guide's wait commands select them", () => {
    const selects = (kind: string, name: string, labels: Record<string, string>) => {
      const o = find([...bundle.controlPlane, ...bundle.agent], kind, name);
      expect(spec(o).selector.matchLabels).toEqual(labels);
      expect(spec(o).template.metadata.labels).toMatchObject(labels);
    };
    selects('StatefulSet', 'etcd', { app: 'etcd' });
    selects('Deployment', 'apiserver', { component: 'apiserver' });
    selects('Deployment', 'controller-manager', { component: 'controller-manager' });
    selects('Deployment', 'nova-scheduler', { component: 'nova-scheduler' });
    selects('Deployment', 'nova-agent', { app: 'nova-agent' });
  });

  it('runs upstream images (registry.k8s.io), the agent its own', () => {
    const images = (objs: KubeObject[]) =>
      objs
        .filter((o) => spec(o)?.template)
        .flatMap((o) => [...pod(o).containers, ...(pod(o).initContainers ?? [])].map((c: { image: string }) => c.image));
    expect(images(bundle.controlPlane).sort()).toEqual([
      'registry.k8s.io/etcd:3.5.9-0',
      'registry.k8s.io/kube-apiserver:v1.28.4',
      'registry.k8s.io/kube-controller-manager:v1.28.4',
      'registry.k8s.io/kube-scheduler:v1.28.4',
    ]);
    expect(images(bundle.agent)).toEqual(['elotl/nova-agent:v0.7.0']);
  });

  it('etcd: headless Service, one member with a 1Gi claim, mutual TLS from the certificates Secret, probes', () => {
    expect(find(bundle.controlPlane, 'Service', 'etcd').spec).toMatchObject({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { app: 'etcd' },
      ports: [
        { name: 'client', port: 2379 },
        { name: 'peer', port: 2380 },
      ],
    });
    const etcd = find(bundle.controlPlane, 'StatefulSet', 'etcd');
    expect(spec(etcd)).toMatchObject({ serviceName: 'etcd', replicas: 1, podManagementPolicy: 'Parallel' });
    expect(spec(etcd).volumeClaimTemplates).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ name: 'data' }),
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      }),
    ]);
    const c = pod(etcd).containers[0];
    expect(c.volumeMounts).toEqual(expect.arrayContaining([{ name: 'data', mountPath: '/var/lib/etcd' }]));
    expect(pod(etcd).volumes).toEqual([{ name: 'pki', secret: { secretName: 'nova-etcd-certs', defaultMode: 0o400 } }]);
    expect(c.readinessProbe.httpGet).toBeDefined();
    expect(c.livenessProbe.httpGet).toBeDefined();
    expect(flag(etcd, 'name')).toBe('$(POD_NAME)');
    expect(flag(etcd, 'data-dir')).toBe('/var/lib/etcd/data');
    expect(flag(etcd, 'cert-file')).toBe('/etc/etcd/pki/$(POD_NAME)-server.crt');
    expect(flag(etcd, 'key-file')).toBe('/etc/etcd/pki/$(POD_NAME)-server.key');
    expect(flag(etcd, 'peer-cert-file')).toBe('/etc/etcd/pki/$(POD_NAME)-peer.crt');
    expect(flag(etcd, 'trusted-ca-file')).toBe('/etc/etcd/pki/ca.crt');
    expect(flag(etcd, 'client-cert-auth')).toBe('true');
    expect(flag(etcd, 'peer-client-cert-auth')).toBe('true');
    expect(flag(etcd, 'initial-cluster')).toBe('etcd-0=https://etcd-0.etcd.$(POD_NAMESPACE).svc:2380');
    expect(flag(etcd, 'initial-advertise-peer-urls')).toBe('https://$(POD_NAME).etcd.$(POD_NAMESPACE).svc:2380');
  });

  it('every $(VAR) an argument uses is defined from the pod (POD_NAME, POD_NAMESPACE, POD_IP)', () => {
    for (const o of [...bundle.controlPlane, ...bundle.agent].filter((x) => spec(x)?.template)) {
      for (const c of pod(o).containers) {
        const env = new Map<string, string>((c.env ?? []).map((e: any) => [e.name, e.valueFrom?.fieldRef?.fieldPath]));
        expect(env.get('POD_NAME')).toBe('metadata.name');
        expect(env.get('POD_NAMESPACE')).toBe('metadata.namespace');
        expect(env.get('POD_IP')).toBe('status.podIP');
        for (const a of [...(c.command ?? []), ...(c.args ?? [])] as string[]) {
          for (const m of a.matchAll(/\$\(([A-Z_]+)\)/g)) expect(env.has(m[1]!), `${c.name}: ${a}`).toBe(true);
        }
      }
    }
  });

  it('the API server: RBAC, TLS, etcd client TLS, service accounts, front proxy, readiness on /readyz', () => {
    const api = find(bundle.controlPlane, 'Deployment', 'apiserver');
    expect(pod(api).volumes).toEqual([{ name: 'pki', secret: { secretName: 'nova-apiserver-certs', defaultMode: 0o400 } }]);
    expect(pod(api).containers[0].volumeMounts).toEqual([{ name: 'pki', mountPath: '/etc/nova/pki', readOnly: true }]);
    expect(pod(api).containers[0].ports).toEqual([{ name: 'https', containerPort: 6443 }]);
    expect(args(api)).toEqual(
      expect.arrayContaining([
        '--advertise-address=$(POD_IP)',
        '--secure-port=6443',
        '--authorization-mode=RBAC',
        '--client-ca-file=/etc/nova/pki/ca.crt',
        '--tls-cert-file=/etc/nova/pki/apiserver.crt',
        '--tls-private-key-file=/etc/nova/pki/apiserver.key',
        '--etcd-servers=https://etcd.$(POD_NAMESPACE).svc:2379',
        '--etcd-cafile=/etc/nova/pki/etcd-ca.crt',
        '--etcd-certfile=/etc/nova/pki/apiserver-etcd-client.crt',
        '--etcd-keyfile=/etc/nova/pki/apiserver-etcd-client.key',
        '--service-account-key-file=/etc/nova/pki/sa.pub',
        '--service-account-signing-key-file=/etc/nova/pki/sa.key',
        '--proxy-client-cert-file=/etc/nova/pki/front-proxy-client.crt',
        '--requestheader-client-ca-file=/etc/nova/pki/front-proxy-ca.crt',
        '--requestheader-allowed-names=front-proxy-client',
      ]),
    );
    expect(flag(api, 'service-account-issuer')).toBeTruthy();
    // Flags removed before 1.28 (the sandbox runs 1.20, the bundle's images 1.28).
    expect(args(api).some((a) => a.startsWith('--insecure-port'))).toBe(false);
    expect(pod(api).containers[0].readinessProbe.httpGet).toEqual({ path: '/readyz', port: 6443, scheme: 'HTTPS' });
  });

  it('the controller manager and the scheduler: their kubeconfig Secrets, HTTPS health probes', () => {
    const cm = find(bundle.controlPlane, 'Deployment', 'controller-manager');
    expect(pod(cm).volumes[0].secret.secretName).toBe('nova-controller-manager');
    expect(pod(cm).containers[0].volumeMounts).toEqual([{ name: 'pki', mountPath: '/etc/nova/pki', readOnly: true }]);
    expect(args(cm)).toEqual(
      expect.arrayContaining([
        '--kubeconfig=/etc/nova/pki/kubeconfig',
        '--cluster-signing-cert-file=/etc/nova/pki/ca.crt',
        '--cluster-signing-key-file=/etc/nova/pki/ca.key',
        '--service-account-private-key-file=/etc/nova/pki/sa.key',
        '--root-ca-file=/etc/nova/pki/ca.crt',
      ]),
    );
    // All controllers but those of nodes and of Pods (the control plane has no nodes).
    const controllers = flag(cm, 'controllers')!.split(',');
    expect(controllers[0]).toBe('*');
    expect(controllers).toEqual(expect.arrayContaining(['-nodelifecycle', '-deployment', '-replicaset']));
    expect(controllers).not.toContain('-namespace');
    expect(controllers).not.toContain('-garbagecollector');
    expect(pod(cm).containers[0].readinessProbe.httpGet).toMatchObject({ path: '/healthz', scheme: 'HTTPS' });
    const sched = find(bundle.controlPlane, 'Deployment', 'nova-scheduler');
    expect(pod(sched).volumes[0].secret.secretName).toBe('nova-scheduler');
    expect(flag(sched, 'kubeconfig')).toBe('/etc/nova/pki/kubeconfig');
    expect(pod(sched).containers[0].readinessProbe.httpGet).toMatchObject({ path: '/healthz', scheme: 'HTTPS' });
    for (const o of bundle.controlPlane.filter((x) => spec(x)?.template)) {
      // Control plane pods never use the hosting cluster's API.
      expect(pod(o).automountServiceAccountToken, key(o)).toBe(false);
    }
  });

  it('the CRDs: apiextensions.k8s.io/v1, v1alpha1 served and stored, open schema, status subresource', () => {
    const expected = {
      'clusters.cluster.elotl.co': { group: 'cluster.elotl.co', scope: 'Cluster', kind: 'Cluster', plural: 'clusters' },
      'schedulepolicies.policy.elotl.co': {
        group: 'policy.elotl.co',
        scope: 'Namespaced',
        kind: 'SchedulePolicy',
        plural: 'schedulepolicies',
      },
      'schedulegroups.policy.elotl.co': { group: 'policy.elotl.co', scope: 'Namespaced', kind: 'ScheduleGroup', plural: 'schedulegroups' },
    };
    for (const crd of bundle.crds) {
      const e = expected[crd.metadata.name as keyof typeof expected];
      expect(crd.apiVersion).toBe('apiextensions.k8s.io/v1');
      expect(spec(crd)).toMatchObject({ group: e.group, scope: e.scope, names: { kind: e.kind, plural: e.plural } });
      expect(spec(crd).versions).toHaveLength(1);
      expect(spec(crd).versions[0]).toMatchObject({
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        subresources: { status: {} },
      });
    }
  });

  it('the agent: init kubeconfig Secret mounted, its ServiceAccount, least-privilege RBAC without *', () => {
    const agent = find(bundle.agent, 'Deployment', 'nova-agent');
    expect(pod(agent).serviceAccountName).toBe('nova-agent');
    expect(pod(agent).containers[0].name).toBe('nova-agent');
    expect(args(agent)).toContain('--kubeconfig=/etc/nova/init/kubeconfig');
    expect(pod(agent).volumes).toEqual([
      {
        name: 'init-kubeconfig',
        secret: { secretName: 'nova-cluster-init-kubeconfig', items: [{ key: 'kubeconfig', path: 'kubeconfig' }] },
      },
    ]);
    expect(pod(agent).containers[0].volumeMounts).toEqual([{ name: 'init-kubeconfig', mountPath: '/etc/nova/init', readOnly: true }]);
    const role = find(bundle.agent, 'ClusterRole', 'nova-agent');
    const rules = role.rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[];
    for (const r of rules) {
      expect([...r.apiGroups, ...r.resources, ...r.verbs]).not.toContain('*');
      expect(r.verbs).not.toContain('escalate');
      expect(r.verbs).not.toContain('bind');
      expect(r.verbs).not.toContain('impersonate');
    }
    const grants = (group: string, resource: string) =>
      new Set(rules.filter((r) => r.apiGroups.includes(group) && r.resources.includes(resource)).flatMap((r) => r.verbs));
    for (const res of ['nodes', 'namespaces', 'pods'])
      expect([...grants('', res)]).toEqual(expect.arrayContaining(['get', 'list', 'watch']));
    expect([...grants('', 'nodes')].sort()).toEqual(['get', 'list', 'watch']);
    for (const [group, res] of [
      ['apps', 'deployments'],
      ['apps', 'replicasets'],
      ['apps', 'statefulsets'],
      ['apps', 'daemonsets'],
      ['batch', 'jobs'],
      ['', 'services'],
      ['', 'configmaps'],
      ['', 'secrets'],
      ['', 'pods'],
      ['', 'persistentvolumeclaims'],
    ] as const) {
      expect([...grants(group, res)], `${group}/${res}`).toEqual(expect.arrayContaining(['create', 'update', 'delete']));
    }
    expect([...grants('', 'events')]).toContain('create');
    // Nothing it does not need: no RBAC objects, no cluster-admin.
    expect(rules.some((r) => r.apiGroups.includes('rbac.authorization.k8s.io'))).toBe(false);
    const binding = find(bundle.agent, 'ClusterRoleBinding', 'nova-agent');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'nova-agent' });
    expect(binding.subjects).toEqual([expect.objectContaining({ kind: 'ServiceAccount', name: 'nova-agent' })]);
  });
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
    // A subject of another namespace stays; a custom kind whose CRD is cluster-scoped gets none.
    const other = forNamespace(
      [
        ...bundle.crds,
        { apiVersion: 'cluster.elotl.co/v1alpha1', kind: 'Cluster', metadata: { name: 'c' } },
        { apiVersion: 'policy.elotl.co/v1alpha1', kind: 'SchedulePolicy', metadata: { name: 'p', namespace: 'x' } },
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
    expect(find(other, 'SchedulePolicy', 'p').metadata.namespace).toBe('team-a');
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

const SERVICE = `# the API server
apiVersion: v1
kind: Service
metadata:
  name: apiserver
spec:
  type: LoadBalancer
  selector: {component: apiserver}
  ports: [{port: 443, targetPort: 6443}]
`;
const DEPLOYMENT = (name: string, image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  selector: {matchLabels: {component: ${name}}}
  template:
    metadata: {labels: {component: ${name}}}
    spec:
      containers: [{name: ${name}, image: ${image}}]
`;

describe('vendor bundles (--bundle DIR)', () => {
  it('plain directories: every .yaml/.yml file in name order, several documents each, empty ones skipped', async () => {
    const dir = tree('plain', {
      'base/control-plane/b-apiserver.yml': SERVICE,
      'base/control-plane/a-components.yaml': `${DEPLOYMENT('apiserver', 'example.com/apiserver:1')}---\n---\n# nothing\n---\n${DEPLOYMENT('controller-manager', 'example.com/cm:1')}`,
      'base/control-plane/c-crds.yaml': `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: clusters.cluster.elotl.co}\nspec: {group: cluster.elotl.co}\n`,
      'base/control-plane/README.md': 'not a manifest',
      'base/agent/agent.yaml': `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ServiceAccount\n  metadata: {name: nova-agent}\n- ${DEPLOYMENT('nova-agent', 'example.com/agent:1').replaceAll('\n', '\n  ')}`,
    });
    const b = await loadBundle(dir);
    expect(b.source).toBe(dir);
    expect(b.service.metadata.name).toBe('apiserver');
    expect(b.controlPlane.map((o) => o.metadata.name)).toEqual(['apiserver', 'controller-manager']);
    expect(b.crds.map((o) => o.metadata.name)).toEqual(['clusters.cluster.elotl.co']);
    expect(b.agent.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['ServiceAccount/nova-agent', 'Deployment/nova-agent']);
    // A directory holding install/ works too.
    const outer = path.join(tmp, 'outer');
    fs.mkdirSync(outer);
    fs.renameSync(dir, path.join(outer, 'install'));
    expect((await loadBundle(outer)).source).toBe(path.join(outer, 'install'));
  });

  it('reads YAML as kubectl does: 0400 is octal, timestamps stay strings', async () => {
    const dir = tree('yaml11', {
      'base/control-plane/all.yaml': `${SERVICE}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {day: 2001-12-14, time: 12:30}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\nmode: 0400\n`,
      'base/agent/a.yaml': DEPLOYMENT('nova-agent', 'x'),
    });
    const b = await loadBundle(dir);
    expect(find(b.controlPlane, 'ConfigMap', 'c').data).toEqual({ day: '2001-12-14', time: '12:30' });
    expect(find(b.controlPlane, 'Secret', 's').mode).toBe(256);
  });

  it('a directory without base/agent: one line naming what is missing', async () => {
    const dir = tree('no-agent', { 'base/control-plane/a.yaml': SERVICE });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toBe(
      `${dir} is not a Nova install bundle: base/agent is missing (expected base/control-plane and base/agent, as Nova's install/ directory)`,
    );
    const empty = tree('empty', { 'README.md': 'x' });
    expect((await failure(loadBundle(empty))).message).toContain('base/control-plane and base/agent are missing');
    expect((await failure(loadBundle(path.join(tmp, 'nowhere')))).message).toMatch(/nowhere is not a directory/);
  });

  it('broken YAML: the error names the file and the line', async () => {
    const dir = tree('broken', {
      'base/control-plane/apiserver.yaml': SERVICE,
      'base/control-plane/etcd.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: etcd\n spec: oops\n',
      'base/agent/a.yaml': DEPLOYMENT('nova-agent', 'x'),
    });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(
      new RegExp(`^${path.join(dir, 'base/control-plane/etcd.yaml').replaceAll('/', '\\/')}:5:\\d+: invalid YAML: .+$`),
    );
    expect(err.message).not.toContain('\n');
  });

  it('documents that are not Kubernetes objects, a missing apiserver Service, duplicates: named errors', async () => {
    const agent = { 'base/agent/a.yaml': DEPLOYMENT('nova-agent', 'x') };
    const notObject = tree('not-object', { ...agent, 'base/control-plane/a.yaml': `${SERVICE}---\njust: a mapping\n` });
    expect((await failure(loadBundle(notObject))).message).toBe(
      `${path.join(notObject, 'base/control-plane/a.yaml')}:11: not a Kubernetes object (needs apiVersion, kind and metadata.name)`,
    );
    const noService = tree('no-service', { ...agent, 'base/control-plane/a.yaml': DEPLOYMENT('apiserver', 'x') });
    expect((await failure(loadBundle(noService))).message).toMatch(/has no Service named apiserver/);
    const clusterIP = tree('cluster-ip', {
      ...agent,
      'base/control-plane/a.yaml': SERVICE.replace('type: LoadBalancer', 'type: ClusterIP'),
    });
    expect((await failure(loadBundle(clusterIP))).message).toMatch(/Service apiserver must be of type LoadBalancer \(it is ClusterIP\)/);
    const twice = tree('twice', { ...agent, 'base/control-plane/a.yaml': SERVICE, 'base/control-plane/b.yaml': SERVICE });
    expect((await failure(loadBundle(twice))).message).toMatch(/Service apiserver is defined twice \(.*a\.yaml and .*b\.yaml\)/);
  });

  it('a kustomization that needs rendering, without kubectl on PATH: one clear line', async () => {
    const dir = tree('kustomized-no-kubectl', {
      'base/control-plane/apiserver.yaml': SERVICE,
      'base/agent/kustomization.yaml': 'namespace: elotl\nresources:\n  - a.yaml\n',
      'base/agent/a.yaml': DEPLOYMENT('nova-agent', 'x'),
    });
    const saved = process.env.PATH;
    process.env.PATH = '';
    try {
      const err = await failure(loadBundle(dir));
      expect(err).toBeInstanceOf(UserError);
      expect(err.message).toBe(
        `${path.join(dir, 'base/agent')} is a kustomization directory; rendering it needs kubectl on PATH (install kubectl, or pass a directory of plain manifests)`,
      );
    } finally {
      process.env.PATH = saved;
    }
  });

  it.skipIf(!hasKubectl)(
    "kustomization directories rendered by kubectl: Nova's overlays equal the transforms",
    async () => {
      // A vendor bundle whose bases are the default bundle's overlays: base/control-plane renders
      // overlays/cp-ha (apiserver.yaml and nova_crds.yaml beside it, as the install guide applies them),
      // base/agent renders overlays/workload-cluster-1.
      const dir = path.join(tmp, 'kustomized');
      fs.cpSync(DEFAULT_BUNDLE_DIR, path.join(dir, 'upstream'), { recursive: true });
      tree('kustomized', {
        'base/control-plane/Kustomization': 'resources:\n  - ../../upstream/overlays/cp-ha\n',
        'base/control-plane/apiserver.yaml': fs.readFileSync(path.join(DEFAULT_BUNDLE_DIR, 'base/control-plane/apiserver.yaml'), 'utf8'),
        'base/control-plane/nova_crds.yaml': fs.readFileSync(path.join(DEFAULT_BUNDLE_DIR, 'base/control-plane/nova_crds.yaml'), 'utf8'),
        'base/agent/kustomization.yml': 'resources:\n  - ../../upstream/overlays/workload-cluster-1\n',
      });
      const b = await loadBundle(dir);
      expect(b.service).toEqual(bundle.service);
      expect(b.crds).toEqual(bundle.crds);
      expect(byKey(b.controlPlane)).toEqual(
        byKey(withHA(bundle.controlPlane, { replicas: 3, topologyKey: 'topology.kubernetes.io/zone' })),
      );
      expect(byKey(withoutHA(b.controlPlane))).toEqual(byKey(bundle.controlPlane));
      expect(byKey(b.agent)).toEqual(byKey(forNamespace(withClusterName(bundle.agent, 'kind-workload-1'), 'elotl')));
      // The second example overlay names its cluster kind-workload-2.
      const second = path.join(tmp, 'kustomized-2');
      fs.cpSync(dir, second, { recursive: true });
      fs.writeFileSync(path.join(second, 'base/agent/kustomization.yml'), 'resources:\n  - ../../upstream/overlays/workload-cluster-2\n');
      expect(args(find((await loadBundle(second)).agent, 'Deployment', 'nova-agent'))).toEqual([
        '--cluster-name=kind-workload-2',
        '--kubeconfig=/etc/nova/init/kubeconfig',
      ]);
    },
    60_000,
  );

  it.skipIf(!hasKubectl)('a failing kustomization: kubectl error in one line', async () => {
    const dir = tree('kustomize-fails', {
      'base/control-plane/apiserver.yaml': SERVICE,
      'base/agent/kustomization.yaml': 'namespace: elotl\nresources:\n  - missing.yaml\n',
    });
    const err = await failure(loadBundle(dir));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toMatch(new RegExp(`^kubectl kustomize ${path.join(dir, 'base/agent')} failed: .*missing\\.yaml`));
    expect(err.message).not.toContain('\n');
  });
});
