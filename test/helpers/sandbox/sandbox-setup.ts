import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { readState, recordedPids, isOurs } from '../../../src/sandbox/state.js';
import { runCli } from '../cli/cli.js';
import type { SandboxFleet } from './fleet.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One sandbox fleet per worker of the integration project (test/helpers/sandbox/fleet.ts picks the worker's). */
    sandboxes: SandboxFleet[];
  }
}

/**
 * One sandbox fleet (hosting + 2 workload clusters, 6 simulated nodes each) per worker of the
 * integration project, started through the real CLI at once, stopped at the end — and checked
 * that `sandbox down` left no process behind. Each file runs alone on its worker's fleet, as it
 * ran alone on the one fleet before; two files run at once, each on its own.
 */
export default async function setup(project: TestProject) {
  // A sandbox already running (`fleetdeck sandbox up --dir DIR`) can be reused while working on a
  // few test files: FLEETDECK_TEST_SANDBOX=DIR (with --maxWorkers 1: one file at a time on it). It is left running.
  const reuse = process.env.FLEETDECK_TEST_SANDBOX;
  if (reuse) {
    const running = readState(reuse);
    if (!running) throw new Error(`FLEETDECK_TEST_SANDBOX=${reuse}: no sandbox state there`);
    project.provide('sandboxes', [{ dir: reuse, kubeconfig: running.kubeconfig, readOnlyKubeconfig: running.readOnlyKubeconfig }]);
    return;
  }
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const started = await Promise.allSettled(Array.from({ length: workers }, () => startFleet()));
  const fleets = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(fleets.map((f) => stopFleet(f)));
    throw (failed as PromiseRejectedResult).reason;
  }
  project.provide('sandboxes', fleets);
  return async () => {
    const errors = (await Promise.allSettled(fleets.map((f) => stopFleet(f)))).filter((r) => r.status === 'rejected');
    if (errors.length) throw (errors[0] as PromiseRejectedResult).reason;
  };
}

async function startFleet(): Promise<SandboxFleet> {
  // Short path: the control socket lives in it (unix socket paths are limited to 108 bytes).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-it-'));
  // No replacement of drained nodes: tests drain and uncordon nodes; those that want a node
  // replaced annotate it (sandbox.fleetdeck.io/replace-when-drained).
  const up = await runCli(['sandbox', 'up', '--dir', dir, '--workloads', '2', '--nodes', '6', '--no-replace'], { timeoutMs: 60 * 60_000 });
  if (up.code !== 0) {
    const log = safeRead(path.join(dir, 'supervisor.log'));
    // `up` stopped whatever it had started: nothing is left to keep but the directory.
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`sandbox up failed (exit ${up.code}):\n${up.stderr}\n${up.stdout}\n${log}`);
  }
  const state = readState(dir);
  if (!state) throw new Error('sandbox up succeeded but wrote no state');
  return { dir, kubeconfig: state.kubeconfig, readOnlyKubeconfig: state.readOnlyKubeconfig };
}

async function stopFleet(f: SandboxFleet): Promise<void> {
  const state = readState(f.dir);
  const pids = state ? recordedPids(state) : [];
  const down = await runCli(['sandbox', 'down', '--dir', f.dir]);
  const left = pids.filter((p) => isOurs(p, f.dir));
  if (down.code !== 0 || left.length > 0 || fs.existsSync(f.dir)) {
    throw new Error(
      `sandbox down: exit ${down.code}, processes left: ${left.join(', ') || 'none'}, dir left: ${fs.existsSync(f.dir)}\n${down.stderr}`,
    );
  }
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-4000);
  } catch {
    return '';
  }
}
