import net from 'node:net';
import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, StorageV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import {
  checkId,
  installPermissions,
  runPrechecks,
  WORKLOAD_VERSIONS_ID,
  type PrecheckInput,
  type PrecheckResult,
} from '../../../src/install/prechecks/index.js';
import type { CheckItem } from '../../../src/checklist/checklist.js';
import { eventually } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const readOnlyKubeconfig = sandbox().readOnlyKubeconfig;
const ctx = (file: string, name: string) => ({ name, kc: configForContext(loadKubeconfig({ kubeconfig: file }).config, name) });

const NS = 'precheck-it';
const ZONE = 'topology.kubernetes.io/zone';
const TEST_KEY = 'precheck.fleetdeck.io/rack';
const DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const admin = {
  hosting: ctx(kubeconfig, 'kind-cp'),
  w1: ctx(kubeconfig, 'kind-workload-1'),
  w2: ctx(kubeconfig, 'kind-workload-2'),
};

function input(overrides: Partial<PrecheckInput> = {}): PrecheckInput {
  return {
    hosting: admin.hosting,
    workloads: [admin.w1, admin.w2],
    namespace: 'elotl',
    ha: true,
    topologyKey: ZONE,
    permissions: installPermissions('elotl'),
    ...overrides,
  };
}

function item(result: PrecheckResult, id: string): CheckItem {
  const found = result.items.find((i) => i.id === id);
  if (!found) throw new Error(`no item ${id} in ${result.items.map((i) => i.id).join(', ')}`);
  return found;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function deadContext(name: string, port: number) {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name, server: `https://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'nobody', token: 'none' }],
    contexts: [{ name, cluster: name, user: 'nobody' }],
    currentContext: name,
  });
  return { name, kc };
}

describe('install prerequisite checks on the sandbox fleet', () => {
  const core = makeClient(admin.hosting.kc, CoreV1Api);
  const storage = makeClient(admin.hosting.kc, StorageV1Api);

  beforeAll(async () => {
    // A LoadBalancer Service that the sandbox's load-balancer controller gives an address:
    // the cheap evidence that the hosting cluster can expose the API server.
    await createNamespace(core, NS);
    await core.createNamespacedService({
      namespace: NS,
      body: { metadata: { name: 'lb-probe' }, spec: { type: 'LoadBalancer', selector: { app: 'none' }, ports: [{ port: 443 }] } },
    });
    await eventually('the LoadBalancer Service gets an address', async () => {
      const svc = await core.readNamespacedService({ namespace: NS, name: 'lb-probe' });
      return svc.status?.loadBalancer?.ingress?.length;
    });
  });

  afterAll(async () => {
    await core.deleteNamespace({ name: NS }).catch((err: unknown) => {
      if (statusCode(err) !== 404) throw err;
    });
  });

  it('passes everything for the admin user but the server version, which warns and does not block', async () => {
    // Given the sandbox fleet (v1.20.2, outside the 1.25–1.28 matrix) and an admin user
    const seen: CheckItem[][] = [];

    // When the checks run
    const result = await runPrechecks(input(), (items) => seen.push(items));

    // Then only the version warns, naming the supported range, and nothing blocks
    const notOk = result.items.filter((i) => i.state !== 'ok');
    expect(notOk.map((i) => i.id)).toEqual([checkId('hosting', 'kind-cp', 'version')]);
    expect(notOk[0]).toMatchObject({ state: 'warn', detail: expect.stringContaining('v1.20.2') });
    expect(notOk[0]!.hint).toContain('1.25–1.28');
    expect(result).toMatchObject({ blocking: false, warnings: true });

    // And every check of the issue is there
    expect(result.items.map((i) => i.id)).toEqual([
      'hosting/kind-cp/reachable',
      'hosting/kind-cp/version',
      'hosting/kind-cp/autopilot',
      'hosting/kind-cp/storage-class',
      'hosting/kind-cp/ingress',
      'hosting/kind-cp/permissions',
      'hosting/kind-cp/topology',
      'workload/kind-workload-1/reachable',
      'workload/kind-workload-1/permissions',
      'workload/kind-workload-2/reachable',
      'workload/kind-workload-2/permissions',
      WORKLOAD_VERSIONS_ID,
    ]);
    expect(item(result, 'hosting/kind-cp/storage-class').detail).toBe('standard');
    expect(item(result, 'hosting/kind-cp/ingress').detail).toContain('LoadBalancer Service');
    expect(item(result, 'hosting/kind-cp/topology').detail).toContain('zone-a, zone-b, zone-c');
    expect(item(result, WORKLOAD_VERSIONS_ID).detail).toBe('all v1.20');

    // And progress went pending → running → result for every item, ending with the result
    expect(seen[0]!.every((i) => i.state === 'pending')).toBe(true);
    for (const { id } of result.items) {
      const states = seen.map((items) => items.find((i) => i.id === id)!.state);
      const firstRunning = states.indexOf('running');
      expect(firstRunning, `${id} ran`).toBeGreaterThan(0);
      expect(states.slice(0, firstRunning).every((s) => s === 'pending')).toBe(true);
    }
    expect(seen.at(-1)).toEqual(result.items);
  });

  it('fails the permission checks of the read-only user, naming what is missing', async () => {
    // Given the read-only user on every context
    const ro = (name: string) => ctx(readOnlyKubeconfig, name);

    // When the checks run
    const result = await runPrechecks(input({ hosting: ro('kind-cp'), workloads: [ro('kind-workload-1'), ro('kind-workload-2')] }));

    // Then the install is blocked by the permissions of every context, each missing one named
    expect(result.blocking).toBe(true);
    const hosting = item(result, 'hosting/kind-cp/permissions');
    expect(hosting.state).toBe('fail');
    expect(hosting.detail).toMatch(/^\d+ of \d+ missing$/);
    expect(hosting.hint).toBeTruthy();
    const missing = hosting.children?.map((c) => c.label) ?? [];
    expect(missing).toContain('cannot create statefulsets.apps in namespace elotl');
    expect(missing).toContain('cannot create namespaces');
    expect(missing).not.toContain('cannot get pods in namespace elotl'); // the viewer may read pods
    for (const w of ['kind-workload-1', 'kind-workload-2']) {
      const perms = item(result, checkId('workload', w, 'permissions'));
      expect(perms.state).toBe('fail');
      expect(perms.children?.map((c) => c.label)).toContain('cannot create clusterroles.rbac.authorization.k8s.io');
    }
    // And what the viewer can read is still checked
    expect(item(result, 'hosting/kind-cp/storage-class').state).toBe('ok');
    expect(item(result, 'hosting/kind-cp/topology').state).toBe('ok');
  });

  it('fails without a default StorageClass, saying etcd needs a PersistentVolume', async () => {
    // Given the sandbox's StorageClass is no longer the default
    await storage.patchStorageClass({ name: 'standard', body: { metadata: { annotations: { [DEFAULT_CLASS]: null } } } }, mergePatch());
    try {
      // When the checks run
      const result = await runPrechecks(input({ workloads: [] }));

      // Then the StorageClass check blocks with the install guide's hint
      const sc = item(result, 'hosting/kind-cp/storage-class');
      expect(sc.state).toBe('fail');
      expect(sc.detail).toContain('standard');
      expect(sc.hint).toContain('PersistentVolume');
      expect(sc.hint).toContain('storage provisioner');
      expect(result.blocking).toBe(true);
    } finally {
      await storage.patchStorageClass({ name: 'standard', body: { metadata: { annotations: { [DEFAULT_CLASS]: 'true' } } } }, mergePatch());
    }
    const restored = await storage.readStorageClass({ name: 'standard' });
    expect(restored.metadata?.annotations?.[DEFAULT_CLASS]).toBe('true');
  });

  it('fails HA over a key with fewer than 3 values, offering --no-ha and keys that have enough', async () => {
    // Given two nodes labelled with a test key (two values)
    const nodes = (await core.listNode()).items.map((n) => n.metadata!.name!).slice(0, 2);
    const label = (name: string, value: string | null) =>
      core.patchNode({ name, body: { metadata: { labels: { [TEST_KEY]: value } } } }, mergePatch());
    try {
      await Promise.all(nodes.map((n, i) => label(n, `r${i}`)));

      // When the checks run with that key
      const result = await runPrechecks(input({ workloads: [], topologyKey: TEST_KEY }));

      // Then HA is refused with the alternatives
      const ha = item(result, 'hosting/kind-cp/topology');
      expect(ha.state).toBe('fail');
      expect(ha.detail).toContain('2 values');
      expect(ha.hint).toContain('--no-ha');
      expect(ha.hint).toContain('kubernetes.io/hostname');
      expect(ha.hint).toContain(ZONE);
      expect(result.blocking).toBe(true);

      // And without HA there is no topology check at all
      const noHa = await runPrechecks(input({ workloads: [], topologyKey: TEST_KEY, ha: false }));
      expect(noHa.items.some((i) => i.id === 'hosting/kind-cp/topology')).toBe(false);
      expect(noHa.blocking).toBe(false);
    } finally {
      await Promise.all(nodes.map((n) => label(n, null)));
    }
  });

  it('fails reachability of a context on a closed port with one line and skips its other checks', async () => {
    // Given a hosting context and a workload context whose servers do not listen
    const port = await closedPort();

    // When the checks run
    const hostingDown = await runPrechecks(input({ hosting: deadContext('gone-cp', port), workloads: [admin.w1] }));
    const workloadDown = await runPrechecks(input({ workloads: [admin.w1, deadContext('gone-w', port)] }));

    // Then reachability fails with one line and a hint, and nothing else is tried there
    for (const [result, id] of [
      [hostingDown, 'hosting/gone-cp/reachable'],
      [workloadDown, 'workload/gone-w/reachable'],
    ] as const) {
      const reach = item(result, id);
      expect(reach.state).toBe('fail');
      expect(reach.detail).toBe('connection refused');
      expect(reach.hint).toBeTruthy();
      expect(reach.hint).not.toContain('\n');
      expect(result.blocking).toBe(true);
    }
    expect(
      hostingDown.items.filter((i) => i.id.startsWith('hosting/gone-cp/') && !i.id.endsWith('/reachable')).every((i) => i.state === 'info'),
    ).toBe(true);
    expect(item(hostingDown, 'workload/kind-workload-1/permissions').state).toBe('ok');
    expect(item(workloadDown, 'workload/gone-w/permissions')).toMatchObject({ state: 'info', detail: 'skipped: not reachable' });
    expect(item(workloadDown, WORKLOAD_VERSIONS_ID)).toMatchObject({ state: 'ok', detail: 'all v1.20 (not compared: gone-w)' });
  });
});
