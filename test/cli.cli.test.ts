import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CLI, runCli, runProgram } from './helpers/cli/cli.js';
import { expectMatchesSchema } from './helpers/schema.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-cli-'));
const emptyHome = path.join(tmp, 'home');
fs.mkdirSync(emptyHome);
const env = { HOME: emptyHome, KUBECONFIG: '', XDG_STATE_HOME: path.join(tmp, 'state') };

/** One stderr line, no stack trace. */
function expectOneLine(stderr: string, pattern: RegExp) {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

let closedPort: number;
let deadKubeconfig: string;

beforeAll(async () => {
  // A port nothing listens on: reserve and release it.
  closedPort = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  deadKubeconfig = path.join(tmp, 'dead.yaml');
  fs.writeFileSync(
    deadKubeconfig,
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
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('fleetdeck command line', () => {
  it('--help lists the commands and exits 0', async () => {
    const r = await runCli(['--help'], { env });
    expect(r.code).toBe(0);
    for (const word of ['status', 'sandbox', 'certs', '--kubeconfig', '--context', '--read-only', '--no-color', '--ascii', '--output']) {
      expect(r.stdout).toContain(word);
    }
  });

  it('logs --help lists its flags and exits 0', async () => {
    const r = await runCli(['logs', '--help'], { env });
    expect(r.code).toBe(0);
    for (const flag of [
      '--namespace',
      '--container',
      '--all-containers',
      '--follow',
      '--previous',
      '--since ',
      '--since-time',
      '--tail',
      '--timestamps',
      '--selector',
      '--agents',
      '--control-plane',
      '--max-log-requests',
      '--output',
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it('--version prints the package version', async () => {
    const r = await runCli(['--version'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('on a Node older than 22.12: one line saying which Node it needs and how to get it, exit 1', async () => {
    // The Node that runs it says it is 20.20.2 (this machine's system Node may be anything).
    const older = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})';
    const r = await runProgram(process.execPath, ['--import', older, CLI, 'status'], { env: { ...process.env, ...env } });
    expect(r.code).toBe(1);
    expectOneLine(
      r.stderr,
      /^fleetdeck: needs Node\.js 22\.12 or newer \(this is v\d+.*\); install Node\.js 22\.12 or newer .* put it first on PATH$/,
    );
    expect(r.stderr).not.toMatch(/checkout|npm run/);
  });

  it.each([
    [['--bogus'], /^fleetdeck: unknown option '--bogus'/],
    [['status', '-o', 'xml'], /^fleetdeck: option '-o, --output <format>' argument 'xml' is invalid.*text, json, yaml/],
    [['sandbox', 'up', '--workloads', 'many'], /^fleetdeck: .*"many" is not a whole number/],
    [['sandbox', 'up', '--nodes', '0'], /^fleetdeck: .*out of range/],
    [['sandbox', 'up', '--replace-drained', '--no-replace'], /^fleetdeck: --replace-drained and --no-replace contradict each other$/],
    [['sandbox', 'frobnicate'], /^fleetdeck: unknown command 'frobnicate'/],
    [['logs', '--tail', 'ten', 'deploy/web'], /^fleetdeck: --tail "ten" is not a number of lines \(-1 for all\)$/],
    [['logs', 'svc/web'], /^fleetdeck: cannot read logs of "svc"/],
    [['certs', '--warn-days', '-1'], /^fleetdeck: option '--warn-days <n>' argument '-1' is invalid: -1 is out of range/],
    [['status', '--kubeconfig', '/nonexistent/kubeconfig'], /^fleetdeck: kubeconfig \/nonexistent\/kubeconfig does not exist/],
  ])('%j is refused with one line and exit code 2', async (args, pattern) => {
    const r = await runCli(args, { env });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, pattern);
    expect(r.stdout).toBe('');
  });

  it.each([
    [['--hosting-context', 'nope'], /hosting context "nope" \(from --hosting-context\) is not in the kubeconfig/],
    [['--hosting-context', 'dead', '--context', 'ghost'], /workload context "ghost" is not in the kubeconfig/],
    [['--namespace', 'Bad_NS'], /"Bad_NS" is not a valid namespace name/],
    [['--namespace', 'elotl'], /describe a fleet: pass --hosting-context too/],
  ])('fleet flags %j: one line, exit 2', async (args, pattern) => {
    const r = await runCli(['status', '--kubeconfig', deadKubeconfig, ...args], { env });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, pattern);
  });

  it('a broken fleet file: the file and line, exit 2', async () => {
    const fleetFile = path.join(tmp, 'fleet.yaml');
    fs.writeFileSync(fleetFile, 'hostingContext: dead\nworkloadz: [a]\n');
    const r = await runCli(['status', '--kubeconfig', deadKubeconfig], { env: { ...env, FLEETDECK_FLEET_FILE: fleetFile } });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /fleet\.yaml line 2: unknown field "workloadz"/);
  });

  it('a fleet whose hosting context is unreachable: the checklist says unknown, never √, exit 1', async () => {
    const r = await runCli(['status', '--kubeconfig', deadKubeconfig, '--hosting-context', 'dead', '--ascii'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Checking status of Nova Control Plane Components');
    expect(r.stdout).toMatch(/\* API Server status\.\.\. unknown: dead unreachable since .* \[xx\]/);
    expect(r.stdout).not.toContain('[ok]');
  });

  it('an unknown --context names the known ones, exit 2', async () => {
    const r = await runCli(['status', '--kubeconfig', deadKubeconfig, '--context', 'nope'], { env });
    expect(r.code).toBe(2);
    expectOneLine(r.stderr, /context "nope" is not in the kubeconfig \(known: dead\)/);
  });

  it('an unreachable context: JSON says why, exit 1', async () => {
    const r = await runCli(['status', '-o', 'json', '--kubeconfig', deadKubeconfig], { env });
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout);
    expectMatchesSchema(json, 'status');
    expect(json.contexts).toHaveLength(1);
    expect(json.contexts[0]).toMatchObject({ name: 'dead', reachable: false, error: 'connection refused', version: null });
    expect(json.contexts[0].unreachableSince).toMatch(/^\d{4}-/);
  });

  it('an unreachable context in text: a failed checklist row with a hint', async () => {
    const r = await runCli(['status', '--kubeconfig', deadKubeconfig, '--ascii'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /\* Context dead \(https:\/\/127\.0\.0\.1:\d+\)\.\.\. unreachable since \d\d:\d\d:\d\d \(connection refused\) \[xx\]/,
    );
    expect(r.stdout).toContain('kubectl --context dead get --raw /readyz');
  });

  it('the dashboard without a terminal prints the status once (plain mode)', async () => {
    const r = await runCli(['--kubeconfig', deadKubeconfig, '-o', 'json'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).contexts[0].name).toBe('dead');
  });

  it('no kubeconfig at all: says how to start the sandbox', async () => {
    const r = await runCli(['status'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('fleetdeck sandbox up');
  });

  it('sandbox status and down when nothing runs', async () => {
    const dir = path.join(tmp, 'no-sandbox');
    const status = await runCli(['sandbox', 'status', '--dir', dir], { env });
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/not running/);
    const down = await runCli(['sandbox', 'down', '--dir', dir], { env });
    expect(down.code).toBe(0);
    expect(down.stdout).toMatch(/not running/);
  });

  it('stop-apiserver and stop-etcd without a running sandbox: one line, exit 1', async () => {
    for (const sub of ['stop-apiserver', 'stop-etcd']) {
      const r = await runCli(['sandbox', sub, 'kind-cp', '--dir', path.join(tmp, 'none')], { env });
      expect(r.code).toBe(1);
      expectOneLine(r.stderr, /the sandbox is not running/);
    }
  });
});
