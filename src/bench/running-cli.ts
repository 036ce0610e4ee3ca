/**
 * The built CLI as a child process whose stdout lines are read as they come, each with the time it
 * arrived: the fault figure's `status --watch` (faults.ts), and the fault suite's children
 * (test/helpers/sandbox/fault-sandbox.ts), which look for lines by their order, not their time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createInterface } from 'node:readline';

/** A line of a running CLI with the time it arrived (Date.now()). */
export interface TimedLine {
  at: number;
  text: string;
}

export interface RunningCli {
  child: ChildProcess;
  lines: TimedLine[];
  stderr: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first line that arrived at or after `since` (Date.now()) matching `test`, once it has arrived (or undefined). */
  find(since: number, test: (text: string) => boolean): TimedLine | undefined;
  /** The first line from index `from` of `lines` on matching `test` (or undefined): a line printed after `lines.length` was read. */
  findFrom(from: number, test: (text: string) => boolean): TimedLine | undefined;
  /** Whether the process is still running (no exit code, no signal). */
  alive(): boolean;
  /** Resident memory (VmRSS) in bytes, from /proc. */
  rss(): number;
}

/** `node <cli> ...args` with exactly this environment. */
export function spawnCli(cli: string, args: readonly string[], env: NodeJS.ProcessEnv): RunningCli {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: TimedLine[] = [];
  let err = '';
  createInterface({ input: child.stdout! }).on('line', (text) => lines.push({ at: Date.now(), text }));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    stderr: () => err,
    done,
    find: (since, test) => lines.find((l) => l.at >= since && test(l.text)),
    findFrom: (from, test) => lines.slice(from).find((l) => test(l.text)),
    alive: () => child.exitCode === null && child.signalCode === null,
    rss: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
  };
}

/** Ends a CLI started by spawnCli (Ctrl-C) and waits for it. */
export async function stopCli(cli: RunningCli): Promise<void> {
  if (cli.alive()) cli.child.kill('SIGINT');
  await cli.done;
}
