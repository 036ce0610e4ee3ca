import { describe, expect, it } from 'vitest';
import {
  autopilotCheck,
  defaultStorageClassCheck,
  describePermission,
  ingressCheck,
  installPermissions,
  isSchedulable,
  keysWithValues,
  loadBalancerCloud,
  permissionsCheck,
  reachableCheck,
  summarize,
  versionCheck,
  workloadVersionsCheck,
  zoneCheck,
  type NodeInfo,
} from '../../../src/install/prechecks/index.js';
import { SUPPORT_MATRIX, describeRange, isSupported } from '../../../src/install/support-matrix.js';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import { CredentialsError } from '../../../src/kube/transport/credentials.js';

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';

function node(name: string, zone: string | undefined, extra: Partial<NodeInfo> = {}): NodeInfo {
  const labels = { [HOST]: name, ...(zone ? { [ZONE]: zone } : {}), ...extra.labels };
  return { ...extra, name, labels };
}

/** A non-ok verdict must say what to do, on one line. */
function expectOneLineHint(v: { state: string; hint?: string }) {
  expect(v.hint, `a ${v.state} verdict needs a hint`).toBeTruthy();
  expect(v.hint).not.toContain('\n');
}

describe('support matrix', () => {
  it('holds the install guide table: Nova v0.7 → Kubernetes 1.25–1.28, v0.6 → 1.24–1.25', () => {
    const v07 = SUPPORT_MATRIX.find((e) => e.nova === 'v0.7')!;
    const v06 = SUPPORT_MATRIX.find((e) => e.nova === 'v0.6')!;
    expect(describeRange(v07)).toBe('1.25–1.28');
    expect(describeRange(v06)).toBe('1.24–1.25');
  });

  it('compares provider-suffixed versions by major and minor', () => {
    expect(isSupported('v1.26.10-eks-e71965b', SUPPORT_MATRIX[0]!)).toBe(true);
    expect(isSupported('v1.29.0', SUPPORT_MATRIX[0]!)).toBe(false);
  });

  it('lists versions that are not contiguous', () => {
    expect(describeRange({ nova: 'x', kubernetes: ['1.26', '1.24'] })).toBe('1.24, 1.26');
  });
});

describe('versionCheck', () => {
  it('is ok inside the supported range', () => {
    const v = versionCheck('v1.27.3');
    expect(v.state).toBe('ok');
    expect(v.detail).toContain('v1.27.3');
  });

  it('warns outside the range, naming the supported range', () => {
    // Given the sandbox's v1.20.2 and a newer server
    for (const version of ['v1.20.2', 'v1.29.1']) {
      const v = versionCheck(version);
      expect(v.state).toBe('warn');
      expect(v.detail).toContain(version);
      expect(v.hint).toContain('1.25–1.28');
      expect(v.hint).toContain('Nova v0.7');
      expectOneLineHint(v);
    }
  });

  it('takes another matrix and release', () => {
    const matrix = [{ nova: 'v9', kubernetes: ['1.20', '1.21'] }];
    expect(versionCheck('v1.20.2', matrix, 'v9').state).toBe('ok');
    expect(versionCheck('v1.20.2', matrix, 'v0.7').state).toBe('warn');
  });

  it('warns when the version cannot be read', () => {
    const v = versionCheck('weird');
    expect(v.state).toBe('warn');
    expectOneLineHint(v);
  });
});

describe('reachableCheck', () => {
  it('shows the version when reachable and one error line when not', () => {
    expect(reachableCheck('kind-cp', { version: 'v1.20.2' })).toEqual({ state: 'ok', detail: 'v1.20.2' });
    const err = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    const v = reachableCheck('kind-cp', { error: err });
    expect(v.state).toBe('fail');
    expect(v.detail).toBe('connection refused');
    expect(v.hint).toContain('kind-cp');
    expectOneLineHint(v);
  });

  it('says credentials that cannot be loaded, with the kubeconfig user in the hint', () => {
    const err = new CredentialsError('cannot read the token file of user "ci": open /t: no such file or directory', 'ci');
    expect(reachableCheck('kind-cp', { error: err })).toEqual({
      state: 'fail',
      detail: 'credentials: cannot read the token file of user "ci": open /t: no such file or directory',
      hint: 'fix user "ci" of context kind-cp in the kubeconfig; nothing was sent to its API server',
    });
  });
});

describe('autopilotCheck', () => {
  const standard = [node('gke-prod-default-pool-1a2b', 'europe-west1-b', { labels: { 'cloud.google.com/gke-provisioning': 'spot' } })];

  it('passes a Standard cluster, Spot nodes included', () => {
    expect(autopilotCheck({ apiGroups: ['apps', 'cloud.google.com'], nodes: standard }).state).toBe('ok');
  });

  it.each([
    ['the auto.gke.io API group', { apiGroups: ['auto.gke.io'], nodes: [] as NodeInfo[] }, 'auto.gke.io'],
    ['gk3- node names', { apiGroups: [], nodes: [node('gk3-prod-pool-2-abc', 'us-central1-a')] }, 'gk3-'],
    [
      'the Autopilot node label',
      { apiGroups: [], nodes: [node('n1', 'a', { labels: { 'cloud.google.com/gke-autopilot': 'true' } })] },
      'gke-autopilot',
    ],
  ])('fails an Autopilot cluster recognised by %s, with a hint', (_what, cluster, signal) => {
    const v = autopilotCheck(cluster);
    expect(v.state).toBe('fail');
    expect(v.detail).toContain(signal);
    expect(v.hint).toMatch(/Autopilot/);
    expectOneLineHint(v);
  });
});

describe('defaultStorageClassCheck', () => {
  it('finds the default by the GA or the beta annotation', () => {
    expect(
      defaultStorageClassCheck([{ name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }]),
    ).toEqual({
      state: 'ok',
      detail: 'standard',
    });
    expect(
      defaultStorageClassCheck([{ name: 'old', annotations: { 'storageclass.beta.kubernetes.io/is-default-class': 'true' } }]).state,
    ).toBe('ok');
  });

  it('fails without a default, saying etcd needs a PersistentVolume and a provisioner', () => {
    for (const classes of [
      [],
      [{ name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'false' } }, { name: 'slow' }],
    ]) {
      const v = defaultStorageClassCheck(classes);
      expect(v.state).toBe('fail');
      expect(v.hint).toContain('PersistentVolume');
      expect(v.hint).toContain('provisioner');
      expect(v.hint).toContain('etcd');
      expectOneLineHint(v);
    }
    expect(defaultStorageClassCheck([{ name: 'slow' }]).detail).toContain('slow');
  });

  it('warns about several defaults, naming them', () => {
    const ann = { 'storageclass.kubernetes.io/is-default-class': 'true' };
    const v = defaultStorageClassCheck([
      { name: 'a', annotations: ann },
      { name: 'b', annotations: ann },
    ]);
    expect(v.state).toBe('warn');
    expect(v.detail).toBe('2 defaults: a, b');
    expectOneLineHint(v);
  });
});

describe('ingressCheck', () => {
  it('is ok with a LoadBalancer Service that got an address', () => {
    const v = ingressCheck({ ingressClasses: [], loadBalancer: { namespace: 'ns', name: 'web', address: '203.0.113.7' } });
    expect(v).toEqual({ state: 'ok', detail: 'LoadBalancer Service ns/web got 203.0.113.7' });
  });

  it('is ok with an IngressClass, a load-balancing cloud or MetalLB', () => {
    expect(ingressCheck({ ingressClasses: [{ name: 'nginx' }] }).detail).toBe('IngressClass nginx');
    expect(ingressCheck({ ingressClasses: [], cloud: 'AWS' }).state).toBe('ok');
    expect(ingressCheck({ ingressClasses: [], apiGroups: ['metallb.io'] }).detail).toBe('MetalLB');
  });

  it('warns with the guide hint when nothing provides an address', () => {
    const v = ingressCheck({ ingressClasses: [], apiGroups: ['apps'] });
    expect(v.state).toBe('warn');
    expect(v.hint).toContain('LoadBalancer');
    expect(v.hint).toContain('Pending');
    expect(v.hint).toContain('MetalLB');
    expectOneLineHint(v);
  });

  it('recognises clouds from providerID but not kind or bare metal', () => {
    expect(loadBalancerCloud([{ name: 'n', labels: {}, providerID: 'gce://proj/zone/n' }])).toBe('Google Cloud');
    expect(loadBalancerCloud([{ name: 'n', labels: {}, providerID: 'aws:///eu-west-1a/i-0abc' }])).toBe('AWS');
    expect(loadBalancerCloud([{ name: 'n', labels: {}, providerID: 'kind://docker/kind/kind-control-plane' }])).toBeUndefined();
    // The sandbox's simulated cloud gives LoadBalancer Services an address at once: no warning there.
    expect(loadBalancerCloud([{ name: 'n', labels: {}, providerID: 'sandbox://kind-cp/kind-cp-node-1' }])).toBe(
      'the sandbox’s simulated cloud',
    );
    expect(loadBalancerCloud([{ name: 'n', labels: {} }])).toBeUndefined();
  });
});

describe('permissionsCheck', () => {
  const sts = { group: 'apps', resource: 'statefulsets', verb: 'create', namespace: 'elotl' };
  const ns = { group: '', resource: 'namespaces', verb: 'create' };

  it('names permissions as kubectl auth can-i does', () => {
    expect(describePermission(sts)).toBe('create statefulsets.apps in namespace elotl');
    expect(describePermission(ns)).toBe('create namespaces');
    expect(describePermission({ group: '', resource: 'pods', subresource: 'eviction', verb: 'create', namespace: 'x' })).toBe(
      'create pods/eviction in namespace x',
    );
  });

  it('is ok when all are granted', () => {
    expect(
      permissionsCheck([
        { permission: sts, allowed: true },
        { permission: ns, allowed: true },
      ]),
    ).toEqual({ state: 'ok', detail: 'all 2 granted' });
  });

  it('fails listing each missing permission by name', () => {
    const v = permissionsCheck([
      { permission: sts, allowed: false },
      { permission: ns, allowed: true },
      { permission: { ...sts, verb: 'delete' }, allowed: false },
    ]);
    expect(v.state).toBe('fail');
    expect(v.detail).toBe('2 of 3 missing');
    expect(v.children?.map((c) => c.label)).toEqual([
      'cannot create statefulsets.apps in namespace elotl',
      'cannot delete statefulsets.apps in namespace elotl',
    ]);
    expectOneLineHint(v);
  });

  it('warns when reviews could not be made', () => {
    const v = permissionsCheck([
      { permission: sts, allowed: false, error: 'HTTP 500' },
      { permission: ns, allowed: true },
    ]);
    expect(v.state).toBe('warn');
    expect(v.children?.[0]?.label).toContain('could not check create statefulsets.apps');
    expectOneLineHint(v);
  });
});

describe('zoneCheck', () => {
  const sandbox = ['zone-a', 'zone-b', 'zone-c', 'zone-a', 'zone-b', 'zone-c'].map((z, i) => node(`n${i + 1}`, z));

  it('passes with 3 zones among schedulable nodes', () => {
    const v = zoneCheck(sandbox, ZONE);
    expect(v.state).toBe('ok');
    expect(v.detail).toBe('3 values on 6 schedulable nodes (zone-a, zone-b, zone-c)');
  });

  it('does not count cordoned nodes or nodes with NoSchedule/NoExecute taints', () => {
    // Given the only zone-c nodes are cordoned or tainted
    const nodes = [
      node('a', 'zone-a'),
      node('b', 'zone-b'),
      node('c1', 'zone-c', { unschedulable: true }),
      node('c2', 'zone-c', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }),
      node('c3', 'zone-c', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] }),
      node('d', 'zone-d', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }),
    ];
    expect(isSchedulable(nodes[2]!)).toBe(false);
    expect(isSchedulable(nodes[5]!)).toBe(true);

    // Then zone-c does not count, zone-d (PreferNoSchedule) does
    const v = zoneCheck(nodes, ZONE);
    expect(v.state).toBe('ok');
    expect(v.detail).toContain('zone-a, zone-b, zone-d');
    expect(zoneCheck(nodes.slice(0, 5), ZONE).state).toBe('fail');
  });

  it('fails with too few values, offering --no-ha and the keys that have enough', () => {
    // Given 2 zones over 4 nodes
    const nodes = ['zone-a', 'zone-b', 'zone-a', 'zone-b'].map((z, i) => node(`n${i}`, z, { labels: { rack: `r${i % 3}` } }));

    const v = zoneCheck(nodes, ZONE);

    expect(v.state).toBe('fail');
    expect(v.detail).toBe('2 values on 4 schedulable nodes (zone-a, zone-b)');
    expect(v.hint).toContain('--no-ha');
    expect(v.hint).toContain('kubernetes.io/hostname (4)');
    expect(v.hint).toContain('rack (3)');
    expect(v.hint).not.toContain(`${ZONE} (`);
    expectOneLineHint(v);
  });

  it('fails when no node carries the key, and says when no key would do', () => {
    const nodes = [node('a', 'z'), node('b', 'z')];
    const v = zoneCheck(nodes, 'example.com/missing');
    expect(v.state).toBe('fail');
    expect(v.detail).toBe('no example.com/missing label on 2 schedulable nodes');
    expect(v.hint).toContain('--no-ha');
    expect(v.hint).toContain('no node label has 3 values');
  });

  it('orders suggested keys: well-known topology keys first, then by name', () => {
    const nodes = [1, 2, 3].map((i) => node(`n${i}`, `z${i}`, { labels: { 'a.example/x': `${i}` } }));
    expect(keysWithValues(nodes).map((k) => k.key)).toEqual([ZONE, HOST, 'a.example/x']);
  });
});

describe('workloadVersionsCheck', () => {
  it('is ok when all workloads run one minor version', () => {
    expect(
      workloadVersionsCheck([
        { name: 'w1', version: 'v1.27.3' },
        { name: 'w2', version: 'v1.27.9-gke.1' },
      ]),
    ).toEqual({ state: 'ok', detail: 'all v1.27' });
  });

  it('warns when minors differ, naming each cluster and its version', () => {
    const v = workloadVersionsCheck([{ name: 'w1', version: 'v1.27.3' }, { name: 'w2', version: 'v1.28.1' }, { name: 'w3' }]);
    expect(v.state).toBe('warn');
    expect(v.detail).toBe('w1 v1.27, w2 v1.28 (not compared: w3)');
    expectOneLineHint(v);
  });
});

describe('summarize', () => {
  it('blocks on any failure and reports warnings, children included', () => {
    const item = (state: CheckItem['state'], children?: CheckItem[]): CheckItem => ({
      id: state,
      label: state,
      state,
      ...(children ? { children } : {}),
    });
    expect(summarize([item('ok'), item('warn')])).toEqual({ blocking: false, warnings: true });
    expect(summarize([item('ok', [item('fail')])])).toEqual({ blocking: true, warnings: false });
    expect(summarize([item('ok'), item('info')])).toEqual({ blocking: false, warnings: false });
  });
});

describe('installPermissions', () => {
  it('asks for the objects the install creates, namespaced to the install namespace', () => {
    const { hosting, workload } = installPermissions('elotl');
    const names = (ps: typeof hosting) => ps.map(describePermission);
    expect(names(hosting)).toContain('create statefulsets.apps in namespace elotl');
    expect(names(hosting)).toContain('create secrets in namespace elotl');
    expect(names(hosting)).toContain('create namespaces');
    expect(names(workload)).toContain('create clusterroles.rbac.authorization.k8s.io');
    expect(names(workload)).toContain('create deployments.apps in namespace elotl');
  });
});
