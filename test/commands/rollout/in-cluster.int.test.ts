/**
 * Rollouts run in the cluster, on the sandbox (kind-workload-1), through the built CLI: `create --in-cluster` returns once
 * the runner's Job pod runs and the rollout completes with nothing of this test's running it; the runner's pod killed
 * mid-drain is replaced by the Job and the new pod takes the expired Lease over and finishes; a local `resume` meanwhile is
 * refused naming the holder; `abort` as another user stops the runner and uncordons; the runner's account cannot read
 * Secrets; `rollout cleanup` removes the Jobs and the RBAC.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  AppsV1Api,
  AuthorizationV1Api,
  BatchV1Api,
  CoordinationV1Api,
  CoreV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  RbacAuthorizationV1Api,
  setHeaderOptions,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { readRollout } from '../../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE, type RolloutState } from '../../../src/rollout/types.js';
import { CLI, eventually, runCli } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandboxContainerLog } from '../../helpers/sandbox/container-logs.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const sandboxDir = sandbox().dir;
const CONTEXT = 'kind-workload-1';
const RUNNER_NS = 'fleetdeck-system';
const HOSTNAME = 'kubernetes.io/hostname';
const suffix = Math.random().toString(36).slice(2, 7);
const NS = `ro-ic-${suffix}`;
const IMAGE = 'ghcr.io/fleetdeck/fleetdeck:test';
const QUICK = ['--health-passes', '1', '--health-interval', '1s', '--replace', 'uncordon', '--yes'];
/** In the cluster, beside any other rollout of it: another file's, on the shared fleet, must not hold these. */
const FAST = [...QUICK, '--in-cluster', '--image', IMAGE, '--concurrent'];
let kc: KubeConfig;
let core: CoreV1Api;
let objects: KubernetesObjectApi;
let workers: string[] = [];
const names: string[] = [];

const cli = (args: string[], config = kubeconfig) =>
  runCli(['--kubeconfig', config, ...args, '--context', CONTEXT], { timeoutMs: 180_000 });

async function record(name: string): Promise<RolloutState> {
  const s = await readRollout(kc, name);
  if (!s) throw new Error(`no rollout ${name}`);
  return s.state;
}

const leaseHolder = async (name: string) =>
  (await makeClient(kc, CoordinationV1Api, 30_000).readNamespacedLease({ name: configMapName(name), namespace: ROLLOUT_NAMESPACE })).spec;

/** The runner pods of a rollout (every attempt), oldest first. */
async function runnerPods(name: string) {
  const pods = await core.listNamespacedPod({ namespace: RUNNER_NS, labelSelector: `fleetdeck.io/rollout=${name}` });
  return pods.items.sort((a, b) => String(a.metadata?.creationTimestamp).localeCompare(String(b.metadata?.creationTimestamp)));
}

/** What the runner's container wrote: the sandbox's kubelet keeps it per pod and container, as a node's kubelet does. */
const containerLog = (pod: string) => sandboxContainerLog(path.join(sandboxDir, 'clusters', 'workload-1'), RUNNER_NS, pod, 'runner');

/** A Deployment of one pod on `node` with a budget that allows no disruption: its drain waits until the budget goes. */
async function heldPod(node: string, app: string): Promise<void> {
  await makeClient(kc, AppsV1Api, 30_000).createNamespacedDeployment({
    namespace: NS,
    body: {
      metadata: { name: app },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app } },
        template: {
          metadata: { labels: { app } },
          spec: {
            containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }],
            terminationGracePeriodSeconds: 1,
            nodeSelector: { [HOSTNAME]: node },
          },
        },
      },
    },
  });
  await eventually(
    `${app} running`,
    async () =>
      (await core.listNamespacedPod({ namespace: NS, labelSelector: `app=${app}` })).items.some((p) => p.status?.phase === 'Running'),
    90_000,
  );
  await objects.create({
    apiVersion: 'policy/v1beta1',
    kind: 'PodDisruptionBudget',
    metadata: { name: app, namespace: NS },
    spec: { minAvailable: 1, selector: { matchLabels: { app } } },
  } as KubernetesObject);
  await eventually(`${app}'s budget allows no disruption`, async () => {
    const list = (await makeClient(kc, KubernetesObjectApi, 30_000).list('policy/v1beta1', 'PodDisruptionBudget', NS)) as unknown as {
      items: { metadata: { name: string }; status?: { currentHealthy?: number; disruptionsAllowed?: number } }[];
    };
    const s = list.items.find((p) => p.metadata.name === app)?.status;
    return s?.currentHealthy === 1 && s.disruptionsAllowed === 0;
  });
}

const release = (app: string) =>
  objects.delete({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { name: app, namespace: NS } } as KubernetesObject);

/** A kubeconfig for a ServiceAccount's token (another user than the sandbox's admin). */
async function tokenKubeconfig(namespace: string, sa: string, file: string): Promise<string> {
  const token = await eventually(`the token of ${namespace}/${sa}`, async () => {
    const acct = await core.readNamespacedServiceAccount({ name: sa, namespace });
    const secret = acct.secrets?.[0]?.name;
    const s = secret ? await core.readNamespacedSecret({ name: secret, namespace }) : undefined;
    return s?.data?.token ? Buffer.from(s.data.token, 'base64').toString() : undefined;
  });
  const cluster = kc.getCurrentCluster()!;
  const out = new KubeConfig();
  out.loadFromOptions({
    clusters: [{ ...cluster, name: CONTEXT }],
    users: [{ name: sa, token }],
    contexts: [{ name: CONTEXT, cluster: CONTEXT, user: sa }],
    currentContext: CONTEXT,
  });
  fs.writeFileSync(file, out.exportConfig(), { mode: 0o600 });
  return file;
}

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  core = makeClient(kc, CoreV1Api, 30_000);
  objects = makeClient(kc, KubernetesObjectApi, 30_000);
  const nodes = (await core.listNode()).items.filter(
    (n) => n.metadata?.labels?.['node-role.kubernetes.io/worker'] !== undefined && !n.spec?.unschedulable,
  );
  workers = nodes.map((n) => n.metadata!.name!).sort();
  if (workers.length < 3) throw new Error(`kind-workload-1 has ${workers.length} schedulable workers, the test needs 3`);
  await createNamespace(core, NS);
});

afterAll(async () => {
  for (const w of workers)
    await core
      .patchNode({ name: w, body: { spec: { unschedulable: null } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch))
      .catch(() => {});
  const batch = makeClient(kc, BatchV1Api, 30_000);
  for (const n of names) {
    await core.deleteNamespacedConfigMap({ name: configMapName(n), namespace: ROLLOUT_NAMESPACE }).catch(() => {});
    await batch
      .deleteCollectionNamespacedJob({ namespace: RUNNER_NS, labelSelector: `fleetdeck.io/rollout=${n}`, propagationPolicy: 'Background' })
      .catch(() => {});
  }
  await core.deleteNamespace({ name: NS }).catch(() => {});
});

describe('a rollout run in the cluster', () => {
  it('create returns once its Job runs; the Job completes it with nothing here; its log, Lease and the Nodes’ Events say so', async () => {
    const name = `ic-done-${suffix}`;
    names.push(name);
    const [a, b] = workers;
    const create = await cli(['rollout', 'create', '--node', a!, '--node', b!, '--name', name, ...FAST]);
    expect(create.code, create.stderr + create.stdout).toBe(0);
    expect(create.stderr).toBe('');
    // The dry run shows the RBAC it creates; the end says where the run is.
    expect(create.stdout).toContain('ClusterRole fleetdeck-rollout-runner: nodes: get,list,watch,patch;');
    expect(create.stdout).toMatch(
      new RegExp(
        `Rollout ${name} runs in the cluster: Job ${RUNNER_NS}/runner-${name}-1, pod runner-${name}-1-\\w+ on node \\S+\\. Nothing more runs here\\.`,
      ),
    );
    expect(create.stdout).toContain(`fleetdeck rollout watch ${name} --context ${CONTEXT}`);

    // The CLI has exited: from here on only the Job runs it.
    const done = await eventually(
      'the rollout completes',
      async () => ((await record(name)).phase === 'Completed' ? record(name) : undefined),
      240_000,
      500,
    );
    expect(done.nodes.map((n) => n.phase)).toEqual(['done', 'done']);
    expect(done.runner).toEqual({ namespace: RUNNER_NS, job: `runner-${name}-1`, image: IMAGE });
    expect(done.log.some((l) => /started by pod\/runner-/.test(l.message))).toBe(true);
    const job = await eventually(
      'the Job is complete',
      async () => {
        const j = await makeClient(kc, BatchV1Api, 30_000).readNamespacedJob({ name: `runner-${name}-1`, namespace: RUNNER_NS });
        return j.status?.succeeded === 1 ? j : undefined;
      },
      60_000,
    );
    expect(job.status?.failed ?? 0).toBe(0);
    const [pod] = await runnerPods(name);
    expect(pod?.spec?.nodeName).not.toBe(a);
    expect(pod?.spec?.nodeName).not.toBe(b);
    const log = containerLog(pod!.metadata!.name!);
    expect(log).toMatch(new RegExp(`${a} \\(priority 0\\): cordoned`));
    expect(log).toContain(`Rollout ${name} completed: 2/2 nodes done.`);
    // The Lease was held by the pod and given back.
    expect((await leaseHolder(name))?.holderIdentity ?? '').toBe('');
    // kubectl describe node tells what was done, and by whom.
    const events = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${a}` });
    // (An earlier rollout may have left Events on the node too: these are this run's pod's.)
    const ours = events.items.filter((e) => e.reportingComponent === 'fleetdeck' && e.reportingInstance?.includes(pod!.metadata!.name!));
    expect(ours.map((e) => e.reason)).toEqual(expect.arrayContaining(['NodeCordoned', 'DrainStarted', 'Drained', 'NodeUncordoned']));
    expect(ours.every((e) => e.involvedObject.kind === 'Node' && e.involvedObject.uid)).toBe(true);
    for (const n of [a, b]) expect((await core.readNode({ name: n! })).spec?.unschedulable).toBeFalsy();
  });

  it('its pod killed mid-drain: a local resume is refused meanwhile, another user aborts a second one; the Job’s next pod takes over and finishes', async () => {
    const name = `ic-kill-${suffix}`;
    names.push(name);
    const node = workers[2]!;
    await heldPod(node, 'held');
    const create = await cli(['rollout', 'create', '--node', node, '--name', name, ...FAST]);
    expect(create.code, create.stderr + create.stdout).toBe(0);
    await eventually(
      'the runner drains the node, blocked by the budget',
      async () => (await record(name)).nodes[0]?.blockingPdb?.name === 'held',
      120_000,
      500,
    );
    const [first] = await runnerPods(name);
    const holder = (await leaseHolder(name))?.holderIdentity ?? '';
    expect(holder).toContain(first!.metadata!.name!);

    // A local resume while the pod holds the Lease: refused, naming the holder.
    const local = await cli(['rollout', 'resume', name]);
    expect(local.code).toBe(1);
    expect(local.stderr).toContain(`rollout ${name} is being run by ${holder}`);
    expect(local.stderr.trim().split('\n')).toHaveLength(1);

    // The runner's account: what a drain needs, and no Secrets.
    const runnerKc = await tokenKubeconfig(RUNNER_NS, 'fleetdeck-rollout-runner', path.join(sandboxDir, `runner-${suffix}.kubeconfig`));
    const auth = makeClient(configForContext(loadKubeconfig({ kubeconfig: runnerKc }).config, CONTEXT), AuthorizationV1Api, 30_000);
    const can = async (verb: string, resource: string, namespace?: string, subresource?: string) =>
      (
        await auth.createSelfSubjectAccessReview({
          body: {
            spec: { resourceAttributes: { verb, resource, ...(namespace ? { namespace } : {}), ...(subresource ? { subresource } : {}) } },
          },
        })
      ).status?.allowed === true;
    expect(await can('patch', 'nodes')).toBe(true);
    expect(await can('create', 'pods', NS, 'eviction')).toBe(true);
    expect(await can('list', 'secrets', NS)).toBe(false);
    expect(await can('get', 'secrets', 'kube-system')).toBe(false);
    expect(await can('delete', 'nodes')).toBe(false);
    expect(await can('create', 'deployments', NS)).toBe(false);

    // SIGKILL: the pod is gone at once; the Job starts another, which waits out the Lease.
    await core.deleteNamespacedPod({ name: first!.metadata!.name!, namespace: RUNNER_NS, gracePeriodSeconds: 0 });
    const second = await eventually(
      'the Job starts another pod',
      async () => (await runnerPods(name)).find((p) => p.metadata?.name !== first!.metadata!.name),
      120_000,
      500,
    );
    await eventually(
      'the new pod holds the Lease',
      async () => ((await leaseHolder(name))?.holderIdentity ?? '').includes(second.metadata!.name!),
      120_000,
      500,
    );
    const lease = await leaseHolder(name);
    expect(lease?.leaseTransitions).toBeGreaterThanOrEqual(1);
    await release('held');
    const done = await eventually(
      'the rollout completes',
      async () => ((await record(name)).phase === 'Completed' ? record(name) : undefined),
      180_000,
      500,
    );
    expect(done.nodes[0]?.phase).toBe('done');
    expect(done.log.some((l) => l.message.includes(`resumed by pod/${second.metadata!.name}`))).toBe(true);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBeFalsy();

    // Another user (an operator's ServiceAccount bound to cluster-admin) aborts a run in the cluster.
    const other = `ic-abort-${suffix}`;
    names.push(other);
    await heldPod(node, 'held2');
    const started = await cli(['rollout', 'create', '--node', node, '--name', other, ...FAST]);
    expect(started.code, started.stderr + started.stdout).toBe(0);
    await eventually(
      'the second rollout is blocked in the drain',
      async () => (await record(other)).nodes[0]?.blockingPdb?.name === 'held2',
      120_000,
      500,
    );
    await core.createNamespacedServiceAccount({ namespace: NS, body: { metadata: { name: 'operator-2' } } });
    await makeClient(kc, RbacAuthorizationV1Api, 30_000).createClusterRoleBinding({
      body: {
        metadata: { name: `ic-operator-2-${suffix}` },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: [{ kind: 'ServiceAccount', name: 'operator-2', namespace: NS }],
      },
    });
    try {
      const otherKc = await tokenKubeconfig(NS, 'operator-2', path.join(sandboxDir, `operator-${suffix}.kubeconfig`));
      const abort = await cli(['rollout', 'abort', other, '--yes'], otherKc);
      expect(abort.code, abort.stderr + abort.stdout).toBe(0);
      expect(abort.stdout).toContain(`uncordoned ${node}`);
      expect((await record(other)).phase).toBe('Aborted');
      expect((await core.readNode({ name: node })).spec?.unschedulable).toBeFalsy();
      await eventually(
        'the runner of the aborted rollout ends, its Job complete',
        async () => {
          const j = await makeClient(kc, BatchV1Api, 30_000).readNamespacedJob({ name: `runner-${other}-1`, namespace: RUNNER_NS });
          return j.status?.succeeded === 1;
        },
        90_000,
      );
    } finally {
      await makeClient(kc, RbacAuthorizationV1Api, 30_000)
        .deleteClusterRoleBinding({ name: `ic-operator-2-${suffix}` })
        .catch(() => {});
    }
  });

  it('paused for a node, its Job ends (nothing retries it); resume --in-cluster starts a new Job that finishes it', async () => {
    const name = `ic-pause-${suffix}`;
    names.push(name);
    const node = workers[1]!;
    await heldPod(node, 'held3');
    // A drain that cannot finish within 2 s pauses the rollout: an outcome that waits for an operator.
    const create = await cli(['rollout', 'create', '--node', node, '--name', name, '--timeout', '2s', ...FAST]);
    expect(create.code, create.stderr + create.stdout).toBe(0);
    const paused = await eventually(
      'the rollout pauses',
      async () => ((await record(name)).phase === 'Paused' ? record(name) : undefined),
      120_000,
      500,
    );
    expect(paused.message).toMatch(/timed out/);
    const batch = makeClient(kc, BatchV1Api, 30_000);
    await eventually(
      'its Job completes, with no pod after the first',
      async () => {
        const j = await batch.readNamespacedJob({ name: `runner-${name}-1`, namespace: RUNNER_NS });
        return j.status?.succeeded === 1 && (j.status.failed ?? 0) === 0;
      },
      60_000,
    );

    await release('held3');
    const resumed = await cli(['rollout', 'resume', name, '--in-cluster', '--image', IMAGE, '--yes']);
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain(`Rollout ${name} runs in the cluster: Job ${RUNNER_NS}/runner-${name}-2`);
    const done = await eventually(
      'the rollout completes',
      async () => ((await record(name)).phase === 'Completed' ? record(name) : undefined),
      120_000,
      500,
    );
    expect(done.runner?.job).toBe(`runner-${name}-2`);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBeFalsy();
  });

  it('rollout cleanup deletes the finished Jobs and, with nothing running, the runner’s account and RBAC', async () => {
    const plan = await cli(['rollout', 'cleanup', '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`delete Job ${RUNNER_NS}/runner-${names[0]}-1: finished (succeeded)`);
    expect(plan.stdout).toContain('  delete ClusterRole fleetdeck-rollout-runner\n');
    const clean = await cli(['rollout', 'cleanup', '--yes', '-o', 'json']);
    expect(clean.code, clean.stderr).toBe(0);
    const result = JSON.parse(clean.stdout.trim().split('\n').at(-1)!) as { deleted: string[]; keptFor: string[] };
    expect(result.keptFor).toEqual([]);
    expect(result.deleted).toEqual(
      expect.arrayContaining(['ClusterRole fleetdeck-rollout-runner', `ServiceAccount ${RUNNER_NS}/fleetdeck-rollout-runner`]),
    );
    expect(
      (
        await makeClient(kc, BatchV1Api, 30_000).listNamespacedJob({
          namespace: RUNNER_NS,
          labelSelector: 'app.kubernetes.io/managed-by=fleetdeck',
        })
      ).items.filter((j) => !j.metadata?.deletionTimestamp),
    ).toEqual([]);
    // Deleted in the foreground: gone once the garbage collector has let it go.
    await eventually('the ClusterRole is gone', () =>
      makeClient(kc, RbacAuthorizationV1Api, 30_000)
        .readClusterRole({ name: 'fleetdeck-rollout-runner' })
        .then(
          () => false,
          (err: { code?: number }) => err.code === 404,
        ),
    );
    // Nothing left: the plan says so and lists nothing to delete.
    const again = await cli(['rollout', 'cleanup', '--dry-run']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).not.toMatch(/^ {2}delete /m);
    expect(again.stdout).toContain(`nothing to delete: no finished runner Job, and the runner's account is not in namespace ${RUNNER_NS}`);
  });
});
