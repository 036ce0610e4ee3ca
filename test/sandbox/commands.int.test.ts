import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../../src/node-flags.js';
import { isOurs, processCmdline, readState, recordedPids } from '../../src/sandbox/state.js';
import { CLI, eventually, runCli } from '../helpers/cli.js';

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
    const pids: number[] = await eventually('etcd started', () => {
      const st = readState(dir);
      return st?.clusters[0]?.pids.etcd ? recordedPids(st) : undefined;
    }, 120_000, 20);
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
    expect(up.code).toBe(0);
    expect(up.stdout.trim().split('\n').at(-1)).toBe(`export KUBECONFIG=${path.join(dir, 'kubeconfig')}`);
    expect(fs.statSync(path.join(dir, 'kubeconfig')).mode & 0o777).toBe(0o600);
    const state = readState(dir)!;
    const pids = recordedPids(state);
    expect(pids).toHaveLength(5); // supervisor + etcd, apiserver, controller manager, scheduler
    expect(pids.every((p) => isOurs(p, dir))).toBe(true);
    // fleetdeck's processes run with its V8 flags (src/node-flags.ts), set at their start.
    expect(processCmdline(state.supervisorPid)?.split(' ')).toEqual(expect.arrayContaining([...NODE_FLAGS]));
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
      expect((await runCli(['sandbox', 'up', '--dir', dir, '--workloads', '0', '--nodes', '1'])).code).toBe(0);
      const first = readState(dir)!;
      const children = recordedPids(first).filter((p) => p !== first.supervisorPid);
      process.kill(first.supervisorPid, 'SIGKILL');
      await eventually('supervisor gone', () => !isOurs(first.supervisorPid, dir));
      // Its children are orphans now, still running.
      expect(children.every((p) => isOurs(p, dir))).toBe(true);
      const status = await runCli(['sandbox', 'status', '--dir', dir]);
      expect(status.code).toBe(1);
      expect((await runCli(['sandbox', 'up', '--dir', dir, '--workloads', '0', '--nodes', '1'])).code).toBe(0);
      expect(children.filter((p) => isOurs(p, dir))).toEqual([]);
      expect(readState(dir)!.supervisorPid).not.toBe(first.supervisorPid);
      expect((await runCli(['sandbox', 'status', '--dir', dir])).code).toBe(0);
    } finally {
      await runCli(['sandbox', 'down', '--dir', dir]);
    }
  });
});
