/**
 * A sandbox of its own for the fault suite (hosting + 1 workload cluster, 2 nodes each), started
 * and stopped through the built CLI, so stopping its API servers and etcd never disturbs the
 * integration run's shared sandbox. Its drills, the CLI as a child whose lines are read as they
 * come (src/bench/running-cli.ts, shared with the fault figure of `npm run bench`), and the one
 * summary line per scenario.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { type RunningCli, spawnCli } from '../../../src/bench/running-cli.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { isOurs, readState, recordedPids, type SandboxState } from '../../../src/sandbox/state.js';
import { CLI, ROOT, runCli } from '../cli/cli.js';

export interface FaultSandbox {
  dir: string;
  state: SandboxState;
  kubeconfig: string;
  kc(context: string): KubeConfig;
  /** `sandbox stop-…`/`start-…` through the CLI; throws when it fails. */
  drill(action: 'stop' | 'start', role: 'apiserver' | 'etcd', context: string): Promise<void>;
  /** Stops everything; throws when a process or the directory is left. */
  down(): Promise<void>;
}

export async function faultSandbox(): Promise<FaultSandbox> {
  // Short path: the control socket lives in it (unix socket paths are limited to 108 bytes).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-fault-'));
  const up = await runCli(['sandbox', 'up', '--dir', dir, '--workloads', '1', '--nodes', '2', '--no-replace'], { timeoutMs: 60 * 60_000 });
  const state = readState(dir);
  if (up.code !== 0 || !state) {
    await runCli(['sandbox', 'down', '--dir', dir]);
    throw new Error(`sandbox up failed (exit ${up.code}):\n${up.stderr}\n${up.stdout}`);
  }
  const config = loadKubeconfig({ kubeconfig: state.kubeconfig }).config;
  return {
    dir,
    state,
    kubeconfig: state.kubeconfig,
    kc: (context) => configForContext(config, context),
    drill: async (action, role, context) => {
      const r = await runCli(['sandbox', `${action}-${role}`, context, '--dir', dir], { timeoutMs: 120_000 });
      if (r.code !== 0) throw new Error(`sandbox ${action}-${role} ${context}: exit ${r.code}: ${r.stderr}`);
    },
    down: async () => {
      const pids = recordedPids(readState(dir) ?? state);
      const down = await runCli(['sandbox', 'down', '--dir', dir]);
      const left = pids.filter((p) => isOurs(p, dir));
      if (down.code !== 0 || left.length > 0 || fs.existsSync(dir)) {
        throw new Error(`sandbox down: exit ${down.code}, processes left: ${left.join(', ') || 'none'}\n${down.stderr}`);
      }
    },
  };
}

export type { RunningCli, TimedLine } from '../../../src/bench/running-cli.js';
export { stopCli } from '../../../src/bench/running-cli.js';

/** The built CLI as a child process whose stdout lines are read as they come (src/bench/running-cli.ts). */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  return spawnCli(CLI, args, { ...process.env, CI: 'true', FLEETDECK_FLEET_FILE: path.join(ROOT, 'test', 'no-fleet.yaml'), ...env });
}

export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** One plain line of figures per scenario, in the test output. */
export function summary(scenario: string, figures: Record<string, string | number>): void {
  const parts = Object.entries(figures).map(([k, v]) => `${k} ${v}`);
  console.log(`fault summary: ${scenario}: ${parts.join(', ')}`);
}

/** etcd's current revision, through its JSON gateway (etcd 3.4: /v3/kv/range). */
export async function etcdRevision(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: 'AA==' }) });
  const body = (await res.json()) as { header: { revision: string } };
  return body.header.revision;
}

/** Compacts etcd's history up to `revision` (a watch from before it is answered 410 Gone). */
export async function compactEtcd(port: number, revision: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/v3/kv/compaction`, {
    method: 'POST',
    body: JSON.stringify({ revision, physical: true }),
  });
  if (!res.ok) throw new Error(`etcd compaction: HTTP ${res.status} ${await res.text()}`);
}
