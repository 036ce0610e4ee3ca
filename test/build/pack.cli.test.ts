/**
 * The package as a new user gets it: `npm pack` (its prepack builds the bundle) in a copy of the
 * project, `npm install -g` of the tarball into an empty prefix with an empty npm cache and
 * --offline (so it installs only if nothing has to be fetched), then the installed `fleetdeck`
 * and `kubectl fleetdeck` run from outside the project, with Node 24 first on PATH.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { ROOT, type RunResult, runProgram } from '../helpers/cli/cli.js';
import { requireTool } from '../helpers/cli/tools.js';

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  devDependencies: Record<string, string>;
};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-pack-'));
const prefix = path.join(tmp, 'prefix');
const installed = path.join(prefix, 'lib', 'node_modules', pkg.name);
const kubeconfig = path.join(tmp, 'closed.kubeconfig');
// Node 24 (the `node` dev dependency) first; the system's node (20 here) is below engines.
const nodeDir = path.dirname(process.execPath);
const basePath = [nodeDir, '/usr/local/bin', '/usr/bin', '/bin'].join(':');
const userPath = [nodeDir, path.join(prefix, 'bin'), '/usr/local/bin', '/usr/bin', '/bin'].join(':');

/** Runs a program in the temp dir (not the project) with a plain environment: HOME, PATH and what is given. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = tmp): Promise<RunResult> {
  const base = { HOME: path.join(tmp, 'home'), PATH: userPath, KUBECONFIG: '', NO_COLOR: '1' };
  return runProgram(file, args, { env: { ...base, ...env }, cwd, timeoutMs: 300_000 });
}

/** A port nothing listens on: bound, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** The names of the packages installed under a folder (its node_modules, at any depth). */
function packagesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    const nm = path.join(d, 'node_modules');
    if (!fs.existsSync(nm)) return;
    for (const entry of fs.readdirSync(nm)) {
      const dirs = entry.startsWith('@') ? fs.readdirSync(path.join(nm, entry)).map((e) => path.join(entry, e)) : [entry];
      for (const name of dirs.filter((n) => !n.startsWith('.'))) {
        found.push(name);
        walk(path.join(nm, name));
      }
    }
  };
  walk(dir);
  return found;
}

// Each test starts several node processes (kubectl's too); on a busy machine that takes a while.
vi.setConfig({ testTimeout: 180_000 });

let tarball = '';

beforeAll(async () => {
  fs.mkdirSync(path.join(tmp, 'home'));
  // A copy of the project: packing builds dist/, and the project's own dist/ serves other tests meanwhile.
  const project = path.join(tmp, 'project');
  fs.mkdirSync(project);
  for (const f of ['package.json', 'package-lock.json', 'README.md', 'tsconfig.json'])
    fs.copyFileSync(path.join(ROOT, f), path.join(project, f));
  fs.cpSync(path.join(ROOT, 'src'), path.join(project, 'src'), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(project, 'node_modules'));
  const cache = ['--cache', path.join(tmp, 'npm-cache')];

  const packed = await run('npm', ['pack', '--pack-destination', tmp, ...cache], { PATH: basePath }, project);
  expect(packed.code, packed.stderr).toBe(0);
  tarball = path.join(tmp, packed.stdout.trim().split('\n').at(-1) ?? '');
  expect(fs.existsSync(tarball)).toBe(true);

  const install = await run('npm', ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', ...cache, tarball], {
    PATH: basePath,
  });
  expect(install.code, install.stderr).toBe(0);

  const port = await closedPort();
  fs.writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: gone, cluster: {server: "https://127.0.0.1:${port}"}}]`,
      'users: [{name: u, user: {token: not-a-secret}}]',
      'contexts: [{name: gone, context: {cluster: gone, user: u}}]',
      'current-context: gone',
      '',
    ].join('\n'),
  );
}, 600_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('npm pack, then npm install -g of the tarball into an empty prefix, offline', () => {
  it('installs both bins and nothing besides the package: no dependency to fetch, no dev dependency', () => {
    expect(path.basename(tarball)).toBe(`${pkg.name}-${pkg.version}.tgz`);
    for (const [bin, file] of Object.entries(pkg.bin)) {
      const link = path.join(prefix, 'bin', bin);
      expect(fs.realpathSync(link)).toBe(fs.realpathSync(path.join(installed, file)));
      expect(fs.statSync(link).mode & 0o111).not.toBe(0);
    }
    const tree = packagesUnder(path.join(prefix, 'lib'));
    expect(tree).toEqual([pkg.name]);
    expect(packagesUnder(installed)).toEqual([]);
    for (const dev of Object.keys(pkg.devDependencies)) expect(tree).not.toContain(dev);
    // The data files the commands read, beside the bundle; no source maps or benchmark.
    for (const f of [
      'src/install/bundle/base/control-plane/kustomization.yaml',
      'src/storage/catalogues/default.yaml',
      'src/sandbox/prepare-testbed.sh',
    ]) {
      expect(fs.existsSync(path.join(installed, f)), f).toBe(true);
    }
    expect(fs.existsSync(path.join(installed, 'dist', 'bench'))).toBe(false);
    // The libraries src/ imports are in the bundle; their licences beside it.
    const licences = fs.readFileSync(path.join(installed, 'dist', 'THIRD-PARTY-LICENSES.txt'), 'utf8');
    for (const lib of ['@inkjs/ui', '@kubernetes/client-node', 'commander', 'ink', 'node-forge', 'react', 'undici', 'yaml', 'zustand']) {
      expect(licences).toMatch(new RegExp(`^${lib}@\\d+\\.\\d+\\.\\d+ — \\S`, 'm'));
    }
    expect(fs.readdirSync(path.join(installed, 'dist')).filter((f) => f.endsWith('.map'))).toEqual([]);
  });

  it('fleetdeck --version and --help', async () => {
    const version = await run('fleetdeck', ['--version']);
    expect(version).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    const help = await run('fleetdeck', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: fleetdeck \[options\] \[command\]\n/);
    expect(help.stdout).toMatch(/^ {2}status /m);
  });

  it('fleetdeck status on a kubeconfig whose server is a closed port: says so in one line, exit 1', async () => {
    const r = await run('fleetdeck', ['status', '--kubeconfig', kubeconfig]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\* Context gone \(https:\/\/127\.0\.0\.1:\d+\)\.\.\. unreachable since \S+ \(connection refused\) \S+$/m);
  });

  it('reads the storage catalogues it ships from where it is installed', async () => {
    const r = await run('fleetdeck', ['storage', 'estimate', '--local', '--catalogue', 'kloudspot-example', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect([0, 1]).toContain(r.code);
    expect(JSON.stringify(JSON.parse(r.stdout))).toContain('kloudspot-example');
  });

  it("on the system's Node (20 on these machines), below engines: one line saying which Node it needs, exit 1", async () => {
    // The bundle must parse and say so on the old Node itself, not only on one that pretends.
    const systemNode = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? '';
    expect(systemNode, 'a system Node older than 22.12 at /usr/bin/node (these machines have Node 20)').toMatch(
      /^v(1\d|2[01])\.|^v22\.([0-9]|1[01])\./,
    );
    const r = await run('fleetdeck', ['--version'], { PATH: [path.join(prefix, 'bin'), '/usr/bin', '/bin'].join(':') });
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: `fleetdeck: needs Node.js 22.12 or newer (this is ${systemNode}, /usr/bin/node); install Node.js 22.12 or newer (nodejs.org, or your system's packages) and put it first on PATH\n`,
    });
  });
});

describe('kubectl fleetdeck: the installed plugin, as kubectl runs it', () => {
  let kubectl = '';
  beforeAll(() => {
    kubectl = requireTool('kubectl');
  });

  it('kubectl plugin list finds it on PATH', async () => {
    const r = await run(kubectl, ['plugin', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toContain(path.join(prefix, 'bin', 'kubectl-fleetdeck'));
  });

  it('kubectl fleetdeck --help: usage as `kubectl fleetdeck`, with the kubectl flags it honours', async () => {
    const r = await run(kubectl, ['fleetdeck', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: kubectl fleetdeck \[options\] \[command\]\n/);
    expect(r.stdout).toContain('Honoured: --kubeconfig, --context, --request-timeout, -n/--namespace');
  });

  it("kubectl fleetdeck status: kubectl's --kubeconfig, --context, --request-timeout and -n as kubectl passes them", async () => {
    const r = await run(kubectl, [
      'fleetdeck',
      'status',
      '--kubeconfig',
      kubeconfig,
      '--context',
      'gone',
      '--request-timeout',
      '5s',
      '-o',
      'json',
    ]);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as { contexts: { name: string; reachable: boolean; error?: string }[] };
    expect(j.contexts.map((c) => [c.name, c.reachable])).toEqual([['gone', false]]);
    // KUBECONFIG reaches the plugin through kubectl's environment too.
    const viaEnv = await run(kubectl, ['fleetdeck', 'status'], { KUBECONFIG: kubeconfig });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stdout).toMatch(/^\* Context gone \(https:\/\/127\.0\.0\.1:\d+\)\.\.\. unreachable .*\(connection refused\)/m);
    // -n is fleetdeck's --namespace (the fleet's), which needs a fleet: its own one-line refusal.
    const ns = await run(kubectl, ['fleetdeck', 'status', '-n', 'fleet-a', '--kubeconfig', kubeconfig]);
    expect(ns.code).toBe(2);
    expect(ns.stderr).toBe(
      'fleetdeck: --control-plane-context and --namespace describe a fleet: pass --hosting-context too (or define the fleet file)\n',
    );
  });

  it('installed as krew installs it: the tarball extracted as it is, kubectl-fleetdeck linked to the manifest’s bin', async () => {
    const manifest = parse(fs.readFileSync(path.join(ROOT, 'src', 'packaging', 'krew', 'fleetdeck.yaml'), 'utf8')) as {
      spec: { platforms: { bin: string }[] };
    };
    const store = path.join(tmp, 'krew', 'store', 'fleetdeck', `v${pkg.version}`);
    const krewBin = path.join(tmp, 'krew', 'bin');
    fs.mkdirSync(store, { recursive: true });
    fs.mkdirSync(krewBin);
    const untar = await run('tar', ['-xzf', tarball, '-C', store]);
    expect(untar.code, untar.stderr).toBe(0);
    fs.symlinkSync(path.join(store, manifest.spec.platforms[0]?.bin ?? ''), path.join(krewBin, 'kubectl-fleetdeck'));
    const env = { PATH: [nodeDir, krewBin, '/usr/local/bin', '/usr/bin', '/bin'].join(':') };
    expect(await run(kubectl, ['fleetdeck', '--version'], env)).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    const status = await run(kubectl, ['fleetdeck', 'status', '--kubeconfig', kubeconfig], env);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/^\* Context gone \(https:\/\/127\.0\.0\.1:\d+\)\.\.\. unreachable .*\(connection refused\)/m);
  });

  it("refuses a kubectl global it does not honour in one line, exit 2; kubectl itself refuses flags before the plugin's name", async () => {
    const r = await run(kubectl, ['fleetdeck', 'status', '--user', 'admin', '--kubeconfig', kubeconfig]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^fleetdeck: kubectl's --user is not honoured by kubectl fleetdeck: [^\n]*--context\n$/);
    const before = await run(kubectl, ['--context', 'gone', 'fleetdeck', 'status']);
    expect(before.code).not.toBe(0);
    expect(before.stderr).toContain('flags cannot be placed before plugin name: --context');
  });
});
