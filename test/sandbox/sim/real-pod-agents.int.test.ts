/**
 * Nova agents of workload clusters against a control plane the sandbox runs for real: one that
 * registers its Cluster (by address and by hostname), one whose certificate comes from a foreign
 * CA, and a serving certificate without the load balancer's address.
 */
import { ApiextensionsV1Api, AppsV1Api, CoreV1Api, CustomObjectsApi, RbacAuthorizationV1Api, VersionApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeError, makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';
import { readAuditEvents } from '../../../src/sandbox/audit.js';
import { SIM_USER } from '../../../src/sandbox/credentials.js';
import { readState } from '../../../src/sandbox/state.js';
import { eventually } from '../../helpers/cli/cli.js';
import {
  CLUSTER_CRD,
  type controlPlanePki,
  agentDeployment,
  agentRbac,
  apiserverSecret,
  apiserverServing,
  initKubeconfigSecret,
  kubeconfigText,
} from '../../helpers/sandbox/control-plane.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import {
  CLUSTERS,
  clientConfig,
  core,
  deleteNamespace,
  deployControlPlane,
  isReady,
  lbHostname,
  readyPod,
  sandboxDir,
  warnings,
  workload1,
  workload2,
} from './real-control-plane.js';

const NS = 'cp-real-agents';
const AGENT_NS = 'cp-real-agent';
const HOSTNAME_AGENT_NS = 'cp-real-agent-by-name';
const LB_HOSTNAME = lbHostname(NS);

let server = '';
let pki: Awaited<ReturnType<typeof controlPlanePki>>;

describe('the sandbox runs a Nova control plane for real', () => {
  beforeAll(async () => {
    ({ server, pki } = await deployControlPlane(NS));
    await readyPod(core, NS, 'app=etcd');
    await readyPod(core, NS, 'component=apiserver');
    // Serving, its bootstrap done (`default` appears a moment after the API server starts serving).
    const admin = makeClient(clientConfig(server, pki.ca.certPem, pki.admin), CoreV1Api);
    await eventually(
      'namespaces of the new control plane',
      async () => {
        const names = (await admin.listNamespace()).items.map((n) => n.metadata?.name);
        return names.includes('default') && names.includes('kube-system');
      },
      60_000,
      500,
    );
  }, 400_000);

  afterAll(async () => {
    await Promise.allSettled([
      deleteNamespace(core, NS),
      deleteNamespace(makeClient(workload1, CoreV1Api), AGENT_NS),
      deleteNamespace(makeClient(workload1, CoreV1Api), HOSTNAME_AGENT_NS),
      deleteNamespace(makeClient(workload2, CoreV1Api), AGENT_NS),
    ]);
    // Its processes stopped before the next file starts.
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
  }, 200_000);

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
});
