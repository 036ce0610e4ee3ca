/**
 * The rollout workflow on a sandbox cluster (kind-workload-1): priority order, a blocking
 * PodDisruptionBudget, a fleetdeck killed in mid-drain and resumed, abort, a refused drain, and
 * the `wait` replacement. Most runs go through the built CLI (dist/cli.js: `npm run build`
 * first); some drive runRollout in-process to watch its states. Every node this file labels,
 * annotates or cordons is put back; every rollout ConfigMap it creates is deleted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { makeClient, statusCode } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { waitFor } from '../../../src/kube/watch/wait.js';
import { resolvePlan, initialState } from '../../../src/rollout/plan.js';
import { abortRollout } from '../../../src/rollout/runner/abort.js';
import { runRollout } from '../../../src/rollout/runner/run.js';
import { listObjectEvents } from '../../../src/kube/events/event-recorder.js';
import { readRolloutLease } from '../../../src/rollout/ownership.js';
import { createRollout, readRollout, watchRollouts } from '../../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE, type RolloutSpec, type RolloutState } from '../../../src/rollout/types.js';
import { CLI, ROOT, eventually, runCli } from '../../helpers/cli.js';
import { createNamespace } from '../../helpers/namespace.js';

const kubeconfig = inject('kubeconfig');
const CONTEXT = 'kind-workload-1';
const PAUSE = 'registry.k8s.io/pause:3.9';
const HOSTNAME = 'kubernetes.io/hostname';
/** The label of the Navarchos README example. */
const ROLE = 'kubernetes.io/role';
/** The sandbox replaces a Node with this annotation once it is cordoned and drained. */
const REPLACE_WHEN_DRAINED = 'sandbox.fleetdeck.io/replace-when-drained';
const mergePatch = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

const suffix = Math.random().toString(36).slice(2, 7);
const NS = {
  order: `ro-order-${suffix}`,
  pdb: `ro-pdb-${suffix}`,
  kill: `ro-kill-${suffix}`,
  abort: `ro-abort-${suffix}`,
  refuse: `ro-refuse-${suffix}`,
  wait: `ro-wait-${suffix}`,
};
const rolloutName = (what: string) => `t-${what}-${suffix}`;

let kc: KubeConfig;
let core: CoreV1Api;
let apps: AppsV1Api;
let objects: KubernetesObjectApi;
/** Nodes this file cordoned (directly or through a rollout), labelled or annotated: put back at the end. */
const touched = new Set<string>();
const rollouts = new Set<string>();
const children = new Set<ChildProcess>();

/** The rollout's Lease as it is now. */
const lease = (name: string) => readRolloutLease(kc, name);

const podSpec = (over: Partial<V1PodSpec> = {}): V1PodSpec => ({
  containers: [{ name: 'app', image: PAUSE }],
  terminationGracePeriodSeconds: 1,
  ...over,
});
const isReady = (n: V1Node) => (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const isRunning = (p: V1Pod) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp;
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

async function deployment(namespace: string, name: string, replicas: number, spec: Partial<V1PodSpec> = {}): Promise<void> {
  await apps.createNamespacedDeployment({
    namespace,
    body: {
      metadata: { name },
      spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec(spec) } },
    },
  });
}

async function pdb(namespace: string, name: string, app: string, minAvailable: number): Promise<void> {
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
async function running(namespace: string, app: string, count: number): Promise<V1Pod[]> {
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

async function nodes(): Promise<V1Node[]> {
  return (await core.listNode()).items;
}

/** Ready, schedulable nodes, by name. */
async function schedulable(): Promise<string[]> {
  return (await nodes())
    .filter((n) => isReady(n) && !n.spec?.unschedulable)
    .map((n) => n.metadata!.name!)
    .sort();
}

async function unschedulable(node: string): Promise<boolean> {
  return (await core.readNode({ name: node })).spec?.unschedulable === true;
}

async function label(node: string, key: string, value: string | null): Promise<void> {
  touched.add(node);
  await core.patchNode({ name: node, body: { metadata: { labels: { [key]: value } } } }, mergePatch());
}

async function setCordon(node: string, value: boolean): Promise<void> {
  touched.add(node);
  await core.patchNode({ name: node, body: { spec: { unschedulable: value ? true : null } } }, mergePatch());
}

const scale = (namespace: string, name: string, replicas: number) =>
  apps.patchNamespacedDeployment({ namespace, name, body: { spec: { replicas } } }, mergePatch());

async function state(name: string): Promise<RolloutState> {
  const s = await readRollout(kc, name);
  if (!s) throw new Error(`no rollout ${name}`);
  return s.state;
}

const cli = (args: string[]) => ['--kubeconfig', kubeconfig, ...args];

/** The built CLI as a child process whose output can be read while it runs. */
function startCli(args: string[]): {
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
function spec(name: string, over: Partial<RolloutSpec>): RolloutSpec {
  return {
    name,
    context: CONTEXT,
    nodeSelectors: [],
    nodeNames: [],
    maxUnavailable: 1,
    replace: 'uncordon',
    drain: { force: false, deleteEmptyDirData: false, timeoutMs: 120_000 },
    health: { passes: 1, intervalMs: 1_000, timeoutMs: 60_000 },
    ...over,
  };
}

async function planNodes() {
  return (await nodes()).map((n) => ({
    name: n.metadata!.name!,
    labels: n.metadata?.labels ?? {},
    unschedulable: n.spec?.unschedulable === true,
    ready: isReady(n),
  }));
}

const FAST = ['--health-passes', '1', '--health-interval', '1s', '--yes'];

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  core = makeClient(kc, CoreV1Api, 30_000);
  apps = makeClient(kc, AppsV1Api, 30_000);
  objects = makeClient(kc, KubernetesObjectApi, 30_000);
  for (const ns of Object.values(NS)) await createNamespace(core, ns);
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
  for (const r of rollouts) await core.deleteNamespacedConfigMap({ name: configMapName(r), namespace: ROLLOUT_NAMESPACE }).catch(() => {});
  await Promise.all(Object.values(NS).map((name) => core.deleteNamespace({ name }).catch(() => {})));
  await waitFor<V1Pod>({
    kc,
    path: '/api/v1/pods',
    timeoutMs: 120_000,
    check: (items) => {
      const left = items.filter(
        (p) =>
          Object.values(NS).includes(p.metadata?.namespace ?? '') &&
          !(p.spec?.nodeName && !all.some((n) => n.metadata?.name === p.spec?.nodeName)),
      ).length;
      return { done: left === 0, detail: `${left} pods of this file left` };
    },
  });
});

describe('fleetdeck rollout on a sandbox cluster', () => {
  it('Navarchos README example (-f): nodes labelled master at priority 20 finish before workers at 10 start; replace uncordon', async () => {
    const [m, w1, w2] = await schedulable();
    await label(m!, ROLE, 'master');
    await label(w1!, ROLE, 'worker');
    await label(w2!, ROLE, 'worker');
    await deployment(NS.order, 'web', 4, onlyOn((await schedulable()).slice(0, 5)));
    await running(NS.order, 'web', 4);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-rollout-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'noderollout.yaml');
    // As Navarchos' README shows it.
    fs.writeFileSync(
      file,
      `apiVersion: navarchos.pusher.com/v1alpha1
kind: NodeRollout
metadata:
  generateName: "rollout-"
spec:
  nodeSelectors:
  - replacement:
      priority: 10
    matchLabels:
      "kubernetes.io/role": "worker"
  - replacement:
      priority: 20
    matchLabels:
      "kubernetes.io/role": "master"
`,
    );
    const name = rolloutName('order');
    rollouts.add(name);

    // The dry run: the ordered list, every pod's fate, nothing changed.
    const dry = await runCli(
      cli(['rollout', 'create', '--context', CONTEXT, '-f', file, '--name', name, '--replace', 'uncordon', '--dry-run']),
    );
    expect(dry.code, dry.stderr).toBe(0);
    const order = [...dry.stdout.matchAll(/^\s+\d+\. (\S+)\s+priority (\d+)/gm)].map((x) => [x[1], Number(x[2])]);
    expect(order).toEqual([
      [m, 20],
      [w1, 10],
      [w2, 10],
    ]);
    expect(dry.stdout).toContain('Dry run (nothing is changed):');
    expect(dry.stdout).toMatch(/room: every batch fits/);
    expect(await readRollout(kc, name)).toBeUndefined();
    expect(await unschedulable(m!)).toBe(false);

    const run = await runCli(
      cli(['rollout', 'create', '--context', CONTEXT, '-f', file, '--name', name, '--replace', 'uncordon', ...FAST]),
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain(`Rollout ${name} completed: 3/3 nodes done.`);
    expect(run.stdout).toMatch(new RegExp(`${m} \\(priority 20\\): draining`));

    const s = await state(name);
    expect(s.phase).toBe('Completed');
    expect(s.owner).toBeUndefined();
    expect(s.nodes.map((n) => [n.name, n.priority, n.phase])).toEqual([
      [m, 20, 'done'],
      [w1, 10, 'done'],
      [w2, 10, 'done'],
    ]);
    // Priority 20 finished before any priority 10 node started.
    const master = s.nodes[0]!;
    for (const w of s.nodes.slice(1)) expect(Date.parse(w.startedAt!)).toBeGreaterThanOrEqual(Date.parse(master.completedAt!));
    // The log says the same: the master's gate passed before the first worker was cordoned.
    const logIndex = (re: RegExp) => s.log.findIndex((l) => re.test(l.message));
    const masterDone = logIndex(new RegExp(`^health gate passed .*: ${m} done$`));
    expect(masterDone).toBeGreaterThan(-1);
    expect(logIndex(new RegExp(`^${w1}: cordoned`))).toBeGreaterThan(masterDone);
    expect(logIndex(new RegExp(`^${w2}: cordoned`))).toBeGreaterThan(masterDone);
    // In-place maintenance: every node schedulable again.
    for (const n of [m!, w1!, w2!]) expect(await unschedulable(n)).toBe(false);

    // A second fleetdeck sees the same: list and watch (which ends at once: completed).
    const list = await runCli(cli(['rollout', 'list', '--context', CONTEXT, '-o', 'json']));
    expect(list.code).toBe(0);
    expect(
      (JSON.parse(list.stdout) as { rollouts: { name: string; phase: string; done: number; total: number }[] }).rollouts.find(
        (r) => r.name === name,
      ),
    ).toMatchObject({ phase: 'Completed', done: 3, total: 3 });
    const watch = await runCli(cli(['rollout', 'watch', name, '--context', CONTEXT]));
    expect(watch.code).toBe(0);
    expect(watch.stdout).toContain(`rollout ${name}: Completed`);
  });

  it('a PDB with minAvailable = replicas blocks the drain and the state names it; scaling up releases it', async () => {
    await deployment(NS.pdb, 'guarded', 2, onlyOn((await schedulable()).slice(0, 5)));
    const pods = await running(NS.pdb, 'guarded', 2);
    await pdb(NS.pdb, 'guarded-pdb', 'guarded', 2);
    const node = pods[0]!.spec!.nodeName!;
    touched.add(node);
    const name = rolloutName('pdb');
    rollouts.add(name);
    const s = spec(name, { nodeNames: [{ name: node, priority: 0 }] });
    const created = await createRollout(kc, initialState(s, resolvePlan(await planNodes(), s)));
    const startedAt = Date.now();

    // A second fleetdeck's view: the ConfigMap watch, and `fleetdeck rollout watch` in another process.
    const seenElsewhere: RolloutState[] = [];
    const viewer = watchRollouts(kc, { onState: (x) => seenElsewhere.push(x) }, name);
    const watcher = startCli(['rollout', 'watch', name, '--context', CONTEXT]);
    const states: RolloutState[] = [];
    const run = runRollout(kc, created.state, {}, (x) => states.push(x));
    try {
      // While it runs, its Lease names this process.
      const held = await eventually('the Lease is held', async () => (await lease(name))?.holderIdentity, 30_000);
      expect(held).toBe(`${os.hostname()}/${process.pid}`);
      const blocked = await eventually(
        'the ConfigMap names the blocking PDB',
        () => seenElsewhere.find((x) => x.nodes[0]?.blockingPdb?.name === 'guarded-pdb'),
        60_000,
      );
      expect(blocked.phase).toBe('Running');
      expect(blocked.nodes[0]).toMatchObject({
        name: node,
        phase: 'draining',
        cordonedByUs: true,
        blockingPdb: { namespace: NS.pdb, name: 'guarded-pdb', disruptionsAllowed: 0 },
      });
      expect(
        blocked.log.some((l) =>
          l.message.includes(`eviction blocked by PodDisruptionBudget ${NS.pdb}/guarded-pdb (0 disruptions allowed)`),
        ),
      ).toBe(true);
      expect(await unschedulable(node)).toBe(true);
      // The other process is watching (it may start slowly on a busy machine) before the budget lets go.
      await eventually('rollout watch prints the drain', () => watcher.out().includes(`${node} (priority 0): draining`), 60_000);
      await scale(NS.pdb, 'guarded', 3);
      const final = await run;
      expect(final.phase).toBe('Completed');
      expect(final.nodes[0]!.blockingPdb).toBeUndefined();
      expect(final.nodes[0]!.evicted).toBeGreaterThanOrEqual(1);
      // The local progress went through every phase in order, the block included.
      const phases = [...new Set(states.map((x) => x.nodes[0]!.phase))];
      expect(phases).toEqual(['waiting', 'cordoned', 'draining', 'replacing', 'validating', 'done']);
      expect(states.some((x) => x.nodes[0]!.blockingPdb?.name === 'guarded-pdb')).toBe(true);
      expect(await unschedulable(node)).toBe(false);
      // The other process printed the same progress, live, and ended with the rollout.
      const watched = await watcher.done;
      expect(watched.code, watched.stderr).toBe(0);
      // (Which counts it saw depends on when it read: the drain's first state may come and go in between.)
      expect(watched.stdout).toContain(`${node} (priority 0): draining`);
      expect(watched.stdout).toContain(`blocked by PodDisruptionBudget ${NS.pdb}/guarded-pdb (0 disruptions allowed)`);
      expect(watched.stdout).toContain(`Rollout ${name} completed: 1/1 nodes done.`);

      // What `kubectl describe node` shows: fleetdeck's Events on the node, in order, the PDB's refusal aggregated.
      const nodeUid = (await core.readNode({ name: node })).metadata!.uid!;
      const onNode = (await listObjectEvents(kc, 'default', node, 'Node')).filter(
        (e) => e.reportingComponent === 'fleetdeck' && (e.lastTimestamp?.getTime() ?? 0) >= startedAt - 2_000,
      );
      const reasons = onNode.map((e) => e.reason);
      for (const r of ['NodeCordoned', 'DrainStarted', 'DrainBlocked', 'Drained', 'NodeUncordoned', 'HealthGatePassed'])
        expect(reasons).toContain(r);
      const blockedEvents = onNode.filter((e) => e.reason === 'DrainBlocked');
      expect(blockedEvents[0]).toMatchObject({
        type: 'Warning',
        involvedObject: { kind: 'Node', name: node, uid: nodeUid },
        source: { component: 'fleetdeck' },
        reportingInstance: `${os.hostname()}/${process.pid}`,
      });
      expect(blockedEvents[0]!.message).toMatch(
        new RegExp(
          `^Eviction of pod ${NS.pdb}/guarded-[\\w-]+ refused by PodDisruptionBudget ${NS.pdb}/guarded-pdb \\(0 disruptions allowed\\); retrying$`,
        ),
      );
      // One Event per blocked pod, however many retries (they are its count).
      expect(new Set(blockedEvents.map((e) => e.message)).size).toBe(blockedEvents.length);
      expect(onNode.find((e) => e.reason === 'NodeCordoned')?.type).toBe('Normal');
      // And on the record.
      const onRecord = (await listObjectEvents(kc, ROLLOUT_NAMESPACE, configMapName(name), 'ConfigMap')).map((e) => e.reason);
      expect(onRecord).toEqual(expect.arrayContaining(['RolloutStarted', 'HealthGatePassed', 'RolloutCompleted']));
      // Given back.
      expect((await lease(name))?.holderIdentity).toBeUndefined();
    } finally {
      watcher.child.kill('SIGKILL');
      await viewer.stop();
      await objects
        .delete({
          apiVersion: 'policy/v1beta1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'guarded-pdb', namespace: NS.pdb },
        } as KubernetesObject)
        .catch(() => {});
    }
  });

  it('a fleetdeck killed (SIGKILL) in mid-drain leaves a state that `rollout resume` finishes', async () => {
    const [a, b] = (await schedulable()).slice(0, 2);
    // A blocked pod on the first node keeps its drain going until the test releases it.
    await deployment(NS.kill, 'held', 1, { nodeSelector: { [HOSTNAME]: a! } });
    await running(NS.kill, 'held', 1);
    await deployment(NS.kill, 'free', 2, onlyOn((await schedulable()).slice(0, 5)));
    await running(NS.kill, 'free', 2);
    await pdb(NS.kill, 'held-pdb', 'held', 1);
    const name = rolloutName('kill');
    rollouts.add(name);

    const first = startCli([
      'rollout',
      'create',
      '--context',
      CONTEXT,
      '--node',
      a!,
      '--priority',
      '2',
      '--node',
      b!,
      '--priority',
      '1',
      '--name',
      name,
      '--replace',
      'uncordon',
      ...FAST,
    ]);
    // A progress line: the drain has started, so its phase is in the ConfigMap.
    await eventually(
      'the CLI reports the first node draining',
      () => new RegExp(`${a} \\(priority 2\\): draining \\d+/\\d+ pods`).test(first.out()),
      60_000,
    );
    // While it runs, a second fleetdeck on this host lists its owner as live.
    const listOwner = async () => {
      const text = await runCli(cli(['rollout', 'list', '--context', CONTEXT]));
      const json = await runCli(cli(['rollout', 'list', '--context', CONTEXT, '-o', 'json']));
      const rows = (JSON.parse(json.stdout) as { rollouts: { name: string; owner: Record<string, unknown> | null }[] }).rollouts;
      return { line: text.stdout.split('\n').find((l) => l.startsWith(`${name} `)), owner: rows.find((r) => r.name === name)?.owner };
    };
    const pid = first.child.pid!;
    const holder = `${os.hostname()}/${pid}`;
    const alive = await listOwner();
    expect(alive.line).toContain(`${holder} live`);
    expect(alive.owner).toMatchObject({ holder, pid, host: os.hostname(), pod: null, live: true, state: 'live', detail: 'live' });
    // Held by a live runner: resume elsewhere is refused, naming the holder.
    const refused = await runCli(cli(['rollout', 'resume', name, '--context', CONTEXT]));
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(
      new RegExp(
        `^fleetdeck: rollout ${name} is being run by ${holder} \\(lease renewed \\d+ s ago\\); watch it with fleetdeck rollout watch ${name} --context ${CONTEXT}, or take over with --force-takeover$`,
      ),
    );
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    // Killed: its Lease is still fresh, but the list calls it dead.
    const gone = await listOwner();
    expect(gone.line).toContain(`${holder} dead (pid ${pid} gone)`);
    expect(gone.owner).toMatchObject({ holder, pid, live: false, state: 'dead', detail: `dead (pid ${pid} gone)` });
    expect(await lease(name)).toMatchObject({ holderIdentity: holder, leaseTransitions: 0 });

    // What the killed fleetdeck left: Running, owned by a dead process, the node draining and cordoned.
    const left = await state(name);
    expect(left.phase).toBe('Running');
    expect(left.owner?.pid).toBe(first.child.pid);
    expect(left.nodes.map((n) => [n.name, n.phase])).toEqual([
      [a, 'draining'],
      [b, 'waiting'],
    ]);
    expect(await unschedulable(a!)).toBe(true);

    // Released: the resumed drain can go through. The dead holder's Lease is fresh, but its process is gone.
    await objects.delete({
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'held-pdb', namespace: NS.kill },
    } as KubernetesObject);
    const resumed = await runCli(cli(['rollout', 'resume', name, '--context', CONTEXT]));
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain(`Resuming rollout ${name} on ${CONTEXT}: Running, 0/2 nodes done`);
    expect(resumed.stdout).toContain(`Rollout ${name} completed: 2/2 nodes done.`);
    const s = await state(name);
    expect(s.phase).toBe('Completed');
    expect(s.nodes.map((n) => n.phase)).toEqual(['done', 'done']);
    expect(
      s.log.some(
        (l) => l.message.startsWith(`resumed by ${os.hostname()}/`) && l.message.includes(`its previous holder, ${holder}, is dead`),
      ),
    ).toBe(true);
    expect(Date.parse(s.nodes[1]!.startedAt!)).toBeGreaterThanOrEqual(Date.parse(s.nodes[0]!.completedAt!));
    expect(await unschedulable(a!)).toBe(false);
    expect(await unschedulable(b!)).toBe(false);
    // Taken from the dead holder (one transition), given back at the end.
    const after = await lease(name);
    expect(after?.holderIdentity).toBeUndefined();
    expect(after?.leaseTransitions).toBe(1);

    // Over: nothing to resume.
    const again = await runCli(cli(['rollout', 'resume', name, '--context', CONTEXT]));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`rollout ${name} is Completed: there is nothing to resume`);
  });

  it('abort (from another fleetdeck) stops the owner and uncordons the nodes it cordoned and did not finish, only those, and says so', async () => {
    const [a, b, c, d] = (await schedulable()).slice(0, 4);
    for (const n of [a, b, c, d]) touched.add(n!);
    // One pod held by a PDB on each of a, b and d: their drains block.
    for (const [app, node] of [
      ['pa', a!],
      ['pb', b!],
      ['pd', d!],
    ] as const) {
      await deployment(NS.abort, app, 1, { nodeSelector: { [HOSTNAME]: node } });
      await running(NS.abort, app, 1);
      await pdb(NS.abort, `${app}-pdb`, app, 1);
    }
    // a was cordoned before the rollout: not the rollout's to uncordon.
    await setCordon(a!, true);
    const name = rolloutName('abort');
    rollouts.add(name);
    const owner = startCli([
      'rollout',
      'create',
      '--context',
      CONTEXT,
      '--node',
      a!,
      '--node',
      b!,
      '--node',
      d!,
      '--node',
      c!,
      '--priority',
      '-1',
      '--max-unavailable',
      '3',
      '--name',
      name,
      '--replace',
      'uncordon',
      ...FAST,
    ]);
    await eventually(
      'three drains blocked',
      async () => {
        const s = await readRollout(kc, name);
        return s && s.state.nodes.filter((n) => n.blockingPdb).length === 3;
      },
      60_000,
      250,
    );
    const before = await state(name);
    expect(before.nodes.map((n) => [n.name, n.phase, n.cordonedByUs])).toEqual([
      [a, 'draining', false],
      [b, 'draining', true],
      [d, 'draining', true],
      [c, 'waiting', false],
    ]);
    // Meanwhile an operator uncordoned b by hand, and cordoned c, which the rollout had not reached.
    await setCordon(b!, false);
    await setCordon(c!, true);

    const abort = await runCli(cli(['rollout', 'abort', name, '--context', CONTEXT, '--yes']));
    expect(abort.code, abort.stderr + abort.stdout).toBe(0);
    const leftA = `${a} cordoned (it was cordoned before the rollout took it)`;
    const leftC = `${c} cordoned (cordoned by someone else; the rollout had not reached it)`;
    expect(abort.stdout.trim().split('\n').slice(-5)).toEqual([
      `Nodes to uncordon (cordoned by the rollout, not finished): ${d}`,
      `Already schedulable (cordoned by the rollout, uncordoned since): ${b}`,
      `Left cordoned: ${a} (it was cordoned before the rollout took it)`,
      `Left cordoned: ${c} (cordoned by someone else; the rollout had not reached it)`,
      `Rollout ${name} aborted; uncordoned ${d}; already schedulable: ${b}; left ${leftA}; left ${leftC}.`,
    ]);
    const ended = await owner.done;
    expect(ended.code).toBe(1);
    expect(ended.stdout).toContain(`Rollout ${name} aborted`);

    const s = await state(name);
    expect(s.phase).toBe('Aborted');
    expect(s.owner).toBeUndefined();
    expect(s.log.at(-1)?.message).toBe(`abort: uncordoned ${d}; already schedulable: ${b}; left ${leftA}; left ${leftC}`);
    expect(s.nodes.filter((n) => n.cordonedByUs)).toEqual([]);
    expect(await unschedulable(d!)).toBe(false);
    expect(await unschedulable(b!)).toBe(false);
    expect(await unschedulable(a!)).toBe(true); // not ours
    expect(await unschedulable(c!)).toBe(true); // not ours either

    // Aborting again uncordons nothing and says so (JSON: what it found, what it did).
    const again = await runCli(cli(['rollout', 'abort', name, '--context', CONTEXT, '--yes', '-o', 'json']));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      kind: 'result',
      uncordoned: [],
      alreadySchedulable: [],
      gone: [],
      leftCordoned: [
        { node: a, reason: 'it was cordoned before the rollout took it' },
        { node: c, reason: 'cordoned by someone else; the rollout had not reached it' },
      ],
    });
    // Aborted is final.
    const resume = await runCli(cli(['rollout', 'resume', name, '--context', CONTEXT]));
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain('is Aborted: there is nothing to resume');

    await setCordon(a!, false);
    await setCordon(c!, false);
    for (const app of ['pa', 'pb', 'pd'])
      await objects.delete({
        apiVersion: 'policy/v1beta1',
        kind: 'PodDisruptionBudget',
        metadata: { name: `${app}-pdb`, namespace: NS.abort },
      } as KubernetesObject);
    await core.deleteNamespace({ name: NS.abort });
  });

  it('a drain refused for an unmanaged pod: create refuses before changing anything; a running rollout fails naming the flag', async () => {
    const node = (await schedulable()).at(-1)!;
    touched.add(node);
    await core.createNamespacedPod({
      namespace: NS.refuse,
      body: { metadata: { name: 'lonely', labels: { app: 'lonely' } }, spec: podSpec({ nodeName: node }) },
    });
    await running(NS.refuse, 'lonely', 1);

    const name = rolloutName('refuse');
    const refused = await runCli(cli(['rollout', 'create', '--context', CONTEXT, '--node', node, '--name', name, ...FAST]));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(new RegExp(`needs --force\\s+${NS.refuse}/lonely`));
    expect(refused.stdout).toContain(`nothing was changed: cannot drain node ${node}: needs --force for ${NS.refuse}/lonely`);
    expect(await readRollout(kc, name)).toBeUndefined();
    expect(await unschedulable(node)).toBe(false);

    // The pod arrived after the rollout was planned: the run fails on it, naming the flag.
    rollouts.add(name);
    const s = spec(name, { nodeNames: [{ name: node, priority: 0 }] });
    const created = await createRollout(kc, initialState(s, resolvePlan(await planNodes(), s)));
    const final = await runRollout(kc, created.state);
    expect(final.phase).toBe('Failed');
    expect(final.message).toContain(`needs --force for ${NS.refuse}/lonely`);
    expect(final.nodes[0]).toMatchObject({ phase: 'failed', cordonedByUs: true });
    expect(final.nodes[0]!.error).toContain('--force');
    // As kubectl, the refused node stays cordoned; abort gives it back.
    expect(await unschedulable(node)).toBe(true);
    const { state: aborted, uncordoned } = await abortRollout(kc, name);
    expect(aborted.phase).toBe('Aborted');
    expect(uncordoned).toEqual([node]);
    expect(await unschedulable(node)).toBe(false);
    // The pod is still there: nothing was evicted.
    expect((await core.readNamespacedPod({ namespace: NS.refuse, name: 'lonely' })).status?.phase).toBe('Running');
  });

  // ---------------------------------------------------------------------------------------------
  // NEEDS THE SANDBOX'S NODE REPLACEMENT (a Node annotated sandbox.fleetdeck.io/replace-when-drained:
  // "true" is deleted and replaced by a new node in the same zone once cordoned and drained). Until
  // the sandbox does that, this test fails: the old node is never deleted and the wait times out.
  it('replace wait: waits until the drained node is deleted and a new Ready node joins, and records it [needs sandbox node replacement]', async () => {
    const node = (await schedulable())[1]!;
    touched.add(node);
    const zone = (await core.readNode({ name: node })).metadata?.labels?.['topology.kubernetes.io/zone'];
    await core.patchNode({ name: node, body: { metadata: { annotations: { [REPLACE_WHEN_DRAINED]: 'true' } } } }, mergePatch());
    await deployment(NS.wait, 'web', 2, onlyOn((await schedulable()).slice(0, 5)));
    await running(NS.wait, 'web', 2);
    const name = rolloutName('wait');
    rollouts.add(name);
    const run = await runCli(
      cli(['rollout', 'create', '--context', CONTEXT, '--node', node, '--name', name, '--replace', 'wait', ...FAST]),
      { timeoutMs: 170_000 },
    );
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const s = await state(name);
    expect(s.phase).toBe('Completed');
    const replacement = s.nodes[0]!.replacement;
    expect(replacement).toBeDefined();
    expect(replacement).not.toBe(node);
    expect(run.stdout).toContain(`done (replaced by ${replacement})`);
    const after = await nodes();
    expect(after.some((n) => n.metadata?.name === node)).toBe(false);
    const fresh = after.find((n) => n.metadata?.name === replacement)!;
    expect(isReady(fresh)).toBe(true);
    expect(fresh.metadata?.labels?.['topology.kubernetes.io/zone']).toBe(zone);
    touched.add(replacement!);
  });
});
