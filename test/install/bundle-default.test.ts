import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BUNDLE_DIR, loadBundle, type Bundle, type KubeObject } from '../../src/install/bundle.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { args, find, flag, key, pod, spec } from './bundle-lookup.js';

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
    const containers = [...bundle.controlPlane, ...bundle.agent].filter((x) => spec(x)?.template).flatMap((o) => pod(o).containers);
    expect(containers.length).toBeGreaterThan(0);
    let used = 0;
    for (const c of containers) {
      const env = new Map<string, string>((c.env ?? []).map((e: any) => [e.name, e.valueFrom?.fieldRef?.fieldPath]));
      expect(env.get('POD_NAME')).toBe('metadata.name');
      expect(env.get('POD_NAMESPACE')).toBe('metadata.namespace');
      expect(env.get('POD_IP')).toBe('status.podIP');
      for (const a of [...(c.command ?? []), ...(c.args ?? [])] as string[]) {
        for (const m of a.matchAll(/\$\(([A-Z_]+)\)/g)) {
          expect(env.has(m[1]!), `${c.name}: ${a}`).toBe(true);
          used++;
        }
      }
    }
    expect(used, 'no argument uses a $(VAR)').toBeGreaterThan(0);
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
        scope: 'Cluster',
        kind: 'SchedulePolicy',
        plural: 'schedulepolicies',
      },
      'schedulegroups.policy.elotl.co': { group: 'policy.elotl.co', scope: 'Cluster', kind: 'ScheduleGroup', plural: 'schedulegroups' },
    };
    expect(bundle.crds.map((crd) => crd.metadata.name).sort()).toEqual(Object.keys(expected).sort());
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
