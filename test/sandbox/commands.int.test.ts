import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { NODE_FLAGS } from '../../src/node-flags.js';
import { REPLACE_WHEN_DRAINED_ANNOTATION } from '../../src/sandbox/sim/index.js';
import { isOurs, processCmdline, readState, recordedPids } from '../../src/sandbox/state.js';
import { CLI, eventually, runCli } from '../helpers/cli/cli.js';
import { ETCD_IMAGE } from '../helpers/sandbox/control-plane.js';
import { expectMatchesSchema } from '../helpers/schema.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const sandboxDir = sandbox().dir;

/** `sandbox up` succeeds (its output in the failure message otherwise). */
async function expectUp(args: string[]): Promise<void> {
  const up = await runCli(args);
  expect(up.code, `${up.stderr}\n${up.stdout}`).toBe(0);
}

const isReady = (p: V1Pod | undefined) => p?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/** A second, small sandbox (hosting cluster only, one node) for start/stop behaviour. */
describe('sandbox lifecycle', () => {
  it('Ctrl-C during `sandbox up` stops everything it started', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-int-'));
    const up = spawn(process.execPath, [CLI, 'sandbox', 'up', '--dir', dir, '--workloads', '0', '--nodes', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    up.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => up.on('close', r));
    // Interrupt once etcd runs, mid-way through start-up.
    const pids: number[] = await eventually(
      'etcd started',
      () => {
        const st = readState(dir);
        return st?.clusters[0]?.pids.etcd ? recordedPids(st) : undefined;
      },
      120_000,
      20,
    );
    up.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr.trim().split('\n').at(-1)).toMatch(/^fleetdeck: interrupted/);
    const latest = [...pids, ...(readState(dir) ? recordedPids(readState(dir)!) : [])];
    expect(latest.filter((p) => isOurs(p, dir))).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('`sandbox down` stops exactly the recorded processes and removes the state', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-int-'));
    const up = await runCli(['sandbox', 'up', '--dir', dir, '--workloads', '0', '--nodes', '1']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout.trim().split('\n').at(-1)).toBe(`export KUBECONFIG=${path.join(dir, 'kubeconfig')}`);
    expect(fs.statSync(path.join(dir, 'kubeconfig')).mode & 0o777).toBe(0o600);
    const state = readState(dir)!;
    const pids = recordedPids(state);
    expect(pids).toHaveLength(5); // supervisor + etcd, apiserver, controller manager, scheduler
    expect(pids.every((p) => isOurs(p, dir))).toBe(true);
    // fleetdeck's processes run with its V8 flags (src/node-flags.ts), set at their start.
    expect(processCmdline(state.supervisorPid)?.split(' ')).toEqual(expect.arrayContaining([...NODE_FLAGS]));
    // Drained nodes are replaced by default: the node is registered annotated for it.
    const nodes = await makeClient(
      configForContext(loadKubeconfig({ kubeconfig: state.kubeconfig }).config, 'kind-cp'),
      CoreV1Api,
    ).listNode();
    expect(nodes.items.map((n) => n.metadata?.annotations?.[REPLACE_WHEN_DRAINED_ANNOTATION])).toEqual(['true']);
    const down = await runCli(['sandbox', 'down', '--dir', dir]);
    expect(down.code).toBe(0);
    expect(down.stdout).toMatch(/sandbox stopped: 5 processes ended/);
    expect(pids.filter((p) => isOurs(p, dir))).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
    // Idempotent.
    const again = await runCli(['sandbox', 'down', '--dir', dir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/not running/);
  });

  it('after the supervisor was killed (SIGKILL), `up` stops its orphans and starts afresh', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-int-'));
    try {
      await expectUp(['sandbox', 'up', '--dir', dir, '--workloads', '0', '--nodes', '1']);
      const first = readState(dir)!;
      const children = recordedPids(first).filter((p) => p !== first.supervisorPid);
      process.kill(first.supervisorPid, 'SIGKILL');
      await eventually('supervisor gone', () => !isOurs(first.supervisorPid, dir));
      // Its children are orphans now, still running.
      expect(children.every((p) => isOurs(p, dir))).toBe(true);
      const status = await runCli(['sandbox', 'status', '--dir', dir]);
      expect(status.code).toBe(1);
      expect(status.stdout).toContain(
        `the sandbox's supervisor is gone (its clusters' processes may still run); clean up with \`fleetdeck sandbox down --dir ${dir}\``,
      );
      await expectUp(['sandbox', 'up', '--dir', dir, '--workloads', '0', '--nodes', '1']);
      expect(children.filter((p) => isOurs(p, dir))).toEqual([]);
      expect(readState(dir)!.supervisorPid).not.toBe(first.supervisorPid);
      expect((await runCli(['sandbox', 'status', '--dir', dir])).code).toBe(0);
    } finally {
      await runCli(['sandbox', 'down', '--dir', dir]);
    }
  });
});

describe('`sandbox status` on a stopped cluster', () => {
  interface Status {
    healthy: boolean;
    phase: string;
    problem?: string;
    clusters: { context: string; apiserver: string; processes: { down: string[] }; problem?: string }[];
  }
  const status = async (dir: string) => {
    const text = await runCli(['sandbox', 'status', '--dir', dir]);
    const json = await runCli(['sandbox', 'status', '--dir', dir, '-o', 'json']);
    return { code: text.code, text: text.stdout, jsonCode: json.code, json: JSON.parse(json.stdout) as Status };
  };

  it('names the cluster that is down, says what to do, and exits 1', async () => {
    // A sandbox of its own: the shared one's servers are never stopped.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-st-'));
    try {
      await expectUp(['sandbox', 'up', '--dir', dir, '--workloads', '1', '--nodes', '1']);
      const healthy = await status(dir);
      expect([healthy.code, healthy.jsonCode, healthy.json.healthy]).toEqual([0, 0, true]);
      expect(healthy.text.split('\n')[0]).toBe(`sandbox ready in ${dir}`);

      // Given the control socket stopped one API server,
      expect((await runCli(['sandbox', 'stop-apiserver', 'kind-workload-1', '--dir', dir])).code).toBe(0);
      // then status is not "ready": it names the cluster and the command that brings it back.
      const stopped = await status(dir);
      expect([stopped.code, stopped.jsonCode]).toEqual([1, 1]);
      expect(stopped.text.split('\n')[0]).toBe(`sandbox in ${dir} is NOT healthy: 1 of 2 clusters not healthy: kind-workload-1`);
      expect(stopped.text).toContain(
        `kind-workload-1 is down: its API server was stopped (sandbox stop-apiserver); start it with: fleetdeck sandbox start-apiserver kind-workload-1 --dir ${dir}`,
      );
      expect(stopped.json).toMatchObject({ healthy: false, phase: 'ready' });
      expect(stopped.json.clusters.map((c) => [c.context, c.apiserver, c.processes.down, c.problem !== undefined])).toEqual([
        ['kind-cp', 'ready', [], false],
        ['kind-workload-1', 'stopped', ['kube-apiserver'], true],
      ]);

      // Brought back, it is healthy again (once the simulated kubelet's node is Ready again).
      expect((await runCli(['sandbox', 'start-apiserver', 'kind-workload-1', '--dir', dir])).code).toBe(0);
      await eventually('healthy again', async () => (await status(dir)).code === 0, 60_000, 500);

      // Given a cluster's process died (the supervisor does not restart it),
      const scheduler = readState(dir)!.clusters[0]!.pids['kube-scheduler']!;
      process.kill(scheduler, 'SIGKILL');
      await eventually('scheduler gone', () => !isOurs(scheduler, dir));
      const dead = await status(dir);
      expect(dead.code).toBe(1);
      expect(dead.text).toContain(`1 of 2 clusters not healthy: kind-cp`);
      expect(dead.text).toContain(
        `kind-cp is down: kube-scheduler is not running (log: ${path.join(dir, 'clusters', 'cp', 'logs', 'kube-scheduler.log')}); restart the sandbox: fleetdeck sandbox down --dir ${dir} && fleetdeck sandbox up --dir ${dir}`,
      );
      expect(dead.json.clusters[0]?.processes.down).toEqual(['kube-scheduler']);
    } finally {
      await runCli(['sandbox', 'down', '--dir', dir]);
    }
  });
});

describe('the shared sandbox, seen through the CLI', () => {
  it('`sandbox up` again while it runs just prints the export line again (and leaves the nodes as they are)', async () => {
    const core = makeClient(configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-workload-1'), CoreV1Api);
    const annotated = async () =>
      (await core.listNode()).items
        .filter((n) => n.metadata?.annotations?.[REPLACE_WHEN_DRAINED_ANNOTATION] === 'true')
        .map((n) => n.metadata?.name);
    const before = await annotated();
    const res = await runCli(['sandbox', 'up', '--dir', sandboxDir]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe(`export KUBECONFIG=${kubeconfig}`);
    expect(res.stderr).not.toMatch(/annotated/);
    expect(await annotated()).toEqual(before);
  });

  it('`sandbox status` lists every cluster healthy', async () => {
    const res = await runCli(['sandbox', 'status', '-o', 'json', '--dir', sandboxDir]);
    expect(res.code).toBe(0);
    const s = JSON.parse(res.stdout) as { running: boolean; clusters: { context: string; apiserver: string; nodes: { ready: number } }[] };
    expectMatchesSchema(s, 'sandbox-status');
    expect(s.running).toBe(true);
    expect(s.clusters.map((c) => [c.context, c.apiserver, c.nodes.ready])).toEqual([
      ['kind-cp', 'ready', 6],
      ['kind-workload-1', 'ready', 6],
      ['kind-workload-2', 'ready', 6],
    ]);
  });
});

describe('processes of pods after the supervisor was killed', () => {
  it('`sandbox down` stops them too', async () => {
    // A sandbox of its own (one cluster, one node): the shared one must keep its supervisor.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-cp-'));
    try {
      await expectUp(['sandbox', 'up', '--dir', dir, '--workloads', '0', '--nodes', '1']);
      const kc = configForContext(loadKubeconfig({ kubeconfig: path.join(dir, 'kubeconfig') }).config, 'kind-cp');
      const api = makeClient(kc, CoreV1Api);
      await api.createNamespacedPod({
        namespace: 'default',
        body: {
          metadata: { name: 'etcd-alone', labels: { app: 'etcd-alone' } },
          spec: {
            containers: [
              {
                name: 'etcd',
                image: ETCD_IMAGE,
                command: ['etcd'],
                args: ['--name=$(POD_NAME)'],
                env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
              },
            ],
          },
        },
      });
      await eventually(
        'etcd-alone Ready',
        async () =>
          (await api.listNamespacedPod({ namespace: 'default', labelSelector: 'app=etcd-alone' })).items.find(
            (p) => !p.metadata?.deletionTimestamp && isReady(p),
          ),
        60_000,
        500,
      );
      const state = readState(dir)!;
      const pids = Object.values(state.clusters[0]?.podProcesses ?? {});
      expect(pids).toHaveLength(1);
      process.kill(state.supervisorPid, 'SIGKILL');
      await eventually('supervisor gone', () => !isOurs(state.supervisorPid, dir));
      expect(pids.every((p) => isOurs(p, dir))).toBe(true); // orphaned, still running
      const down = await runCli(['sandbox', 'down', '--dir', dir]);
      expect(down.code).toBe(0);
      expect(pids.filter((p) => isOurs(p, dir))).toEqual([]);
      expect(fs.existsSync(dir)).toBe(false);
    } finally {
      await runCli(['sandbox', 'down', '--dir', dir]);
    }
  });
});
