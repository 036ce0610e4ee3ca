import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `fleetdeck` with plain node (the same node that runs the tests). */
export function runCli(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<RunResult> {
  return runProgram(process.execPath, [CLI, ...args], {
    // No fleet file of the machine's user leaks into a test unless the test gives one.
    env: { ...process.env, CI: 'true', FLEETDECK_FLEET_FILE: path.join(ROOT, 'test', 'no-fleet.yaml'), ...opts.env },
    timeoutMs: opts.timeoutMs,
  });
}

/** Runs a program with exactly the environment given (and cwd), collecting its output; killed after timeoutMs. */
export function runProgram(
  file: string,
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: opts.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Polls `check` until it returns a truthy value; fails with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000, everyMs = 100): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
