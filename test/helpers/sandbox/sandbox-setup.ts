import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { readState, recordedPids, isOurs } from '../../../src/sandbox/state.js';
import { runCli } from '../cli/cli.js';

declare module 'vitest' {
  export interface ProvidedContext {
    sandboxDir: string;
    kubeconfig: string;
    readOnlyKubeconfig: string;
  }
}

/**
 * One sandbox fleet (hosting + 2 workload clusters, 6 simulated nodes each) for the whole
 * integration run, started through the real CLI, stopped at the end — and checked that
 * `sandbox down` left no process behind.
 */
export default async function setup(project: TestProject) {
  // A sandbox already running (`fleetdeck sandbox up --dir DIR`) can be reused while working on a
  // few test files: FLEETDECK_TEST_SANDBOX=DIR. It is left running.
  const reuse = process.env.FLEETDECK_TEST_SANDBOX;
  if (reuse) {
    const running = readState(reuse);
    if (!running) throw new Error(`FLEETDECK_TEST_SANDBOX=${reuse}: no sandbox state there`);
    project.provide('sandboxDir', reuse);
    project.provide('kubeconfig', running.kubeconfig);
    project.provide('readOnlyKubeconfig', running.readOnlyKubeconfig);
    return;
  }
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
  project.provide('sandboxDir', dir);
  project.provide('kubeconfig', state.kubeconfig);
  project.provide('readOnlyKubeconfig', state.readOnlyKubeconfig);

  return async () => {
    const pids = recordedPids(readState(dir) ?? state);
    const down = await runCli(['sandbox', 'down', '--dir', dir]);
    const left = pids.filter((p) => isOurs(p, dir));
    if (down.code !== 0 || left.length > 0 || fs.existsSync(dir)) {
      throw new Error(
        `sandbox down: exit ${down.code}, processes left: ${left.join(', ') || 'none'}, dir left: ${fs.existsSync(dir)}\n${down.stderr}`,
      );
    }
  };
}

function safeRead(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').slice(-4000);
  } catch {
    return '';
  }
}
