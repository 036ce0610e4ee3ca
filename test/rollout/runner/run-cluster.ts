/**
 * The sandbox cluster (kind-workload-1) of the rollout workflow's tests: clients, the namespaces
 * of the file's tests, deployments, PDBs, nodes, rollout states, the built CLI (dist/cli.js: `npm
 * run build` first). Every node a test file labels, annotates or cordons is put back; every
 * rollout ConfigMap it creates is deleted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  AppsV1Api,
  CoreV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type KubernetesObject,
  type V1Node,
  type V1Pod,
  type V1PodSpec,
} from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { waitFor } from '../../../src/kube/watch/wait.js';
import { readRolloutLease } from '../../../src/rollout/ownership.js';
import { readRollout } from '../../../src/rollout/state.js';
import { NO_GUARDS } from '../../../src/rollout/guards/types.js';
import { configMapName, ROLLOUT_NAMESPACE, type RolloutSpec, type RolloutState } from '../../../src/rollout/types.js';
import { CLI, ROOT } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
export const CONTEXT = 'kind-workload-1';
const PAUSE = 'registry.k8s.io/pause:3.9';
export const HOSTNAME = 'kubernetes.io/hostname';
/** The label of the Navarchos README example. */
export const ROLE = 'kubernetes.io/role';
/** The sandbox replaces a Node with this annotation once it is cordoned and drained. */
export const REPLACE_WHEN_DRAINED = 'sandbox.fleetdeck.io/replace-when-drained';
export const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const suffix = Math.random().toString(36).slice(2, 7);
export const NS = {
  order: `ro-order-${suffix}`,
  pdb: `ro-pdb-${suffix}`,
  kill: `ro-kill-${suffix}`,
  abort: `ro-abort-${suffix}`,
  refuse: `ro-refuse-${suffix}`,
  wait: `ro-wait-${suffix}`,
  holds: `ro-holds-${suffix}`,
  pacing: `ro-pacing-${suffix}`,
  alerts: `ro-alerts-${suffix}`,
};
export const rolloutName = (what: string) => `t-${what}-${suffix}`;

export let kc: KubeConfig;
export let core: CoreV1Api;
let apps: AppsV1Api;
export let objects: KubernetesObjectApi;
/** Nodes this file cordoned (directly or through a rollout), labelled or annotated: put back at the end. */
export const touched = new Set<string>();
export const rollouts = new Set<string>();
const children = new Set<ChildProcess>();

/** The rollout's Lease as it is now. */
export const lease = (name: string) => readRolloutLease(kc, name);

export const podSpec = (over: Partial<V1PodSpec> = {}): V1PodSpec => ({
  containers: [{ name: 'app', image: PAUSE }],
  terminationGracePeriodSeconds: 1,
  ...over,
});
export const isReady = (n: V1Node) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const isRunning = (p: V1Pod) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp;
/** Pods may go to these nodes only. */
export const onlyOn = (nodes: string[]): Partial<V1PodSpec> => ({
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME, operator: 'In', values: nodes }] }],
      },
    },
  },
});

export async function deployment(namespace: string, name: string, replicas: number, spec: Partial<V1PodSpec> = {}): Promise<void> {
  await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name },
      spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec(spec) } },
    },
  });
}

export async function pdb(namespace: string, name: string, app: string, minAvailable: number): Promise<void> {
  await objects.create({
    apiVersion: 'policy/v1beta1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace },
    spec: { minAvailable, selector: { matchLabels: { app } } },
  } as KubernetesObject);
  // Counted by the disruption controller: no disruption allowed.
  await waitFor<KubernetesObject & { status?: { currentHealthy?: number; disruptionsAllowed?: number } }>({
    kc,
    path: `/apis/policy/v1beta1/namespaces/${namespace}/poddisruptionbudgets`,
    timeoutMs: 60_000,
    check: (items) => {
      const s = items.find((i) => i.metadata?.name === name)?.status;
      return { done: s?.currentHealthy === minAvailable && s.disruptionsAllowed === 0, detail: JSON.stringify(s ?? {}) };
    },
  });
}

/** Waits until `count` pods of the app run; returns them. */
export async function running(namespace: string, app: string, count: number): Promise<V1Pod[]> {
  await waitFor<V1Pod>({
    kc,
    path: `/api/v1/namespaces/${namespace}/pods`,
    labelSelector: `app=${app}`,
    timeoutMs: 90_000,
    check: (items) => {
      const n = items.filter(isRunning).length;
      return { done: n === count, detail: `${n}/${count} running` };
    },
  });
  return (await core.listNamespacedPod({ namespace, labelSelector: `app=${app}` })).items.filter(isRunning);
}

export async function nodes(): Promise<V1Node[]> {
  return (await core.listNode()).items;
}

/** Ready, schedulable nodes, by name. */
export async function schedulable(): Promise<string[]> {
  return (await nodes())
    .filter((n) => isReady(n) && !n.spec?.unschedulable)
    .map((n) => n.metadata!.name!)
    .sort();
}

export async function unschedulable(node: string): Promise<boolean> {
  return (await core.readNode({ name: node })).spec?.unschedulable === true;
}

export async function label(node: string, key: string, value: string | null): Promise<void> {
  touched.add(node);
  await core.patchNode({ name: node, body: { metadata: { labels: { [key]: value } } } }, mergePatch());
}

export async function setCordon(node: string, value: boolean): Promise<void> {
  touched.add(node);
  await core.patchNode({ name: node, body: { spec: { unschedulable: value ? true : null } } }, mergePatch());
}

export const scale = (namespace: string, name: string, replicas: number) =>
  apps.patchNamespacedDeployment({ namespace, name, body: { spec: { replicas } } }, mergePatch());

export async function state(name: string): Promise<RolloutState> {
  const s = await readRollout(kc, name);
  if (!s) throw new Error(`no rollout ${name}`);
  return s.state;
}

export const cli = (args: string[]) => ['--kubeconfig', kubeconfig, ...args];

/** The built CLI as a child process whose output can be read while it runs. */
export function startCli(args: string[]): {
  child: ChildProcess;
  out: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [CLI, ...cli(args)], {
    env: { ...process.env, CI: 'true', FLEETDECK_FLEET_FILE: path.join(ROOT, 'test', 'no-fleet.yaml') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { child, out: () => stdout + stderr, done };
}

/** A rollout spec for runRollout in-process. */
export function spec(name: string, over: Partial<RolloutSpec>): RolloutSpec {
  return {
    name,
    context: CONTEXT,
    nodeSelectors: [],
    nodeNames: [],
    maxUnavailable: 1,
    replace: 'uncordon',
    drain: { force: false, deleteEmptyDirData: false, timeoutMs: 120_000 },
    health: { passes: 1, intervalMs: 1_000, timeoutMs: 60_000 },
    // Beside any other rollout of the cluster (see FAST).
    guards: { ...NO_GUARDS, concurrent: true },
    ...over,
  };
}

export async function planNodes() {
  return (await nodes()).map((n) => ({
    name: n.metadata!.name!,
    labels: n.metadata?.labels ?? {},
    unschedulable: n.spec?.unschedulable === true,
    ready: isReady(n),
  }));
}

/** A quick health gate, confirmed. */
export const QUICK = ['--health-passes', '1', '--health-interval', '1s', '--yes'];
/**
 * QUICK, and beside any other rollout of the cluster: the fleet is shared by the files of a worker,
 * and a rollout another file left (a runner killed, whose Lease has not run out) must not hold
 * these tests' rollouts. The guard-rail tests (guard-cluster.ts) use QUICK: one at a time is theirs to test.
 */
export const FAST = [...QUICK, '--concurrent'];

/** The file's clients and namespaces (of `NS`, those its tests use) in beforeAll; everything put back in afterAll. */
export function setUpRunCluster(...uses: (keyof typeof NS)[]): void {
  const namespaces = uses.map((u) => NS[u]);
  beforeAll(async () => {
    if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
    core = makeClient(kc, CoreV1Api, 30_000);
    apps = makeClient(kc, AppsV1Api, 30_000);
    objects = makeClient(kc, KubernetesObjectApi, 30_000);
    for (const ns of namespaces) await createNamespace(core, ns);
  });

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    // Put back every node this file touched (and the replacements the sandbox made of them, which copy labels).
    const all = await nodes();
    const ours = (name: string) => touched.has(name) || [...touched].some((t) => name.startsWith(`${t}-r`));
    for (const n of all) {
      const name = n.metadata!.name!;
      if (!ours(name)) continue;
      await core
        .patchNode(
          {
            name,
            body: { metadata: { labels: { [ROLE]: null }, annotations: { [REPLACE_WHEN_DRAINED]: null } }, spec: { unschedulable: null } },
          },
          mergePatch(),
        )
        .catch((err: unknown) => {
          if (statusCode(err) !== 404) throw err;
        });
    }
    for (const r of rollouts)
      await core.deleteNamespacedConfigMap({ name: configMapName(r), namespace: ROLLOUT_NAMESPACE }).catch(() => {});
    await Promise.all(namespaces.map((name) => core.deleteNamespace({ name }).catch(() => {})));
    await waitFor<V1Pod>({
      kc,
      path: '/api/v1/pods',
      timeoutMs: 120_000,
      check: (items) => {
        const left = items.filter(
          (p) =>
            namespaces.includes(p.metadata?.namespace ?? '') &&
            !(p.spec?.nodeName && !all.some((n) => n.metadata?.name === p.spec?.nodeName)),
        ).length;
        return { done: left === 0, detail: `${left} pods of this file left` };
      },
    });
  });
}
