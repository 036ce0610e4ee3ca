import { ApiextensionsV1Api, AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../src/kube/transport/client.js';
import { NOVA_CRDS } from '../../src/kube/fleet/control-plane.js';
import { startStatusFeed, type StatusWatch } from '../../src/feeds/status-feed.js';
import { configForContext, contextInfos, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { createAuthority, issueCertificate } from '../../src/kube/certs/pki.js';
import { fleetChecklist } from '../../src/report/fleet-checklist.js';
import { collectStatus } from '../../src/feeds/status-feed.js';
import { formatChecklist, type CheckItem } from '../../src/checklist/checklist.js';
import type { ContextState } from '../../src/store/types.js';
import type { FleetConfig } from '../../src/kube/fleet/fleet.js';
import { eventually } from '../helpers/cli/cli.js';
import {
  NOVA_CRD_OBJECTS as CRDS,
  PAUSE,
  createNovaCluster,
  createSchedulePolicy,
  ignore,
  pauseDeployment,
} from '../helpers/sandbox/nova.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const readOnlyKubeconfig = sandbox().readOnlyKubeconfig;
const NS = 'fw-nova';
const HOST = 'kind-cp';
const WORKLOAD = 'kind-workload-1';
const FLEET: FleetConfig = {
  hostingContext: HOST,
  controlPlaneContext: HOST,
  namespace: NS,
  workloads: [{ context: WORKLOAD, clusterName: 'fw-workload-1' }],
};

const loaded = loadKubeconfig({ kubeconfig }).config;
const ctx = (name: string): KubeConfig => configForContext(loaded, name);
const infos = () => contextInfos(loaded).filter((c) => c.name === HOST || c.name === WORKLOAD);

const b64 = (s: string) => Buffer.from(s).toString('base64');
const find = (items: CheckItem[], id: string) => items.find((i) => i.id === id);

describe('fleet watchers on real API servers', () => {
  let fleet: StatusWatch;
  const createdCrds: string[] = [];
  const state = (name: string): ContextState => fleet.store.getState().status.contexts[name]!;

  beforeAll(() => {
    fleet = startStatusFeed(loaded, infos(), { fleet: FLEET, batchIntervalMs: 20, probeIntervalMs: 1000 });
  });

  afterAll(async () => {
    await fleet?.stop();
    const ext = makeClient(ctx(HOST), ApiextensionsV1Api);
    for (const name of createdCrds) await ext.deleteCustomResourceDefinition({ name }).catch(ignore(404));
    await eventually(
      'test CRDs gone',
      async () => {
        const names = (await ext.listCustomResourceDefinition()).items.map((c) => c.metadata?.name);
        return createdCrds.every((n) => !names.includes(n));
      },
      60_000,
    );
    for (const c of [HOST, WORKLOAD]) await makeClient(ctx(c), CoreV1Api).deleteNamespace({ name: NS }).catch(ignore(404));
  });

  it('sees a namespace that does not exist yet, then its workloads, pods, LoadBalancer and certificates', async () => {
    // Given no fleet namespace: the watcher says so (once the context is known to answer: until then its rows say "connecting")
    await eventually(
      'hosting context reachable and its slice synced',
      () => state(HOST).reachability === 'reachable' && state(HOST).fleetNamespace?.synced,
    );
    expect(state(HOST).fleetNamespace).toMatchObject({ namespace: NS, exists: false, workloads: [], pods: [] });
    expect(find(fleetChecklist(fleet.store.getState()), 'nova/apiserver')).toMatchObject({
      state: 'fail',
      detail: `not installed (namespace ${NS} not found in ${HOST})`,
    });

    // When the control plane's pieces appear
    const kc = ctx(HOST);
    const core = makeClient(kc, CoreV1Api);
    await createNamespace(core, NS);
    await pauseDeployment(kc, NS, 'apiserver', { component: 'apiserver' });
    await pauseDeployment(kc, NS, 'kube-controller-manager', { component: 'controller-manager' });
    await pauseDeployment(
      kc,
      NS,
      'nova-scheduler',
      { component: 'nova-scheduler' },
      { podSpec: { nodeSelector: { 'fleetdeck.test/no-such-node': 'true' } } },
    );
    await makeClient(kc, AppsV1Api).createNamespacedStatefulSet({
      namespace: NS,
      body: {
        metadata: { name: 'etcd' },
        spec: {
          replicas: 1,
          serviceName: 'etcd',
          selector: { matchLabels: { app: 'etcd' } },
          template: { metadata: { labels: { app: 'etcd' } }, spec: { containers: [{ name: 'etcd', image: PAUSE }] } },
        },
      },
    });
    await core.createNamespacedService({
      namespace: NS,
      body: {
        metadata: { name: 'apiserver' },
        spec: { type: 'LoadBalancer', selector: { component: 'apiserver' }, ports: [{ port: 443 }] },
      },
    });
    const ca = await createAuthority('fw-nova-ca', 365);
    const serving = await issueCertificate(ca, { commonName: 'fw-apiserver', hosts: ['127.0.0.1'], usage: 'server', days: 200 });
    await core.createNamespacedSecret({
      namespace: NS,
      body: {
        metadata: { name: 'apiserver-certs' },
        type: 'Opaque',
        data: { 'tls.crt': b64(serving.certPem), 'tls.key': b64(serving.keyPem), 'ca.crt': b64(ca.certPem) },
      },
    });

    // Then the slice follows, in summaries only
    const ns = await eventually(
      'hosting namespace summarized',
      () => {
        const s = state(HOST).fleetNamespace;
        const ready = (name: string) => s?.workloads.find((w) => w.name === name)?.ready === 1;
        return s?.exists &&
          ready('apiserver') &&
          ready('etcd') &&
          ready('kube-controller-manager') &&
          s.services[0]?.ingress.length &&
          s.certs.length === 2 &&
          s.pods.some((p) => p.labels.component === 'nova-scheduler' && p.reason?.startsWith('Unschedulable'))
          ? s
          : undefined;
      },
      90_000,
    );
    expect(ns.workloads.map((w) => `${w.kind}/${w.name}`)).toEqual([
      'Deployment/apiserver',
      'Deployment/kube-controller-manager',
      'Deployment/nova-scheduler',
      'StatefulSet/etcd',
    ]);
    expect(ns.services).toEqual([{ name: 'apiserver', type: 'LoadBalancer', ingress: [expect.stringMatching(/^127\.3\.\d+\.\d+$/)] }]);
    expect(ns.certs.map((c) => [c.secret, c.key, c.subject])).toEqual([
      ['apiserver-certs', 'ca.crt', 'CN=fw-nova-ca'],
      ['apiserver-certs', 'tls.crt', 'CN=fw-apiserver'],
    ]);
    expect(JSON.stringify(state(HOST))).not.toContain('BEGIN');

    const items = fleetChecklist(fleet.store.getState());
    const text = formatChecklist(items);
    expect(text).toContain('* API Server status... Running √');
    expect(text).toContain('* Kube-controller-manager status... Running √');
    expect(text).toContain('* ETCD status... Running √');
    expect(text).toMatch(
      /\* Nova scheduler status\.\.\. Pending 0\/1 \(Unschedulable: 0\/\d+ nodes are available: .*(node selector|node affinity).*\) ✗/,
    );
    expect(text).toContain('Nova Control Plane is not healthy ✗');
    expect(text).toMatch(/\* API Server Service\.\.\. 127\.3\.\d+\.\d+ √/);
    expect(text).toMatch(/\* Control plane certificates\.\.\. valid for 19\d days √/);
  });

  it('follows the Nova CRDs as they come and go, with their Clusters and SchedulePolicies', async () => {
    const kc = ctx(HOST);
    const ext = makeClient(kc, ApiextensionsV1Api);
    await eventually(
      'hosting context reachable and control plane slice synced',
      () => state(HOST).reachability === 'reachable' && state(HOST).controlPlane?.synced,
    );
    const before = state(HOST).controlPlane!;
    expect(before.crds).toEqual({ cluster: false, schedulePolicy: false, scheduleGroup: false });
    expect(find(fleetChecklist(fleet.store.getState()), 'crd/cluster')).toMatchObject({ state: 'fail', detail: 'not installed' });

    // When the CRDs are installed
    for (const c of CRDS) {
      await ext.createCustomResourceDefinition({ body: c });
      createdCrds.push(c.metadata!.name!);
    }
    await eventually(
      'CRDs seen',
      () => {
        const cp = state(HOST).controlPlane;
        return cp?.synced && cp.crds.cluster && cp.crds.schedulePolicy && cp.crds.scheduleGroup;
      },
      60_000,
    );
    expect(createdCrds.sort()).toEqual(Object.values(NOVA_CRDS).sort());

    // And an agent registers its Cluster, and a SchedulePolicy is defined
    await eventually(
      'Cluster created',
      () =>
        createNovaCluster(
          kc,
          'fw-workload-1',
          { kubernetesversion: '1.20', kubernetescluster: 'workload-1', provider: 'kind' },
          { Ready: 'True', Idle: 'True', Standby: 'False' },
        ).then(() => true),
      30_000,
      250,
    );
    await createSchedulePolicy(kc, 'fw-policy');
    const cp = await eventually('Cluster and policy seen', () => {
      const s = state(HOST).controlPlane;
      return s?.clusters.length === 1 && s.schedulePolicies === 1 ? s : undefined;
    });
    expect(cp.clusters).toEqual([
      { name: 'fw-workload-1', k8sVersion: '1.20', k8sCluster: 'workload-1', ready: 'True', idle: 'True', standby: 'False' },
    ]);
    const text = formatChecklist(fleetChecklist(fleet.store.getState()));
    expect(text).toContain('* Cluster CRD presence... installed √');
    expect(text).toContain('* Cluster fw-workload-1 connected and ready √');
    expect(text).toContain('* 1 SchedulePolicy defined √');
    expect(text).toContain('All Nova Custom Resource Definitions installed √');

    // When the ScheduleGroup and Cluster CRDs go away, so do their rows and objects
    await ext.deleteCustomResourceDefinition({ name: NOVA_CRDS.cluster });
    await ext.deleteCustomResourceDefinition({ name: NOVA_CRDS.scheduleGroup });
    await eventually(
      'CRDs gone',
      () => {
        const s = state(HOST).controlPlane;
        return s?.synced && !s.crds.cluster && !s.crds.scheduleGroup && s.crds.schedulePolicy && s.clusters.length === 0;
      },
      60_000,
    );
    const checklist = () => formatChecklist(fleetChecklist(fleet.store.getState()));
    await eventually('the checklist says the Cluster CRD is gone', () => checklist().includes('* Cluster CRD presence... not installed ✗'));
    // And nothing spins while the CRDs stay absent: the slice is replaced for what changes in it
    // (a second SchedulePolicy, its CRD still there), never to say again what it said.
    const replaced: (number | undefined)[] = [];
    const unsubscribe = fleet.store.subscribe((now, prev) => {
      const cp = now.status.contexts[HOST]?.controlPlane;
      if (cp !== prev.status.contexts[HOST]?.controlPlane) replaced.push(cp?.schedulePolicies);
    });
    await createSchedulePolicy(kc, 'fw-policy-2');
    await eventually('the second SchedulePolicy seen', () => state(HOST).controlPlane?.schedulePolicies === 2, 20_000);
    unsubscribe();
    expect(replaced, 'the SchedulePolicy count of each new control plane slice').toEqual([2]);
    expect(state(HOST).controlPlane).toMatchObject({ crds: { cluster: false, scheduleGroup: false, schedulePolicy: true }, clusters: [] });

    // When the Cluster CRD comes back, the watch starts again
    await eventually('Cluster CRD re-created', () => ext.createCustomResourceDefinition({ body: CRDS[0]! }).then(() => true), 60_000, 500);
    await eventually('Cluster CRD seen again', () => state(HOST).controlPlane?.crds.cluster && state(HOST).controlPlane?.synced, 60_000);
    expect(state(HOST).controlPlane?.clusters).toEqual([]);
  });

  it('the agent in a workload cluster: Deployment, pods and registration', async () => {
    const kc = ctx(WORKLOAD);
    await createNamespace(makeClient(kc, CoreV1Api), NS);
    await pauseDeployment(kc, NS, 'nova-agent', { app: 'nova-agent' });
    const ns = await eventually(
      'agent ready',
      () => {
        const s = state(WORKLOAD).fleetNamespace;
        const reachable = state(WORKLOAD).reachability === 'reachable';
        return reachable && s?.workloads.find((w) => w.name === 'nova-agent')?.ready === 1 ? s : undefined;
      },
      60_000,
    );
    // The workload role watches no Services or Secrets
    expect(ns.services).toEqual([]);
    expect(ns.certs).toEqual([]);
    expect(ns.pods.map((p) => p.labels.app)).toEqual(['nova-agent']);
    // Not registered (the Cluster CRD came back empty)
    expect(find(fleetChecklist(fleet.store.getState()), `agent/${WORKLOAD}`)).toMatchObject({
      state: 'fail',
      label: `Agent in ${WORKLOAD} (cluster fw-workload-1)`,
      detail: '1/1 ready, not registered',
    });
  });

  it('collectStatus waits for the fleet slices', async () => {
    const s = await collectStatus(loaded, infos(), 30_000, FLEET);
    expect(s.fleet).toEqual(FLEET);
    expect(s.status.contexts[HOST]?.fleetNamespace?.synced).toBe(true);
    expect(s.status.contexts[HOST]?.controlPlane?.synced).toBe(true);
    expect(s.status.contexts[WORKLOAD]?.fleetNamespace?.synced).toBe(true);
    expect(fleetChecklist(s).filter((i) => i.state === 'pending')).toEqual([]);
  });

  it('a user who may not read Secrets: certificates cannot be checked, the rest still works', async () => {
    const ro = loadKubeconfig({ kubeconfig: readOnlyKubeconfig }).config;
    const s = await collectStatus(
      ro,
      contextInfos(ro).filter((c) => c.name === HOST),
      30_000,
      FLEET,
    );
    const ns = s.status.contexts[HOST]?.fleetNamespace;
    expect(ns?.synced).toBe(true);
    expect(ns?.forbidden).toBeUndefined();
    expect(ns?.secretsForbidden).toMatch(/^cannot list secrets in namespace fw-nova: HTTP 403/);
    expect(ns?.certs).toEqual([]);
    const items = fleetChecklist(s);
    expect(find(items, 'nova/certificates')).toMatchObject({
      state: 'warn',
      detail: expect.stringMatching(/^cannot check: cannot list secrets/),
    });
    expect(find(items, 'nova/apiserver')).toMatchObject({ state: 'ok', detail: 'Running' });
  });
});
