import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import {
  ApiextensionsV1Api,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  RbacAuthorizationV1Api,
  VersionApi,
  type V1Pod,
} from '@kubernetes/client-node';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { describeError, makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { createAuthority, issueCertificate, type KeyMaterial } from '../../../src/kube/certs/pki.js';
import { LB_HOSTNAME_ANNOTATION, LB_HOSTNAME_SUFFIX } from '../../../src/sandbox/sim/index.js';
import { readAuditEvents } from '../../../src/sandbox/audit.js';
import { SIM_USER } from '../../../src/sandbox/credentials.js';
import { isOurs, readState } from '../../../src/sandbox/state.js';
import { eventually } from '../../helpers/cli.js';
import {
  CLUSTER_CRD,
  ETCD_IMAGE,
  agentDeployment,
  agentRbac,
  apiserverDeployment,
  apiserverSecret,
  apiserverServing,
  apiserverService,
  controlPlanePki,
  etcdService,
  etcdStatefulSet,
  initKubeconfigSecret,
  kubeconfigText,
} from '../../helpers/control-plane.js';
import { ignore } from '../../helpers/nova.js';
import { createNamespace } from '../../helpers/namespace.js';
import { sandboxContainerLog } from '../../helpers/container-logs.js';

const kubeconfig = inject('kubeconfig');
const sandboxDir = inject('sandboxDir');
const ctx = (name: string): KubeConfig => configForContext(loadKubeconfig({ kubeconfig }).config, name);

const NS = 'cp-real';
const AGENT_NS = 'cp-real-agent';
const HOSTNAME_AGENT_NS = 'cp-real-agent-by-name';
/** A second LoadBalancer Service for the API server, published as a hostname. */
const BY_NAME = 'apiserver-by-name';
const LB_HOSTNAME = `${BY_NAME}.${NS}.${LB_HOSTNAME_SUFFIX}`;
const hosting = ctx('kind-cp');
const workload1 = ctx('kind-workload-1');
const workload2 = ctx('kind-workload-2');
const core = makeClient(hosting, CoreV1Api);
const CLUSTERS = { group: 'cluster.elotl.co', version: 'v1alpha1', plural: 'clusters' } as const;

/** A client of the new control plane: its server, the CA it trusts, the client certificate it shows. */
function clientConfig(server: string, caPem: string, client: KeyMaterial): KubeConfig {
  const kc = new KubeConfig();
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  kc.loadFromOptions({
    clusters: [{ name: 'nova', server, caData: b64(caPem), skipTLSVerify: false }],
    users: [{ name: 'user', certData: b64(client.certPem), keyData: b64(client.keyPem) }],
    contexts: [{ name: 'nova', cluster: 'nova', user: 'user' }],
    currentContext: 'nova',
  });
  return kc;
}

/** PIDs the sandbox recorded for pods of a namespace in one cluster. */
function podPids(cluster: string, namespace: string): Record<string, number> {
  const record = readState(sandboxDir)?.clusters.find((c) => c.context === cluster);
  return Object.fromEntries(Object.entries(record?.podProcesses ?? {}).filter(([k]) => k.startsWith(`${namespace}/`)));
}

const isReady = (p: V1Pod | undefined) => p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

async function readyPod(api: CoreV1Api, namespace: string, selector: string, timeoutMs = 150_000): Promise<V1Pod> {
  return eventually(
    `${namespace} ${selector} Ready`,
    async () =>
      (await api.listNamespacedPod({ namespace, labelSelector: selector })).items.find((p) => !p.metadata?.deletionTimestamp && isReady(p)),
    timeoutMs,
    500,
  );
}

async function warnings(api: CoreV1Api, namespace: string, reason: string): Promise<string[]> {
  const events = (await api.listNamespacedEvent({ namespace, fieldSelector: 'type=Warning' })).items;
  return events.filter((e) => e.reason === reason).map((e) => e.message ?? '');
}

async function deleteNamespace(api: CoreV1Api, name: string): Promise<void> {
  await api.deleteNamespace({ name }).catch(ignore(404));
}

const seenPids: number[] = [];
let lbIP = '';
let server = '';
let pki: Awaited<ReturnType<typeof controlPlanePki>>;

describe('the sandbox runs a Nova control plane for real', () => {
  afterAll(async () => {
    // Whatever a failed test left behind.
    await Promise.allSettled([
      deleteNamespace(core, NS),
      deleteNamespace(makeClient(workload1, CoreV1Api), AGENT_NS),
      deleteNamespace(makeClient(workload1, CoreV1Api), HOSTNAME_AGENT_NS),
      deleteNamespace(makeClient(workload2, CoreV1Api), AGENT_NS),
    ]);
  });

  it('runs etcd and kube-apiserver pods as processes, reachable through the load balancer with the CA verified', async () => {
    await createNamespace(core, NS);
    await core.createNamespacedService({ namespace: NS, body: apiserverService(NS) });
    lbIP = await eventually('LoadBalancer IP', async () => {
      const s = await core.readNamespacedService({ name: 'apiserver', namespace: NS });
      return s.status?.loadBalancer?.ingress?.[0]?.ip;
    });
    server = `https://${lbIP}:443`;
    await core.createNamespacedService({ namespace: NS, body: apiserverService(NS, BY_NAME, { [LB_HOSTNAME_ANNOTATION]: 'true' }) });
    pki = await controlPlanePki(NS, lbIP, { extraHosts: [LB_HOSTNAME] });
    for (const body of pki.secrets) await core.createNamespacedSecret({ namespace: NS, body });
    await core.createNamespacedService({ namespace: NS, body: etcdService(NS) });
    const apps = makeClient(hosting, AppsV1Api);
    await apps.createNamespacedStatefulSet({ namespace: NS, body: etcdStatefulSet(NS) });
    await apps.createNamespacedDeployment({ namespace: NS, body: apiserverDeployment(NS) });

    const etcd = await readyPod(core, NS, 'app=etcd');
    const apiserver = await readyPod(core, NS, 'component=apiserver');
    // Pod IPs stay what Endpoints accept; the processes listen on their own loopback addresses.
    expect(etcd.status?.podIP).not.toMatch(/^127\./);
    expect(apiserver.status?.containerStatuses?.[0]).toMatchObject({ ready: true, restartCount: 0 });
    // Its container log (through the API server and the node's kubelet endpoint) is etcd's own output.
    const etcdLog = await eventually(
      'etcd log',
      async () => {
        const text = await core.readNamespacedPodLog({ name: etcd.metadata!.name!, namespace: NS, container: 'etcd' });
        return /etcdserver|embed|"level"/.test(text) ? text : undefined;
      },
      30_000,
      500,
    );
    expect(etcdLog).not.toMatch(/sandbox:/);

    const admin = clientConfig(server, pki.ca.certPem, pki.admin);
    const version = await eventually('/version through the load balancer', () => makeClient(admin, VersionApi).getCode(), 60_000, 500);
    expect(version.gitVersion).toBe('v1.20.2');
    // `default` appears a moment after the API server starts serving.
    const namespaces = await eventually(
      'namespaces of the new control plane',
      async () => {
        const names = (await makeClient(admin, CoreV1Api).listNamespace()).items.map((n) => n.metadata?.name);
        return names.includes('default') && names.includes('kube-system') ? names : undefined;
      },
      30_000,
      500,
    );
    expect(namespaces).toEqual(expect.arrayContaining(['default', 'kube-system']));

    // Recorded in the state, so `sandbox down` stops them even without the supervisor.
    const pids = podPids('kind-cp', NS);
    expect(
      Object.keys(pids)
        .map((k) => k.split('/')[2]?.split('@')[0])
        .sort(),
    ).toEqual(['etcd', 'kube-apiserver']);
    for (const pid of Object.values(pids)) {
      expect(isOurs(pid, sandboxDir)).toBe(true);
      seenPids.push(pid);
    }
    // Names resolve for the processes as inside a cluster.
    const hosts = fs.readFileSync(path.join(sandboxDir, 'clusters', 'cp', 'hosts'), 'utf8');
    expect(hosts).toMatch(new RegExp(`^127\\.4\\.\\S+\\t.*\\betcd-0\\.etcd\\.${NS}\\.svc\\.cluster\\.local\\b`, 'm'));
  });

  it('a hostname ingress resolves, for the processes, to an address that forwards the same way', async () => {
    const hostsFile = path.join(sandboxDir, 'clusters', 'cp', 'hosts');
    const vip = await eventually('hostname in the hosts file', () => {
      const line = fs
        .readFileSync(hostsFile, 'utf8')
        .split('\n')
        .find((l) => l.endsWith(`\t${LB_HOSTNAME}`));
      return line?.split('\t')[0];
    });
    // Every cluster's processes resolve it (a load balancer's name is public).
    expect(fs.readFileSync(path.join(sandboxDir, 'clusters', 'workload-1', 'hosts'), 'utf8')).toContain(`${vip}\t${LB_HOSTNAME}\n`);
    // The machine's own resolver does not know it: connect to the address, verify the name.
    const body = await eventually(
      '/version through the hostname address',
      () =>
        new Promise<string>((resolve, reject) => {
          const req = https.get(
            {
              host: vip,
              port: 443,
              path: '/version',
              servername: LB_HOSTNAME,
              ca: pki.ca.certPem,
              cert: pki.admin.certPem,
              key: pki.admin.keyPem,
              timeout: 5000,
            },
            (res) => {
              let text = '';
              res.on('data', (d: Buffer) => (text += d.toString()));
              res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${res.statusCode}`))));
            },
          );
          req.on('error', reject);
        }),
      30_000,
      500,
    );
    expect(JSON.parse(body)).toMatchObject({ gitVersion: 'v1.20.2' });
  });

  it('a client trusting another CA fails with a TLS error', async () => {
    const foreign = await createAuthority('not-nova-ca', 1);
    const kc = clientConfig(server, foreign.certPem, pki.admin);
    const err = await makeClient(kc, VersionApi)
      .getCode()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeDefined();
    expect(describeError(err)).toMatch(/^TLS: /);
  });

  it('the agent registers its Cluster with the init kubeconfig and keeps it Ready', async () => {
    const admin = clientConfig(server, pki.ca.certPem, pki.admin);
    const ext = makeClient(admin, ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({ body: CLUSTER_CRD });
    await eventually('Cluster CRD established', async () => {
      const c = await ext.readCustomResourceDefinition({ name: CLUSTER_CRD.metadata!.name! });
      return c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True');
    });
    const { role, binding } = agentRbac();
    const rbac = makeClient(admin, RbacAuthorizationV1Api);
    await rbac.createClusterRole({ body: role });
    await rbac.createClusterRoleBinding({ body: binding });

    const w1 = makeClient(workload1, CoreV1Api);
    await createNamespace(w1, AGENT_NS);
    await w1.createNamespacedSecret({
      namespace: AGENT_NS,
      body: initKubeconfigSecret(AGENT_NS, kubeconfigText(server, pki.ca.certPem, pki.bootstrap)),
    });
    await makeClient(workload1, AppsV1Api).createNamespacedDeployment({
      namespace: AGENT_NS,
      body: agentDeployment(AGENT_NS, 'kind-workload-1'),
    });

    const custom = makeClient(admin, CustomObjectsApi);
    type Cluster = { spec?: Record<string, string>; status?: { lastUpdateTime?: string; conditions?: { type: string; status: string }[] } };
    const read = async () => (await custom.getClusterCustomObject({ ...CLUSTERS, name: 'kind-workload-1' })) as Cluster;
    const cluster = await eventually(
      'Cluster kind-workload-1 Ready',
      async () => {
        const c = await read();
        return c.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True' ? c : undefined;
      },
      60_000,
      500,
    );
    expect(cluster.spec).toMatchObject({
      name: 'kind-workload-1',
      kubernetescluster: 'kind-workload-1',
      kubernetesversion: 'v1.20.2',
      region: 'sandbox',
    });
    expect(cluster.spec?.zone).toMatch(/^zone-[abc]$/);
    expect(Object.fromEntries((cluster.status?.conditions ?? []).map((c) => [c.type, c.status]))).toEqual({
      Ready: 'True',
      Idle: 'True',
      Standby: 'False',
    });
    const agent = await readyPod(w1, AGENT_NS, 'app=nova-agent', 30_000);
    const agentLog = await eventually(
      'agent log',
      async () => {
        const text = await w1.readNamespacedPodLog({ name: agent.metadata!.name!, namespace: AGENT_NS });
        return text.includes('registered cluster "kind-workload-1"') ? text : undefined;
      },
      30_000,
      500,
    );
    expect(agentLog).toContain(`control plane server: ${server}`);
    // The heartbeat: the status is written again every 10 s.
    await eventually('a heartbeat', async () => (await read()).status?.lastUpdateTime !== cluster.status?.lastUpdateTime, 30_000, 1000);

    // An agent given the hostname address reaches the control plane the same way.
    await createNamespace(w1, HOSTNAME_AGENT_NS);
    const byName = kubeconfigText(`https://${LB_HOSTNAME}:443`, pki.ca.certPem, pki.bootstrap);
    await w1.createNamespacedSecret({ namespace: HOSTNAME_AGENT_NS, body: initKubeconfigSecret(HOSTNAME_AGENT_NS, byName) });
    await makeClient(workload1, AppsV1Api).createNamespacedDeployment({
      namespace: HOSTNAME_AGENT_NS,
      body: agentDeployment(HOSTNAME_AGENT_NS, 'registered-by-name'),
    });
    await eventually(
      'Cluster registered-by-name Ready',
      async () => {
        const c = (await custom.getClusterCustomObject({ ...CLUSTERS, name: 'registered-by-name' })) as Cluster;
        return c.status?.conditions?.find((x) => x.type === 'Ready')?.status === 'True';
      },
      60_000,
      500,
    );
  });

  it('an agent whose client certificate comes from a foreign CA never registers, and a Warning event says why', async () => {
    const foreign = await createAuthority('foreign-ca', 1);
    const client = await issueCertificate(foreign, {
      commonName: 'nova-agent-bootstrap',
      organizations: ['nova:agents'],
      usage: 'client',
      days: 1,
    });
    const w2 = makeClient(workload2, CoreV1Api);
    await createNamespace(w2, AGENT_NS);
    await w2.createNamespacedSecret({
      namespace: AGENT_NS,
      body: initKubeconfigSecret(AGENT_NS, kubeconfigText(server, pki.ca.certPem, client)),
    });
    await makeClient(workload2, AppsV1Api).createNamespacedDeployment({
      namespace: AGENT_NS,
      body: agentDeployment(AGENT_NS, 'kind-workload-2'),
    });

    const messages = await eventually(
      'registration warning',
      async () => {
        const m = await warnings(w2, AGENT_NS, 'ClusterRegistrationFailed');
        return m.length > 0 ? m : undefined;
      },
      60_000,
      500,
    );
    expect(messages[0]).toMatch(/cannot register cluster "kind-workload-2" .*HTTP 401/);
    const pods = (await w2.listNamespacedPod({ namespace: AGENT_NS, labelSelector: 'app=nova-agent' })).items;
    expect(pods.map((p) => [p.status?.phase, isReady(p)])).toEqual([['Running', false]]);
    // Attempts later, still nothing. Each attempt reads the agent's Secret again (the audit log
    // shows the sandbox's reads): after the second read since now, the attempt before it ended.
    const auditLog = readState(sandboxDir)!.clusters.find((c) => c.context === 'kind-workload-2')!.auditLog;
    const since = new Date();
    await eventually(
      'two more registration attempts',
      () =>
        readAuditEvents(auditLog, { since, user: SIM_USER }).filter(
          (e) =>
            e.verb === 'get' &&
            e.objectRef?.resource === 'secrets' &&
            e.objectRef.namespace === AGENT_NS &&
            e.objectRef.name === 'nova-cluster-init-kubeconfig',
        ).length >= 2,
      60_000,
      500,
    );
    const admin = clientConfig(server, pki.ca.certPem, pki.admin);
    const missing = await makeClient(admin, CustomObjectsApi)
      .getClusterCustomObject({ ...CLUSTERS, name: 'kind-workload-2' })
      .catch((e: unknown) => e);
    expect(statusCode(missing)).toBe(404);
    // Its container log says why, once for the same error however many attempts failed.
    const agentLog = await w2.readNamespacedPodLog({ name: pods[0]!.metadata!.name!, namespace: AGENT_NS });
    const errors = agentLog.split('\n').filter((l) => l.includes('ERROR'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/cannot register cluster "kind-workload-2" .*HTTP 401/);
  });

  it('a process that exits is restarted with back-off and reported as CrashLoopBackOff', async () => {
    await core.createNamespacedPod({
      namespace: NS,
      body: {
        metadata: { name: 'crashing-etcd', labels: { app: 'crashing' } },
        spec: { containers: [{ name: 'etcd', image: ETCD_IMAGE, command: ['etcd'], args: ['--no-such-flag'] }] },
      },
    });
    const status = await eventually(
      'CrashLoopBackOff',
      async () => {
        const p = await core.readNamespacedPod({ name: 'crashing-etcd', namespace: NS });
        const c = p.status?.containerStatuses?.[0];
        return c?.state?.waiting?.reason === 'CrashLoopBackOff' ? c : undefined;
      },
      60_000,
      500,
    );
    expect(status.restartCount).toBeGreaterThanOrEqual(1);
    expect(status.lastState?.terminated?.exitCode).not.toBe(0);
    expect(await warnings(core, NS, 'BackOff')).not.toEqual([]);
    const log = sandboxContainerLog(path.join(sandboxDir, 'clusters', 'cp'), NS, 'crashing-etcd', 'etcd');
    expect(log).toMatch(/no-such-flag/);
  });

  it('a serving certificate without the load balancer address fails hostname verification', async () => {
    const serving = await apiserverServing(pki.ca, NS, undefined);
    await core.replaceNamespacedSecret({
      name: 'nova-apiserver-certs',
      namespace: NS,
      body: apiserverSecret(NS, pki, serving, pki.apiserverRest),
    });
    const before = await readyPod(core, NS, 'component=apiserver');
    await core.deleteNamespacedPod({ name: before.metadata!.name!, namespace: NS });
    await eventually(
      'a new apiserver pod Ready',
      async () => {
        const p = await readyPod(core, NS, 'component=apiserver');
        return p.metadata?.uid !== before.metadata?.uid;
      },
      150_000,
      500,
    );
    for (const pid of Object.values(podPids('kind-cp', NS))) seenPids.push(pid);
    const admin = clientConfig(server, pki.ca.certPem, pki.admin);
    const message = await eventually(
      'hostname verification failure',
      () =>
        makeClient(admin, VersionApi)
          .getCode()
          .then(
            () => undefined,
            (e: unknown) => describeError(e),
          ),
      60_000,
      500,
    );
    expect(message).toBe('TLS: certificate is not valid for this host name');
    // And the agent that was connected loses its Ready condition, saying why.
    const w1 = makeClient(workload1, CoreV1Api);
    await eventually(
      'agent not Ready',
      async () => {
        const pods = (await w1.listNamespacedPod({ namespace: AGENT_NS, labelSelector: 'app=nova-agent' })).items;
        return pods.length === 1 && !isReady(pods[0]);
      },
      60_000,
      500,
    );
    // The first failure may be the old server's connection going away (reset); the next
    // heartbeat (10 s) meets the new certificate.
    await eventually(
      'a ClusterRegistrationFailed event for the host name',
      async () => (await warnings(w1, AGENT_NS, 'ClusterRegistrationFailed')).some((m) => /not valid for this host name/.test(m)),
      30_000,
      500,
    );
  });

  it('deleting the namespaces stops every process and the forwarding', async () => {
    for (const pid of Object.values(podPids('kind-cp', NS))) seenPids.push(pid);
    expect(seenPids.length).toBeGreaterThanOrEqual(3);
    await deleteNamespace(core, NS);
    await deleteNamespace(makeClient(workload1, CoreV1Api), AGENT_NS);
    await deleteNamespace(makeClient(workload1, CoreV1Api), HOSTNAME_AGENT_NS);
    await deleteNamespace(makeClient(workload2, CoreV1Api), AGENT_NS);
    await eventually(
      'namespace gone',
      () =>
        core.readNamespace({ name: NS }).then(
          () => false,
          (e: unknown) => statusCode(e) === 404,
        ),
      150_000,
      500,
    );
    await eventually('processes gone', () => seenPids.every((p) => !isOurs(p, sandboxDir)), 30_000, 200);
    expect(podPids('kind-cp', NS)).toEqual({});
    const refused = await eventually(
      'load balancer closed',
      () =>
        new Promise<boolean>((resolve) => {
          const s = net.connect({ host: lbIP, port: 443 });
          s.once('connect', () => {
            s.destroy();
            resolve(false);
          });
          s.once('error', () => resolve(true));
        }),
    );
    expect(refused).toBe(true);
  });
});
