/**
 * Sandboxes the cluster benchmarks start for themselves, through the built CLI as a user
 * would (`fleetdeck sandbox up|down --dir`). Every sandbox started here is stopped by
 * `stopAllSandboxes()`, also when `up` failed half way (`down` is idempotent).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI_PATH } from '../paths.js';
import { progress } from './util.js';

export const CLI = CLI_PATH;

export interface BenchSandbox {
  name: string;
  dir: string;
  kubeconfig: string;
}

interface Started {
  name: string;
  dir: string;
  /** The temporary parent of `dir`, removed after `down`. */
  parent: string;
  stopped?: Promise<void>;
}

const started: Started[] = [];
/** `sandbox up` processes still running, with a promise of their exit. */
const ups = new Map<ReturnType<typeof spawn>, Promise<void>>();

/** Environment for every fleetdeck child: no fleet file of the user's, no CI mode. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FLEETDECK_FLEET_FILE: path.join(os.tmpdir(), 'fleetdeck-bench-no-fleet.yaml'),
    ...extra,
  };
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  delete env.KUBECONFIG;
  return env;
}

/** Runs the CLI; resolves with its exit code and stdout; stderr lines go to progress. */
function runCli(args: string[], label: string, timeoutMs: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    if (args[1] === 'up') ups.set(child, new Promise((r) => child.on('close', () => r())));
    let stdout = '';
    let errBuf = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      errBuf += d.toString();
      for (let nl = errBuf.indexOf('\n'); nl >= 0; nl = errBuf.indexOf('\n')) {
        const line = errBuf.slice(0, nl).trim();
        errBuf = errBuf.slice(nl + 1);
        if (line) progress(`${label}: ${line}`);
      }
    });
    const timer = setTimeout(() => {
      progress(`${label}: no answer after ${Math.round(timeoutMs / 1000)} s; interrupting it`);
      child.kill('SIGINT');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      ups.delete(child);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      ups.delete(child);
      resolve({ code, stdout });
    });
  });
}

/**
 * Starts a sandbox in a fresh temporary directory; resolves once every cluster is ready.
 * `keepNodes`: a cordoned node stays (no replacement), as the fault drills cordon one by name.
 */
export async function startSandbox(name: string, workloads: number, nodes: number, keepNodes = false): Promise<BenchSandbox> {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'fleetdeck-bench-'));
  const dir = path.join(parent, 'sandbox');
  const entry: Started = { name, dir, parent };
  started.push(entry);
  progress(
    `${name}: starting a sandbox (${workloads + 1} cluster${workloads ? 's' : ''}, ${nodes} simulated node${nodes === 1 ? '' : 's'} each) in ${dir}`,
  );
  const t0 = performance.now();
  // The first run on a machine may build the Kubernetes binaries (several minutes).
  const { code, stdout } = await runCli(
    ['sandbox', 'up', '--dir', dir, '--workloads', String(workloads), '--nodes', String(nodes), ...(keepNodes ? ['--no-replace'] : [])],
    name,
    20 * 60_000,
  );
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('export KUBECONFIG='));
  if (code !== 0 || !line) throw new Error(`${name}: sandbox up failed (exit ${code}); see ${dir}`);
  progress(`${name}: ready in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return { name, dir, kubeconfig: line.slice('export KUBECONFIG='.length) };
}

/** `fleetdeck sandbox stop-<role>|start-<role> CONTEXT --dir DIR` (the fault figure's drills); throws when it fails. */
export async function sandboxDrill(sb: BenchSandbox, action: 'stop' | 'start', role: 'apiserver' | 'etcd', context: string): Promise<void> {
  const { code, stdout } = await runCli(['sandbox', `${action}-${role}`, context, '--dir', sb.dir], sb.name, 120_000);
  if (code !== 0) throw new Error(`sandbox ${action}-${role} ${context}: exit ${code}: ${stdout.trim()}`);
}

/** Stops one sandbox (idempotent) and removes its directory. */
export function stopSandbox(sb: Pick<BenchSandbox, 'dir'>): Promise<void> {
  const entry = started.find((s) => s.dir === sb.dir);
  if (!entry) return Promise.resolve();
  entry.stopped ??= (async () => {
    progress(`${entry.name}: stopping the sandbox`);
    try {
      const { code, stdout } = await runCli(['sandbox', 'down', '--dir', entry.dir], entry.name, 120_000);
      if (code !== 0) progress(`${entry.name}: sandbox down exited ${code}: ${stdout.trim()}`);
      else progress(`${entry.name}: ${stdout.trim().split('\n').pop() ?? 'stopped'}`);
    } catch (err) {
      progress(`${entry.name}: sandbox down failed: ${String(err)}; run: fleetdeck sandbox down --dir ${entry.dir}`);
    }
    fs.rmSync(entry.parent, { recursive: true, force: true });
  })();
  return entry.stopped;
}

/** Stops every sandbox started here (a `sandbox up` still running is interrupted first, then cleaned up). */
export async function stopAllSandboxes(): Promise<void> {
  for (const child of ups.keys()) if (child.exitCode === null) child.kill('SIGINT');
  await Promise.all(ups.values());
  await Promise.all(started.map((s) => stopSandbox(s)));
}
