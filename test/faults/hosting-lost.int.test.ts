/**
 * Fault suite: the hosting cluster's API server lost in the middle of an install and of a rollout
 * (both on it, at once). Each stops with the reason — the install with a failed row saying the
 * server did not answer, the rollout paused — without a crash or a stack trace; once the server is
 * back, running the install again and `rollout resume` finish. On a sandbox of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppsV1Api, CoreV1Api, KubernetesObjectApi, type KubernetesObject, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../src/kube/transport/client.js';
import { waitFor } from '../../src/kube/watch/wait.js';
import { readRollout } from '../../src/rollout/state.js';
import { eventually, runCli } from '../helpers/cli/cli.js';
import { type FaultSandbox, faultSandbox, type RunningCli, secs, startCli, stopCli, summary } from '../helpers/sandbox/fault-sandbox.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';

const HOSTING = 'kind-cp';
const NODE = 'cp-node-2';
const NS = 'fault-rollout';
const ROLLOUT = 'fault-lost';
const PDB = { apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { name: 'held', namespace: NS } };

let sandbox: FaultSandbox;
let dir: string;
const children: RunningCli[] = [];

beforeAll(async () => {
  sandbox = await faultSandbox();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fault-fleet-'));
});

afterAll(async () => {
  for (const c of children) await stopCli(c);
  await sandbox?.drill('start', 'apiserver', HOSTING).catch(() => {});
  await sandbox?.down();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One pod on NODE that a PodDisruptionBudget keeps from being evicted: the drain goes on until the budget is deleted. */
async function heldPod(): Promise<void> {
  const kc = sandbox.kc(HOSTING);
  await createNamespace(makeClient(kc, CoreV1Api), NS);
  await makeClient(kc, AppsV1Api).createNamespacedDeployment({
    namespace: NS,
    body: {
      metadata: { name: 'held' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'held' } },
        template: {
          metadata: { labels: { app: 'held' } },
          spec: {
            nodeSelector: { 'kubernetes.io/hostname': NODE },
            terminationGracePeriodSeconds: 1,
            containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }],
          },
        },
      },
    },
  });
  await makeClient(kc, KubernetesObjectApi).create({
    ...PDB,
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'held' } } },
  } as KubernetesObject);
  await waitFor<V1Pod>({
    kc,
    path: `/api/v1/namespaces/${NS}/pods`,
    timeoutMs: 60_000,
    check: (pods) => ({ done: pods.some((p) => p.status?.phase === 'Running'), detail: `${pods.length} pods` }),
  });
  await waitFor<KubernetesObject & { status?: { currentHealthy?: number; disruptionsAllowed?: number } }>({
    kc,
    path: `/apis/policy/v1beta1/namespaces/${NS}/poddisruptionbudgets`,
    timeoutMs: 60_000,
    check: (items) => ({ done: items[0]?.status?.currentHealthy === 1 && items[0].status.disruptionsAllowed === 0, detail: 'budget' }),
  });
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('the hosting cluster lost in the middle of an install and a rollout', () => {
  it('both stop with the reason; the install run again and rollout resume finish once it is back', async () => {
    await heldPod();
    const env = { FLEETDECK_FLEET_FILE: path.join(dir, 'fleet.yaml') };
    const k = ['--kubeconfig', sandbox.kubeconfig];
    const install = [
      ...k,
      'install',
      '--hosting-context',
      HOSTING,
      '--workload',
      'kind-workload-1',
      '--namespace',
      'nova-fault',
      '--no-ha',
    ];
    const rollout = startCli(
      [...k, 'rollout', 'create', '--context', HOSTING, '--node', NODE, '--name', ROLLOUT, '--replace', 'uncordon'].concat([
        '--health-passes',
        '1',
        '--health-interval',
        '1s',
        '--yes',
      ]),
      env,
    );
    children.push(rollout);
    await eventually('the rollout drains', () => rollout.find(0, (t) => /draining \d+\/\d+ pods/.test(t)), 60_000);
    const installing = startCli([...install, '--yes'], env);
    children.push(installing);
    await eventually('the install waits for the control plane', () => installing.find(0, (t) => /\* ETCD\.\.\. /.test(t)), 120_000, 20);

    await sandbox.drill('stop', 'apiserver', HOSTING);
    const lost = Date.now();
    const [installEnd, rolloutEnd] = await Promise.all([installing.done, rollout.done]);
    const installOut = installing.lines.map((l) => l.text).join('\n');
    const rolloutOut = rollout.lines.map((l) => l.text).join('\n');
    const installStopped = installing.lines.at(-1)!.at - lost;
    const rolloutPaused = rollout.lines.at(-1)!.at - lost;
    expect(installEnd.code, installOut).toBe(1);
    expect(installOut).toMatch(/no answer from the API server for 60 s \(connection refused\) \(\d[^)]*\) ✗/);
    expect(installOut).toContain(`the API server of ${HOSTING} stopped answering`);
    expect(installOut).toContain('The install stopped.');
    noStack(installing.stderr());
    expect(rolloutEnd.code, rolloutOut).toBe(1);
    expect(rolloutOut).toMatch(new RegExp(`Rollout ${ROLLOUT} paused: stopped: .*connection refused`));
    expect(rolloutOut).toContain(`fleetdeck rollout resume ${ROLLOUT} --context ${HOSTING}`);
    noStack(rollout.stderr());

    await sandbox.drill('start', 'apiserver', HOSTING);
    const back = Date.now();
    // The budget goes: the resumed drain can finish.
    await makeClient(sandbox.kc(HOSTING), KubernetesObjectApi).delete(PDB as KubernetesObject);
    const [again, resumed] = await Promise.all([
      runCli([...install, '--yes', '-o', 'json'], { env, timeoutMs: 300_000 }),
      runCli([...k, 'rollout', 'resume', ROLLOUT, '--context', HOSTING], { env, timeoutMs: 300_000 }),
    ]);
    const finished = Date.now();
    expect(again.stderr).toBe('');
    expect(again.code, again.stdout).toBe(0);
    expect((JSON.parse(again.stdout) as { ok: boolean }).ok).toBe(true);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`Rollout ${ROLLOUT} completed: 1/1 nodes done.`);
    const state = await readRollout(sandbox.kc(HOSTING), ROLLOUT);
    expect(state?.state.phase).toBe('Completed');
    expect((await makeClient(sandbox.kc(HOSTING), CoreV1Api).readNode({ name: NODE })).spec?.unschedulable).not.toBe(true);
    summary('hosting cluster lost during an install and a rollout', {
      'install stopped after': secs(installStopped),
      'rollout paused after': secs(rolloutPaused),
      crashes: [installEnd, rolloutEnd].filter((e) => e.signal !== null).length,
      'install run again and rollout resumed in': secs(finished - back),
    });
  }, 600_000);
});
