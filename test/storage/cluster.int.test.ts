import { ApiextensionsV1Api, CoreV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { makeClient, statusCode } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { readClusterInventory } from '../../src/storage/cluster.js';
import { SANDBOX_NODE_ANNOTATION } from '../../src/sandbox/sim/index.js';
import {
  SIMULATED_STORAGE_CRDS,
  SMALL_NODE_ORDINAL,
  ensureSimulatedStorage,
  storageProfile,
} from '../../src/sandbox/sim/storage-objects.js';
import { describeNodeStorage } from '../../src/report/storage/describe.js';
import type { ClusterStorage } from '../../src/storage/inventory.js';
import { eventually } from '../helpers/cli/cli.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const readOnlyKubeconfig = sandbox().readOnlyKubeconfig;

const ctx = (file: string, name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig: file }).config, name);
const GiB = 2 ** 30;

/** The context's admin acting as `user` (impersonation), to see what another user's permissions give. */
function impersonating(kc: KubeConfig, user: string): KubeConfig {
  const out = new KubeConfig();
  out.loadFromOptions({
    clusters: kc.getClusters(),
    users: kc.getUsers().map((u) => ({ ...u, impersonateUser: user })),
    contexts: kc.getContexts(),
    currentContext: kc.getCurrentContext(),
  });
  return out;
}

async function sandboxNodes(kc: KubeConfig): Promise<string[]> {
  const nodes = (await makeClient(kc, CoreV1Api).listNode()).items;
  return nodes.filter((n) => n.metadata?.annotations?.[SANDBOX_NODE_ANNOTATION]).map((n) => n.metadata!.name!);
}

/** What the inventory shows for each node: volume groups and disks as sizes in bytes. */
function expectSimulated(inv: ClusterStorage, node: string): void {
  const entry = inv.nodes.find((n) => n.node === node);
  expect(entry, `node ${node} in the inventory`).toBeDefined();
  const profile = storageProfile(node);
  expect(entry!.volumeGroups).toEqual(
    profile.volumeGroups.map((vg) => ({ name: vg.name, sizeBytes: vg.sizeBytes, freeBytes: vg.freeBytes })),
  );
  expect(entry!.disks.map((d) => ({ path: d.path, sizeBytes: d.sizeBytes, claimState: d.claimState, state: d.state }))).toEqual(
    profile.disks.map((d) => ({ path: d.path, sizeBytes: d.sizeBytes, claimState: d.claimState, state: 'Active' })),
  );
  expect(entry!.ephemeralBytes).toBe(95 * GiB);
  expect(entry!.ephemeralCapacityBytes).toBe(100 * GiB);
}

describe('cluster storage inventory on the sandbox', () => {
  it("shows every node's simulated volume groups and disks, per node, on every cluster", async () => {
    for (const context of ['kind-cp', 'kind-workload-1', 'kind-workload-2']) {
      const kc = ctx(kubeconfig, context);
      const inv = await readClusterInventory(kc);
      expect(inv.source).toBe('cluster');
      expect(inv.missing).toEqual([]);
      const nodes = await sandboxNodes(kc);
      expect(nodes.length).toBeGreaterThanOrEqual(6);
      for (const node of nodes) expectSimulated(inv, node);
      // Free space differs per node, and the small node has the least.
      const free = new Map(inv.nodes.map((n) => [n.node, n.volumeGroups.find((vg) => vg.name === 'vg_data')?.freeBytes ?? 0]));
      const small = nodes.find((n) => n.endsWith(`-node-${SMALL_NODE_ORDINAL}`))!;
      expect(Math.min(...nodes.map((n) => free.get(n)!))).toBe(free.get(small));
      expect(new Set(nodes.map((n) => free.get(n))).size).toBeGreaterThan(2);
    }
    const node1 = (await readClusterInventory(ctx(kubeconfig, 'kind-workload-1'))).nodes.find((n) => n.node === 'workload-1-node-1');
    expect(describeNodeStorage(node1!)).toEqual([
      'Volume Groups:',
      '-  vg_data ( 512.0 GB - 472.0 GB free)',
      '-  vg_share ( 256.0 GB - 156.0 GB free)',
      'Total Free space: 628.0 GB',
      '',
      'Disks:',
      '/dev/sdb (512G) LVM physical volume [Unclaimed]',
      '/dev/sdc (256G) LVM physical volume [Unclaimed]',
      '/dev/sdd (200G) [Claimed]',
    ]);
  });

  it('lists the StorageClasses (standard is the default) and a claim bound by the sandbox provisioner with its volume', async () => {
    const kc = ctx(kubeconfig, 'kind-workload-2');
    const core = makeClient(kc, CoreV1Api);
    const namespace = 'storage-inventory';
    await createNamespace(core, namespace);
    try {
      await core.createNamespacedPersistentVolumeClaim({
        namespace,
        body: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '3Gi' } } } },
      });
      await core.createNamespacedPod({
        namespace,
        body: {
          metadata: { name: 'app' },
          spec: {
            containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
            volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
          },
        },
      });
      const pod = await eventually(
        'the pod scheduled',
        async () => (await core.readNamespacedPod({ name: 'app', namespace })).spec?.nodeName,
        60_000,
        200,
      );
      const inv = await eventually(
        'the claim Bound in the inventory',
        async () => {
          const i = await readClusterInventory(kc);
          return i.claims.find((c) => c.namespace === namespace && c.name === 'data')?.phase === 'Bound' ? i : undefined;
        },
        60_000,
        200,
      );
      expect(inv.storageClasses).toContainEqual({ name: 'standard', provisioner: 'sandbox.fleetdeck.io/local', default: true });
      expect(inv.storageClasses.filter((c) => c.default)).toHaveLength(1);
      const claim = inv.claims.find((c) => c.namespace === namespace && c.name === 'data')!;
      expect(claim).toMatchObject({ requestedBytes: 3 * GiB, storageClass: 'standard', phase: 'Bound', capacityBytes: 3 * GiB });
      const volume = inv.volumes.find((v) => v.name === claim.volume);
      expect(volume).toEqual({
        name: claim.volume,
        capacityBytes: 3 * GiB,
        storageClass: 'standard',
        claim: `${namespace}/data`,
        phase: 'Bound',
        node: pod,
      });
    } finally {
      await core.deleteNamespace({ name: namespace }).catch(() => {});
    }
  });

  it('reads the same as the read-only user', async () => {
    const inv = await readClusterInventory(ctx(readOnlyKubeconfig, 'kind-workload-1'));
    expect(inv.missing).toEqual([]);
    for (const node of await sandboxNodes(ctx(kubeconfig, 'kind-workload-1'))) expectSimulated(inv, node);
  });

  describe('sources that cannot be read', () => {
    const kc = ctx(kubeconfig, 'kind-workload-2');
    const rbac = makeClient(kc, RbacAuthorizationV1Api);
    const reader = 'storage-inventory-reader';

    afterAll(async () => {
      await rbac.deleteClusterRoleBinding({ name: reader }).catch(() => {});
      await rbac.deleteClusterRole({ name: reader }).catch(() => {});
    });

    it('says which permission a user lacks for LVMNodes and BlockDevices, and reads the rest', async () => {
      await rbac.createClusterRole({
        body: {
          metadata: { name: reader },
          rules: [
            { apiGroups: [''], resources: ['nodes', 'persistentvolumes', 'persistentvolumeclaims'], verbs: ['get', 'list'] },
            { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: ['get', 'list'] },
          ],
        },
      });
      await rbac.createClusterRoleBinding({
        body: {
          metadata: { name: reader },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: reader },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: reader }],
        },
      });
      const as = impersonating(kc, reader);
      // RBAC changes reach the authorizer through its informer: wait until the nodes can be listed.
      const inv = await eventually('the reader can list nodes', async () => {
        const i = await readClusterInventory(as);
        return i.missing.some((l) => l.startsWith('Nodes')) ? undefined : i;
      });
      expect(inv.missing).toEqual([
        'LVMNode (local.openebs.io): forbidden, needs list on lvmnodes.local.openebs.io in all namespaces',
        'BlockDevice (openebs.io): forbidden, needs list on blockdevices.openebs.io in all namespaces',
      ]);
      expect(inv.nodes.length).toBeGreaterThanOrEqual(6);
      expect(inv.nodes.every((n) => n.volumeGroups.length === 0 && n.disks.length === 0 && n.ephemeralBytes === 95 * GiB)).toBe(true);
      expect(inv.storageClasses.map((c) => c.name)).toContain('standard');
    });

    it('says that LVMNode and BlockDevice are not installed when their CRDs are gone, and reads the rest', async () => {
      const ext = makeClient(kc, ApiextensionsV1Api);
      const crdsGone = () =>
        eventually(
          'the OpenEBS CRDs deleted',
          async () => {
            for (const crd of SIMULATED_STORAGE_CRDS) {
              const gone = await ext.readCustomResourceDefinition({ name: crd.metadata.name }).then(
                () => false,
                (err: unknown) => statusCode(err) === 404,
              );
              if (!gone) return false;
            }
            return true;
          },
          60_000,
          200,
        );
      try {
        for (const crd of SIMULATED_STORAGE_CRDS) await ext.deleteCustomResourceDefinition({ name: crd.metadata.name });
        await crdsGone();
        const inv = await readClusterInventory(kc);
        expect(inv.missing).toEqual(['LVMNode (local.openebs.io) not installed', 'BlockDevice (openebs.io) not installed']);
        expect(inv.nodes.length).toBeGreaterThanOrEqual(6);
        expect(inv.nodes.every((n) => n.volumeGroups.length === 0 && n.disks.length === 0)).toBe(true);
        expect(inv.storageClasses.find((c) => c.default)?.name).toBe('standard');
        expect(describeNodeStorage(inv.nodes[0]!)).toEqual(['Volume Groups: none', '', 'Disks: none']);
      } finally {
        // Put back what the sandbox had: the CRDs, and every node's LVMNode and BlockDevices.
        await crdsGone();
        await ensureSimulatedStorage(kc, 'workload-2');
      }
      const restored = await readClusterInventory(kc);
      expect(restored.missing).toEqual([]);
      for (const node of await sandboxNodes(kc)) expectSimulated(restored, node);
    });
  });
});

describe('fleetdeck storage estimate on the sandbox', () => {
  it("adds up against the inventory: available is the smallest node's, a too-large size names the short node", async () => {
    const { runCli } = await import('../helpers/cli/cli.js');
    const kc = ctx(kubeconfig, 'kind-workload-1');
    const inv = await readClusterInventory(kc);
    const gib = (b: number) => Math.floor(b / GiB);
    const free = (vg: string) =>
      Math.min(...inv.nodes.filter((n) => n.volumeGroups.length).map((n) => n.volumeGroups.find((g) => g.name === vg)!.freeBytes));
    const size = (vg: string) =>
      Math.min(...inv.nodes.filter((n) => n.volumeGroups.length).map((n) => n.volumeGroups.find((g) => g.name === vg)!.sizeBytes));
    const base = [
      'storage',
      'estimate',
      '--kubeconfig',
      kubeconfig,
      '--context',
      'kind-workload-1',
      '--catalogue',
      'kloudspot-example',
      '--features',
      'KloudInsights',
      '-o',
      'json',
    ];

    const fits = await runCli(base);
    expect(fits.stderr).toBe('');
    const est = JSON.parse(fits.stdout) as {
      required: { shared: number; unshared: number };
      available: { shared: number; unshared: number };
      ok: boolean;
    };
    expectMatchesSchema(est, 'storage-estimate');
    // The seed's rule: unshared is the unshared group's free space, shared the shared group's size, in whole GB.
    expect(est.available).toEqual({ shared: gib(size('vg_share')), unshared: gib(free('vg_data')) });
    expect(est.required).toEqual({ shared: 20, unshared: 14 });
    expect(est.ok).toBe(true);
    expect(fits.code).toBe(0);

    const tooBig = await runCli([...base, '--size', `insights-database=${gib(free('vg_data')) + 5}`]);
    expect(tooBig.code).toBe(1);
    const short = JSON.parse(tooBig.stdout) as {
      ok: boolean;
      verdict: string;
      perNode: { node: string; shortfall: { unshared: number } }[];
    };
    expect(short.ok).toBe(false);
    const smallNode = short.perNode.find((n) => n.node.endsWith(`-node-${SMALL_NODE_ORDINAL}`))!;
    expect(smallNode.shortfall.unshared).toBeGreaterThan(0);
    expect(short.verdict).toContain(smallNode.node);
  });
});
