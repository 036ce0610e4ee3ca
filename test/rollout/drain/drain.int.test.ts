import { execFile } from 'node:child_process';
import {
  AppsV1Api,
  CoreV1Api,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type KubernetesObject,
  type V1Pod,
  type V1PodSpec,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { waitFor } from '../../../src/kube/watch/wait.js';
import { cordon, uncordon } from '../../../src/kube/nodes/nodes.js';
import { drainNode } from '../../../src/rollout/drain/drain.js';
import { dryRunDrain } from '../../../src/rollout/drain/dry-run.js';
import { DrainError } from '../../../src/rollout/drain/errors.js';
import type { DrainProgress } from '../../../src/rollout/drain/tracker.js';
import { createNamespace } from '../../helpers/namespace.js';

const kubeconfig = inject('kubeconfig');
const CONTEXT = 'kind-workload-2';
const KUBECTL = '/usr/bin/kubectl';
const PAUSE = 'registry.k8s.io/pause:3.9';
const HOSTNAME = 'kubernetes.io/hostname';
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Namespaces of this file: unique per run, deleted at the end. */
const suffix = Math.random().toString(36).slice(2, 7);
const NS = { app: `drain-app-${suffix}`, flags: `drain-flags-${suffix}`, pdb: `drain-pdb-${suffix}`, dry: `drain-dry-${suffix}` };

let kc: KubeConfig;
let core: CoreV1Api;
let apps: AppsV1Api;
let objects: KubernetesObjectApi;
/** Every node this file cordoned (directly or through a drain): uncordoned at the end. */
const touched = new Set<string>();

const podSpec = (over: Partial<V1PodSpec> = {}): V1PodSpec => ({
  containers: [{ name: 'app', image: PAUSE }],
  terminationGracePeriodSeconds: 1,
  ...over,
});

async function deployment(namespace: string, name: string, replicas: number, spec: Partial<V1PodSpec> = {}): Promise<void> {
  await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name },
      spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec(spec) } },
    },
  });
}

async function daemonSet(namespace: string, name: string): Promise<void> {
  await apps.createNamespacedDaemonSet({
    namespace,
    body: {
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec() } },
    },
  });
}

async function unmanagedPod(namespace: string, name: string, node: string, spec: Partial<V1PodSpec> = {}): Promise<V1Pod> {
  return core.createNamespacedPod({
    namespace,
    body: { metadata: { name, labels: { app: name } }, spec: podSpec({ nodeName: node, ...spec }) },
  });
}

const isRunning = (p: V1Pod) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp;

/** Waits (list + watch) until `count` pods matching the selector run in the namespace; returns them. */
async function running(namespace: string, labelSelector: string, count: number): Promise<V1Pod[]> {
  await waitFor<V1Pod>({
    kc,
    path: `/api/v1/namespaces/${namespace}/pods`,
    labelSelector,
    timeoutMs: 90_000,
    check: (items) => {
      const n = items.filter(isRunning).length;
      return { done: n === count, detail: `${n}/${count} running` };
    },
  });
  return (await core.listNamespacedPod({ namespace, labelSelector })).items.filter(isRunning);
}

async function schedulableNodes(): Promise<string[]> {
  const nodes = await core.listNode();
  return nodes.items
    .filter((n) => !n.spec?.unschedulable && (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'))
    .map((n) => n.metadata!.name!)
    .sort();
}

/**
 * Schedulable nodes whose pods (other files' pods included: this sandbox is shared) need no
 * flag and are not held by a PodDisruptionBudget, so that a plain drain runs through.
 */
async function cleanNodes(): Promise<string[]> {
  const nodes = await schedulableNodes();
  const dry = await dryRunDrain(kc, nodes, { force: false, deleteEmptyDirData: false });
  const clean = dry.nodes
    .filter(
      (n) => !n.pods.some((c) => c.action === 'needs-force' || c.action === 'needs-delete-emptydir-data' || c.action === 'blocked-pdb'),
    )
    .map((n) => n.node);
  if (clean.length < 2) throw new Error(`only ${clean.length} of ${nodes.length} nodes can be drained without flags: ${clean.join(', ')}`);
  return clean;
}

/** Pods may go to these nodes only. */
const onlyOn = (nodes: string[]): Partial<V1PodSpec> => ({
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME, operator: 'In', values: nodes }] }],
      },
    },
  },
});

/** drainNode, remembering the node for the final uncordon; every progress report lands in `seen`. */
async function drain(
  node: string,
  opts: Parameters<typeof drainNode>[2] = {},
  seen: DrainProgress[] = [],
  onReport?: (p: DrainProgress) => void,
  signal?: AbortSignal,
) {
  touched.add(node);
  return drainNode(
    kc,
    node,
    opts,
    (p) => {
      seen.push(p);
      onReport?.(p);
    },
    signal,
  );
}

async function exists(namespace: string, name: string, uid?: string): Promise<boolean> {
  try {
    const p = await core.readNamespacedPod({ namespace, name });
    return uid === undefined || p.metadata?.uid === uid;
  } catch (err) {
    if (statusCode(err) === 404) return false;
    throw err;
  }
}

function kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, ['--kubeconfig', kubeconfig, '--context', CONTEXT, ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** "evicting pod ns/name (server dry run)" lines of `kubectl drain --dry-run=server`. */
function kubectlEvictions(out: string): string[] {
  return [...out.matchAll(/^evicting pod (\S+) \(server dry run\)$/gm)].map((m) => m[1]!).sort();
}

/** The pods of kubectl's closing "cannot delete … (use --FLAG to override): a/b, c/d" lines, by flag. */
function kubectlRefusals(out: string): Record<string, string[]> {
  const res: Record<string, string[]> = {};
  for (const m of out.matchAll(/^cannot delete .*\(use (--[a-z-]+) to override\): (.+)$/gm)) {
    res[m[1]!] = m[2]!
      .split(/,\s*/)
      .map((p) => p.trim())
      .filter(Boolean)
      .sort();
  }
  return res;
}

beforeAll(async () => {
  kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  core = makeClient(kc, CoreV1Api, 30_000);
  apps = makeClient(kc, AppsV1Api, 30_000);
  objects = makeClient(kc, KubernetesObjectApi, 30_000);
  for (const ns of Object.values(NS)) await createNamespace(core, ns);
});

afterAll(async () => {
  for (const node of touched) await uncordon(kc, node).catch(() => {});
  await Promise.all(Object.values(NS).map((name) => core.deleteNamespace({ name }).catch(() => {})));
  await waitFor<V1Pod>({
    kc,
    path: '/api/v1/pods',
    timeoutMs: 120_000,
    check: (items) => {
      const left = items.filter((p) => Object.values(NS).includes(p.metadata?.namespace ?? '')).length;
      return { done: left === 0, detail: `${left} pods of this file left` };
    },
  });
});

describe('drainNode on a real API server (policy/v1beta1 evictions)', () => {
  it('cordon and uncordon are idempotent and say whether they changed the node', async () => {
    const [node] = await schedulableNodes();
    touched.add(node!);
    expect(await cordon(kc, node!)).toBe(true);
    expect(await cordon(kc, node!)).toBe(false);
    expect((await core.readNode({ name: node! })).spec?.unschedulable).toBe(true);
    expect(await uncordon(kc, node!)).toBe(true);
    expect(await uncordon(kc, node!)).toBe(false);
    expect((await core.readNode({ name: node! })).spec?.unschedulable).toBeFalsy();
  });

  it("evicts a Deployment's pods, which are rescheduled on other nodes, and leaves the DaemonSet's pod alone", async () => {
    const clean = await cleanNodes();
    await daemonSet(NS.app, 'agent');
    await deployment(NS.app, 'web', 4, onlyOn(clean));
    const nodes = await schedulableNodes();
    const agents = await running(NS.app, 'app=agent', nodes.length);
    const web = await running(NS.app, 'app=web', 4);
    const node = web[0]!.spec!.nodeName!;
    const onNode = web.filter((p) => p.spec?.nodeName === node);
    const agent = agents.find((p) => p.spec?.nodeName === node)!;
    expect(onNode.length).toBeGreaterThan(0);

    const seen: DrainProgress[] = [];
    const result = await drain(node, {}, seen);

    expect(result.cordoned).toBe(true);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBe(true);
    const mine = result.pods.filter((c) => c.namespace === NS.app);
    expect(
      mine
        .filter((c) => c.action === 'evict')
        .map((c) => c.uid)
        .sort(),
    ).toEqual(onNode.map((p) => p.metadata!.uid!).sort());
    expect(mine.find((c) => c.uid === agent.metadata!.uid)?.action).toBe('ignored-daemonset');
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ node, remaining: 0, failed: 0 });
    expect(last.evicted).toBeGreaterThanOrEqual(onNode.length);
    expect(last.ignored).toBeGreaterThanOrEqual(1);
    expect(last.total).toBe(last.evicted + last.ignored + last.deleted + last.failed + last.remaining);
    // Progress after every change: the evicted count grows one pod at a time.
    expect(seen.map((p) => p.evicted)).toEqual([...seen.map((p) => p.evicted)].sort((a, b) => a - b));

    // Evicted pods are gone; the Deployment runs 4 pods again, none on the drained node.
    for (const p of onNode) expect(await exists(NS.app, p.metadata!.name!, p.metadata!.uid)).toBe(false);
    const after = await running(NS.app, 'app=web', 4);
    expect(after.every((p) => p.spec?.nodeName !== node)).toBe(true);
    // The DaemonSet's pod is still the same pod.
    expect(await exists(NS.app, agent.metadata!.name!, agent.metadata!.uid)).toBe(true);

    expect(await uncordon(kc, node)).toBe(true);
  });

  it('refuses emptyDir and unmanaged pods without the flags (evicting nothing), and evicts or deletes them with the flags', async () => {
    const node = (await cleanNodes()).at(-1)!;
    await deployment(NS.flags, 'cache', 1, { nodeSelector: { [HOSTNAME]: node }, volumes: [{ name: 'scratch', emptyDir: {} }] });
    await unmanagedPod(NS.flags, 'lonely', node);
    // A finished pod: the test reports Succeeded for it, as a kubelet would.
    await unmanagedPod(NS.flags, 'done', node);
    const [cache] = await running(NS.flags, 'app=cache', 1);
    const [lonely] = await running(NS.flags, 'app=lonely', 1);
    const done = (await running(NS.flags, 'app=done', 1))[0]!;
    await core.patchNamespacedPodStatus({ namespace: NS.flags, name: 'done', body: { status: { phase: 'Succeeded' } } }, mergePatch());

    const refused = await drain(node).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(DrainError);
    const e = refused as DrainError;
    expect(e.kind).toBe('refused');
    expect(e.message).toContain(`--force for ${NS.flags}/lonely`);
    expect(e.message).toContain(`--delete-emptydir-data for ${NS.flags}/${cache!.metadata!.name}`);
    expect(e.pods.map((p) => `${p.namespace}/${p.name}`).sort()).toEqual(
      [`${NS.flags}/${cache!.metadata!.name}`, `${NS.flags}/lonely`].sort(),
    );
    // Nothing was evicted or deleted.
    expect(await exists(NS.flags, 'lonely', lonely!.metadata!.uid)).toBe(true);
    expect(await exists(NS.flags, cache!.metadata!.name!, cache!.metadata!.uid)).toBe(true);
    expect(await exists(NS.flags, 'done', done.metadata!.uid)).toBe(true);
    // As kubectl, the refused drain leaves the node cordoned.
    expect(e.cordoned).toBe(true);
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBe(true);

    const seen: DrainProgress[] = [];
    const result = await drain(node, { force: true, deleteEmptyDirData: true }, seen);
    expect(result.cordoned).toBe(false); // cordoned already
    const action = (name: string) => result.pods.find((c) => c.namespace === NS.flags && c.name === name)?.action;
    expect(action('lonely')).toBe('evict');
    expect(action(cache!.metadata!.name!)).toBe('evict');
    expect(action('done')).toBe('delete');
    expect(seen.at(-1)).toMatchObject({ remaining: 0, failed: 0 });
    expect(seen.at(-1)!.deleted).toBeGreaterThanOrEqual(1);
    expect(await exists(NS.flags, 'lonely')).toBe(false);
    expect(await exists(NS.flags, 'done')).toBe(false);
    expect(await exists(NS.flags, cache!.metadata!.name!, cache!.metadata!.uid)).toBe(false);

    await apps.deleteNamespacedDeployment({ namespace: NS.flags, name: 'cache' });
    expect(await uncordon(kc, node)).toBe(true);
  });

  it('a PDB with minAvailable = replicas blocks the drain and the progress names it; scaling the Deployment up releases it', async () => {
    await deployment(NS.pdb, 'guarded', 2, onlyOn(await cleanNodes()));
    await objects.create({
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'guarded-pdb', namespace: NS.pdb },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'guarded' } } },
    } as KubernetesObject);
    const pods = await running(NS.pdb, 'app=guarded', 2);
    const node = pods[0]!.spec!.nodeName!;
    const onNode = pods.filter((p) => p.spec?.nodeName === node);
    // The disruption controller has counted the healthy pods: 0 disruptions allowed.
    await waitFor<KubernetesObject & { status?: { currentHealthy?: number; disruptionsAllowed?: number } }>({
      kc,
      path: `/apis/policy/v1beta1/namespaces/${NS.pdb}/poddisruptionbudgets`,
      timeoutMs: 60_000,
      check: (items) => {
        const s = items[0]?.status;
        return { done: s?.currentHealthy === 2 && s.disruptionsAllowed === 0, detail: JSON.stringify(s ?? {}) };
      },
    });

    // The dry run sees the block before anything happens.
    const dry = await dryRunDrain(kc, [node], { force: false, deleteEmptyDirData: false });
    const blocked = dry.nodes[0]!.pods.filter((c) => c.namespace === NS.pdb);
    expect(blocked.map((c) => c.action)).toEqual(onNode.map(() => 'blocked-pdb'));
    expect(blocked[0]!.pdb).toEqual({ namespace: NS.pdb, name: 'guarded-pdb', disruptionsAllowed: 0 });

    const isBlocked = (p: DrainProgress) => p.blockingPdb?.name === 'guarded-pdb';

    // A short per-node timeout: the error says what is left and what blocks it.
    const timedOut = await drain(node, { timeoutMs: 3_000 }).then(
      () => undefined,
      (err: unknown) => err as DrainError,
    );
    expect(timedOut).toBeInstanceOf(DrainError);
    expect(timedOut!.kind).toBe('timeout');
    expect(timedOut!.message).toContain(onNode[0]!.metadata!.name!);
    expect(timedOut!.message).toContain(`${NS.pdb}/guarded-pdb (0 disruptions allowed)`);
    expect(timedOut!.pods.map((p) => p.name).sort()).toEqual(onNode.map((p) => p.metadata!.name).sort());

    // Aborting while blocked: the drain stops with the signal's reason.
    const abort = new AbortController();
    const abortSeen: DrainProgress[] = [];
    const aborted = drain(node, {}, abortSeen, (p) => isBlocked(p) && abort.abort(new Error('operator aborted')), abort.signal);
    await expect(aborted).rejects.toThrow('operator aborted');
    expect(abortSeen.some(isBlocked)).toBe(true);

    // The real drain: blocked until the Deployment is scaled up.
    const seen: DrainProgress[] = [];
    let reportBlocked: (p: DrainProgress) => void = () => {};
    const blockedOnce = new Promise<DrainProgress>((resolve) => (reportBlocked = resolve));
    const run = drain(node, {}, seen, (p) => isBlocked(p) && reportBlocked(p));
    const blockedReport = await Promise.race([blockedOnce, run.then(() => undefined)]);
    expect(blockedReport?.blockingPdb).toEqual({ namespace: NS.pdb, name: 'guarded-pdb', disruptionsAllowed: 0 });
    expect(blockedReport?.remaining).toBe(onNode.length);
    await apps.patchNamespacedDeployment({ namespace: NS.pdb, name: 'guarded', body: { spec: { replicas: 3 } } }, mergePatch());

    const result = await run;
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ remaining: 0, failed: 0 });
    expect(last.blockingPdb).toBeUndefined();
    expect(result.pods.filter((c) => c.namespace === NS.pdb && c.action === 'evict').length).toBe(onNode.length);
    for (const p of onNode) expect(await exists(NS.pdb, p.metadata!.name!, p.metadata!.uid)).toBe(false);
    expect((await running(NS.pdb, 'app=guarded', 3)).every((p) => p.spec?.nodeName !== node)).toBe(true);

    expect(await uncordon(kc, node)).toBe(true);
    // No budget of this file may hold up the drains that follow.
    await objects.delete({
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'guarded-pdb', namespace: NS.pdb },
    } as KubernetesObject);
  });

  it('the dry-run classification agrees with kubectl drain --dry-run=server on the same node', async () => {
    const nodes = await schedulableNodes();
    const clean = await cleanNodes();
    const node = clean[Math.floor(clean.length / 2)]!;
    await daemonSet(NS.dry, 'agent');
    await deployment(NS.dry, 'web', 2, { nodeSelector: { [HOSTNAME]: node } });
    await deployment(NS.dry, 'cache', 1, { nodeSelector: { [HOSTNAME]: node }, volumes: [{ name: 'scratch', emptyDir: {} }] });
    await unmanagedPod(NS.dry, 'lonely', node);
    // Unmanaged and with emptyDir: kubectl's local-storage filter comes first, so it needs --delete-emptydir-data.
    await unmanagedPod(NS.dry, 'lonely-cache', node, { volumes: [{ name: 'scratch', emptyDir: {} }] });
    await running(NS.dry, 'app=web', 2);
    await running(NS.dry, 'app=cache', 1);
    await running(NS.dry, 'app=lonely', 1);
    await running(NS.dry, 'app=lonely-cache', 1);
    await running(NS.dry, 'app=agent', nodes.length);

    // With every flag: the same pods evicted, the DaemonSet pods left alone.
    const all = { force: true, deleteEmptyDirData: true };
    const ours = await dryRunDrain(kc, [node], all);
    const theirs = await kubectl([
      'drain',
      node,
      '--dry-run=server',
      '--ignore-daemonsets',
      '--delete-emptydir-data',
      '--force',
      '--timeout=60s',
    ]);
    expect(theirs.code, theirs.stderr).toBe(0);
    const evicted = ours.nodes[0]!.pods.filter((c) => c.action === 'evict' || c.action === 'delete' || c.action === 'blocked-pdb')
      .map((c) => `${c.namespace}/${c.name}`)
      .sort();
    expect(evicted).toEqual(kubectlEvictions(theirs.stdout));
    expect(evicted).toEqual(expect.arrayContaining([`${NS.dry}/lonely`]));
    expect(evicted.filter((p) => p.startsWith(`${NS.dry}/`))).toHaveLength(5);
    const agent = ours.nodes[0]!.pods.find((c) => c.namespace === NS.dry && c.name.startsWith('agent-'))!;
    expect(agent.action).toBe('ignored-daemonset');
    expect(theirs.stderr).toContain(`ignoring DaemonSet-managed Pods: `);
    expect(theirs.stderr).toContain(`${NS.dry}/${agent.name}`);
    expect(ours.room.fits).toBe(true);
    expect(ours.room.detail).toMatch(/sum/);

    // Without the flags: the same pods refused, for the same flag.
    const plain = await dryRunDrain(kc, [node], { force: false, deleteEmptyDirData: false });
    const refusedTheirs = await kubectl(['drain', node, '--dry-run=server', '--ignore-daemonsets', '--timeout=60s']);
    expect(refusedTheirs.code).not.toBe(0);
    const byFlag = (action: string) =>
      plain.nodes[0]!.pods.filter((c) => c.action === action)
        .map((c) => `${c.namespace}/${c.name}`)
        .sort();
    const theirRefusals = kubectlRefusals(refusedTheirs.stderr + refusedTheirs.stdout);
    expect(byFlag('needs-force')).toEqual(theirRefusals['--force'] ?? []);
    expect(byFlag('needs-delete-emptydir-data')).toEqual(theirRefusals['--delete-emptydir-data'] ?? []);
    expect(byFlag('needs-force')).toContain(`${NS.dry}/lonely`);
    expect(byFlag('needs-delete-emptydir-data')).toContain(`${NS.dry}/lonely-cache`);
    expect(plain.nodes[0]!.refused).toContain('--force');

    // Neither dry run changed the node.
    expect((await core.readNode({ name: node })).spec?.unschedulable).toBeFalsy();
  });
});
