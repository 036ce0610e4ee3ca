/**
 * The built CLI stopped from outside: SIGHUP (a closed SSH session), SIGTERM and Ctrl-C end a
 * watch with 129, 143 and 130; the dashboard under a pseudo-terminal gives the terminal back on
 * SIGHUP, and exits 129 when the terminal closes under it; a watch whose reader went away ends
 * by itself, quietly. No cluster: the kubeconfig's only context points at a closed port.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CLI, ROOT, eventually } from '../helpers/cli/cli.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-signals-'));
const home = path.join(tmp, 'home');
fs.mkdirSync(home);
const kubeconfig = path.join(tmp, 'dead.yaml');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  CI: 'true',
  HOME: home,
  KUBECONFIG: '',
  XDG_STATE_HOME: path.join(tmp, 'state'),
  FLEETDECK_FLEET_FILE: path.join(ROOT, 'test', 'no-fleet.yaml'),
};
const children = new Set<ChildProcess>();

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; closeStdout?: boolean } = {}): Started {
  const child = spawn(cmd, args, { env: opts.env ?? env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  // A reader that went away (`| head -1` done): the child's next write fails with EPIPE.
  if (opts.closeStdout) child.stdout!.destroy();
  else child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, done };
}

const fleetdeck = (args: string[], opts: { closeStdout?: boolean } = {}) =>
  start(process.execPath, [CLI, '--kubeconfig', kubeconfig, ...args], opts);

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  const closedPort = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  fs.writeFileSync(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'dead', cluster: { server: `https://127.0.0.1:${closedPort}` } }],
      users: [{ name: 'u', user: { token: 'x' } }],
      contexts: [{ name: 'dead', context: { cluster: 'dead', user: 'u' } }],
      'current-context': 'dead',
    }),
  );
});

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a run stopped from outside', () => {
  it.each([
    ['SIGHUP', 129],
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)('status --watch stopped by %s exits %d, quietly', async (signal, code) => {
    const run = fleetdeck(['status', '--watch']);
    await eventually('the first checklist line', () => run.stdout().includes('Checking contexts'), 20_000);
    run.child.kill(signal);
    expect(await run.done).toEqual({ code, signal: null });
    expect(run.stderr()).toBe('');
  });

  it('status --watch whose reader went away ends by itself, quietly, with 141 (no EPIPE, no stack)', async () => {
    const run = fleetdeck(['status', '--watch', '-o', 'json'], { closeStdout: true });
    expect(await run.done).toEqual({ code: 141, signal: null });
    expect(run.stderr()).toBe('');
  });

  it('the dashboard in a pseudo-terminal: SIGHUP gives the terminal back (cursor shown) and exits 129', async () => {
    const { CI: _ci, ...tty } = env;
    const cmd = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} --kubeconfig ${JSON.stringify(kubeconfig)}`;
    // util-linux script (-e: its exit code is the command's): the command gets a pseudo-terminal; what it draws comes out on script's stdout.
    const run = start('script', ['-qefc', cmd, '/dev/null'], { env: { ...tty, TERM: 'xterm-256color' } });
    await eventually('the dashboard drawn', () => run.stdout().includes('dead'), 20_000);
    // The shell exec'd fleetdeck: it is script's only child.
    const pid = Number(
      execFileSync('ps', ['-o', 'pid=', '--ppid', String(run.child.pid)])
        .toString()
        .trim(),
    );
    expect(pid).toBeGreaterThan(0);
    const hidden = run.stdout().lastIndexOf('\x1b[?25l');
    expect(hidden).toBeGreaterThanOrEqual(0);
    process.kill(pid, 'SIGHUP');
    // script exits with its child's code.
    expect((await run.done).code).toBe(129);
    const out = run.stdout();
    const shown = out.lastIndexOf('\x1b[?25h');
    expect(shown).toBeGreaterThan(hidden);
    // Nothing drawn after the cursor came back but more of the same restoring sequences.
    expect(out.slice(shown).replaceAll('\x1b[?25h', '').trim()).toBe('');
    expect(run.stderr()).toBe('');
  });

  it('the dashboard whose terminal closes under it (the pseudo-terminal gone): exit 129, no EIO stack', async () => {
    const { CI: _ci, ...tty } = env;
    const rc = path.join(tmp, 'rc');
    const err = path.join(tmp, 'err');
    // The shell outlives the terminal (it ignores SIGHUP) to write down fleetdeck's exit code.
    const cmd = `trap '' HUP; ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} --kubeconfig ${JSON.stringify(kubeconfig)} 2>${err}; echo $? > ${rc}`;
    const run = start('script', ['-qfc', cmd, '/dev/null'], { env: { ...tty, TERM: 'xterm-256color', SHELL: '/bin/sh' } });
    await eventually('the dashboard drawn', () => run.stdout().includes('dead'), 20_000);
    // The terminal's other end closes at once: every write of fleetdeck's fails from now on.
    run.child.kill('SIGKILL');
    const code = await eventually('fleetdeck ended', () => fs.existsSync(rc) && fs.readFileSync(rc, 'utf8').trim(), 20_000);
    expect(code).toBe('129');
    expect(fs.readFileSync(err, 'utf8')).not.toMatch(/EIO|\n\s+at /);
  });
});
