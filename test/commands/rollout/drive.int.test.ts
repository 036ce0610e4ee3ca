/**
 * A rollout run by the built CLI, stopped from outside on a sandbox cluster (kind-workload-1):
 * SIGHUP (a closed SSH session) and SIGTERM pause it as Ctrl-C does — recorded in its
 * ConfigMap, exit 129 and 143 — and `rollout resume` finishes it. `rollout watch` ends on SIGHUP
 * with 129. In a real terminal (tmux), closing it (kill-session: SIGHUP to the process group) pauses
 * the rollout the same way, the node left cordoned and resumable. A PodDisruptionBudget keeps the
 * drain going until the test releases it. The node is
 * uncordoned, the namespace and the rollout's ConfigMap deleted at the end.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
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
  type V1Pod,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { waitFor } from '../../../src/kube/watch/wait.js';
import { readRollout } from '../../../src/rollout/state.js';
import { configMapName, ROLLOUT_NAMESPACE, type RolloutState } from '../../../src/rollout/types.js';
import { CLI, ROOT, eventually, runCli } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXT = 'kind-workload-1';
const HOSTNAME = 'kubernetes.io/hostname';
const suffix = Math.random().toString(36).slice(2, 7);
const NS = `ro-signals-${suffix}`;
const NAME = `t-signals-${suffix}`;
const TMUX_NAME = `t-tmux-${suffix}`;
const TMUX_SESSION = `fd-rollout-${suffix}`;
/** Beside any other rollout of the cluster: another file's, on the shared fleet, must not hold these. */
const FAST = ['--health-passes', '1', '--health-interval', '1s', '--concurrent', '--yes'];

let kc: KubeConfig;
let core: CoreV1Api;
let objects: KubernetesObjectApi;
let node: string | undefined;
const children = new Set<ChildProcess>();

type Done = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

function startCli(args: string[]): { child: ChildProcess; out: () => string; done: Promise<Done> } {
  const child = spawn(process.execPath, [CLI, '--kubeconfig', kubeconfig, ...args], {
    env: { ...process.env, CI: 'true', FLEETDECK_FLEET_FILE: path.join(ROOT, 'test', 'no-fleet.yaml') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Done>((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { child, out: () => stdout + stderr, done };
}

async function state(): Promise<RolloutState> {
  const s = await readRollout(kc, NAME);
  if (!s) throw new Error(`no rollout ${NAME}`);
  return s.state;
}

/** Runs `args` until the node's drain is under way, then sends `signal`. */
async function stopInDrain(args: string[], signal: NodeJS.Signals): Promise<Done> {
  const run = startCli(args);
  await eventually('the CLI reports the node draining', () => new RegExp(`${node} .*draining \\d+/\\d+ pods`).test(run.out()), 90_000);
  run.child.kill(signal);
  return run.done;
}

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  kc = configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
  core = makeClient(kc, CoreV1Api, 30_000);
  objects = makeClient(kc, KubernetesObjectApi, 30_000);
  const apps = makeClient(kc, AppsV1Api, 30_000);
  const ready = (await core.listNode()).items.filter(
    (n) => !n.spec?.unschedulable && (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
  );
  node = ready.map((n) => n.metadata!.name!).sort()[0];
  if (!node) throw new Error(`no schedulable node in ${CONTEXT}`);
  await createNamespace(core, NS);
  // One pod on the node and a budget that allows no disruption: its drain waits until the budget goes.
  await apps.createNamespacedDeployment({
    namespace: NS,
    body: {
      metadata: { name: 'held' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'held' } },
        template: {
          metadata: { labels: { app: 'held' } },
          spec: {
            containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }],
            terminationGracePeriodSeconds: 1,
            nodeSelector: { [HOSTNAME]: node },
          },
        },
      },
    },
  });
  await waitFor<V1Pod>({
    kc,
    path: `/api/v1/namespaces/${NS}/pods`,
    timeoutMs: 90_000,
    check: (items) => ({ done: items.some((p) => p.status?.phase === 'Running'), detail: `${items.length} pods` }),
  });
  await objects.create({
    apiVersion: 'policy/v1beta1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'held-pdb', namespace: NS },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'held' } } },
  } as KubernetesObject);
  await waitFor<KubernetesObject & { status?: { currentHealthy?: number; disruptionsAllowed?: number } }>({
    kc,
    path: `/apis/policy/v1beta1/namespaces/${NS}/poddisruptionbudgets`,
    timeoutMs: 60_000,
    check: (items) => {
      const s = items[0]?.status;
      return { done: s?.currentHealthy === 1 && s.disruptionsAllowed === 0, detail: JSON.stringify(s ?? {}) };
    },
  });
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  if (node)
    await core.patchNode(
      { name: node, body: { spec: { unschedulable: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  await core.deleteNamespacedConfigMap({ name: configMapName(NAME), namespace: ROLLOUT_NAMESPACE }).catch(() => {});
  await core.deleteNamespacedConfigMap({ name: configMapName(TMUX_NAME), namespace: ROLLOUT_NAMESPACE }).catch(() => {});
  spawnSync('tmux', ['kill-session', '-t', TMUX_SESSION]);
  await core.deleteNamespace({ name: NS }).catch(() => {});
});

/**
 * Runs the CLI in a detached tmux session of 80×24 (a real terminal: the live view draws), through a
 * small wrapper that outlives the session's SIGHUP and writes the CLI's exit code to `codeFile`.
 */
function inTmux(args: string[], codeFile: string): void {
  const wrapper = [
    "const { spawn } = require('node:child_process');",
    "process.on('SIGHUP', () => {});",
    'const [file, ...argv] = process.argv.slice(1);',
    "const c = spawn(process.execPath, argv, { stdio: 'inherit' });",
    "c.on('exit', (code, signal) => { require('node:fs').writeFileSync(file, String(code ?? signal)); process.exit(0); });",
  ].join('\n');
  const cmd = [process.execPath, '-e', wrapper, codeFile, CLI, '--kubeconfig', kubeconfig, ...args].map(
    (a) => `'${a.replace(/'/g, `'\\''`)}'`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, FLEETDECK_FLEET_FILE: path.join(ROOT, 'test', 'no-fleet.yaml') };
  delete env.CI;
  const res = spawnSync('tmux', ['new-session', '-d', '-x', '80', '-y', '24', '-s', TMUX_SESSION, cmd.join(' ')], { env });
  if (res.status !== 0) throw new Error(`tmux: ${res.stderr.toString()}`);
}

const pane = () => spawnSync('tmux', ['capture-pane', '-p', '-t', TMUX_SESSION]).stdout?.toString() ?? '';

describe('a rollout in a terminal that closes', () => {
  it('tmux kill-session (SIGHUP to the process group) pauses it, recorded, exit 129, the node cordoned; resume continues it; SIGTERM pauses again', async () => {
    const codeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fd-tmux-')), 'code');
    inTmux(['rollout', 'create', '--context', CONTEXT, '--node', node!, '--name', TMUX_NAME, '--replace', 'uncordon', ...FAST], codeFile);
    await eventually(
      'the rollout drains in the terminal',
      async () => (await readRollout(kc, TMUX_NAME))?.state.nodes[0]?.phase === 'draining' && pane().includes(TMUX_NAME),
      90_000,
    );
    expect(spawnSync('tmux', ['kill-session', '-t', TMUX_SESSION]).status).toBe(0);
    const code = await eventually('the CLI exits', () => (fs.existsSync(codeFile) ? fs.readFileSync(codeFile, 'utf8') : undefined), 60_000);
    fs.rmSync(path.dirname(codeFile), { recursive: true, force: true });
    expect(code).toBe('129');
    const paused = (await readRollout(kc, TMUX_NAME))!.state;
    expect(paused.phase).toBe('Paused');
    expect(paused.message).toContain('the terminal closed');
    expect(paused.owner).toBeFalsy();
    // Cordoned, and resumable: the node stays out of scheduling, recorded as cordoned by the rollout.
    expect(paused.nodes[0]).toMatchObject({ name: node, phase: 'draining', cordonedByUs: true });
    expect((await core.readNode({ name: node! })).spec?.unschedulable).toBe(true);

    // resume continues it (the budget still holds the pod: it drains again), and SIGTERM pauses it the same way.
    const resumed = startCli(['rollout', 'resume', TMUX_NAME, '--context', CONTEXT]);
    await eventually('resume drains the node again', () => new RegExp(`${node} .*draining \\d+/\\d+ pods`).test(resumed.out()), 90_000);
    expect(resumed.out()).toContain(
      `Resuming rollout ${TMUX_NAME} on ${CONTEXT}: Paused, 0/1 nodes done (interrupted: SIGHUP (the terminal closed))`,
    );
    resumed.child.kill('SIGTERM');
    const term = await resumed.done;
    expect(term.code, term.stderr).toBe(143);
    expect((await readRollout(kc, TMUX_NAME))!.state).toMatchObject({ phase: 'Paused', message: 'interrupted: SIGTERM' });

    // Put back for the next test: the rollout aborted (its cordon undone).
    const aborted = await runCli(['--kubeconfig', kubeconfig, 'rollout', 'abort', TMUX_NAME, '--context', CONTEXT, '--yes']);
    expect(aborted.code, aborted.stderr + aborted.stdout).toBe(0);
    expect((await core.readNode({ name: node! })).spec?.unschedulable).toBeFalsy();
  });
});

describe('a rollout stopped by a signal', () => {
  it('SIGHUP and SIGTERM pause it (recorded, exit 129 and 143); rollout watch ends on SIGHUP with 129; resume finishes it', async () => {
    const create = ['rollout', 'create', '--context', CONTEXT, '--node', node!, '--name', NAME, '--replace', 'uncordon', ...FAST];
    const hup = await stopInDrain(create, 'SIGHUP');
    expect(hup.code, hup.stderr).toBe(129);
    expect(hup.signal).toBeNull();
    expect(hup.stderr).toBe('');
    const paused = await state();
    expect(paused.phase).toBe('Paused');
    expect(paused.message).toBe('interrupted: SIGHUP (the terminal closed)');
    expect(paused.owner).toBeFalsy();
    expect(paused.log.some((l) => l.message.includes('SIGHUP') && l.message.includes(`fleetdeck rollout resume ${NAME}`))).toBe(true);

    // Every rollout of the cluster, until the session closes.
    const watch = startCli(['rollout', 'watch', '--context', CONTEXT]);
    await eventually('rollout watch prints the rollout', () => watch.out().includes(NAME), 30_000);
    watch.child.kill('SIGHUP');
    const watched = await watch.done;
    expect(watched.code).toBe(129);
    expect(watched.stderr).toBe('');

    const term = await stopInDrain(['rollout', 'resume', NAME, '--context', CONTEXT], 'SIGTERM');
    expect(term.code, term.stderr).toBe(143);
    expect(term.stderr).toBe('');
    const pausedAgain = await state();
    expect(pausedAgain.phase).toBe('Paused');
    expect(pausedAgain.message).toBe('interrupted: SIGTERM');

    // Released: the resumed drain goes through.
    await objects.delete({
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'held-pdb', namespace: NS },
    } as KubernetesObject);
    const resumed = await runCli(['--kubeconfig', kubeconfig, 'rollout', 'resume', NAME, '--context', CONTEXT]);
    expect(resumed.code, resumed.stderr + resumed.stdout).toBe(0);
    expect(resumed.stdout).toContain(`Rollout ${NAME} completed: 1/1 nodes done.`);
    expect((await state()).phase).toBe('Completed');
    expect((await core.readNode({ name: node! })).spec?.unschedulable).toBeFalsy();
  });
});
