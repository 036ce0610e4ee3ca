import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { runCli } from '../helpers/cli/cli.js';
import { expectMatchesSchema } from '../helpers/schema.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-storage-cli-'));
const emptyHome = path.join(tmp, 'home');
fs.mkdirSync(emptyHome);
const env = { HOME: emptyHome, KUBECONFIG: '', XDG_STATE_HOME: path.join(tmp, 'state') };
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** One stderr line, no stack trace, nothing on stdout. */
function expectOneLine(r: { stdout: string; stderr: string }, pattern: RegExp) {
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout).toBe('');
}

const estimate = (...args: string[]) => runCli(['storage', 'estimate', ...args], { env });

describe('fleetdeck storage estimate --local (this machine’s lsblk)', () => {
  it('prints the inventory, the estimate in the seed’s shape, and exits by the verdict', async () => {
    const r = await estimate('--local');
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Storage of this host (${os.hostname()})`);
    expect(lines).toContain('Disks:');
    expect(lines.some((l) => /^\/dev\/\S+ \(\d+(\.\d)?[BKMGTP]\)/.test(l))).toBe(true);
    expect(lines.some((l) => l === 'Volume Groups:' || l === 'Volume Groups: none')).toBe(true);
    expect(lines).toContain('Features (catalogue nova-control-plane):');
    expect(lines).toContain('  Enable Nova control plane : Yes');
    expect(lines.some((l) => /^(Using \S+ for unshared volumes|No volume group for unshared volumes)/.test(l))).toBe(true);
    expect(lines.some((l) => /^Available: Shared \d+ GB, Unshared \d+ GB$/.test(l))).toBe(true);
    expect(lines).toContain('  etcd data (GB) : 8  unshared, etcd-data');
    expect(lines).toContain('Required: Shared 0 GB, Unshared 8 GB');
    expect(lines.at(-1)).toBe('Remember each node needs this amount of storage');
    const verdict = lines.at(-2)!;
    expect(verdict).toMatch(/^(The configuration looks OK|Not enough storage: Unshared \d+(\.\d+)? GB short on .+)$/);
    expect(r.code).toBe(verdict === 'The configuration looks OK' ? 0 : 1);
  });

  it('-o json: the inventory and the estimate', async () => {
    const r = await estimate(
      '--local',
      '--catalogue',
      'kloudspot-example',
      '--features',
      'kloudhybrid',
      '--size',
      'hybrid-database=2.5',
      '-o',
      'json',
    );
    expect(r.stderr).toBe('');
    const j = JSON.parse(r.stdout);
    expectMatchesSchema(j, 'storage-estimate');
    expect(j.source).toBe('local');
    expect(j.context).toBeNull();
    expect(j.catalogue.name).toBe('kloudspot-example');
    expect(j.inventory.nodes).toHaveLength(1);
    expect(j.inventory.nodes[0].node).toBe(os.hostname());
    expect(j.inventory.nodes[0].disks.length).toBeGreaterThan(0);
    expect(j.features).toEqual([
      { name: 'kloudmanage', label: 'KloudManage', enabled: false },
      { name: 'kloudinsights', label: 'KloudInsights', enabled: false },
      { name: 'kloudhybrid', label: 'Kloudhybrid', enabled: true },
    ]);
    expect(j.volumes).toEqual([
      {
        name: 'hybrid-elasticsearch',
        label: 'Stream processing elasticsearch',
        kind: 'unshared',
        gb: 10,
        feature: 'kloudhybrid',
        component: 'stream-processing',
      },
      {
        name: 'hybrid-database',
        label: 'Kloudinsights database',
        kind: 'unshared',
        gb: 2.5,
        feature: 'kloudhybrid',
        component: 'database',
      },
    ]);
    expect(j.required).toEqual({ shared: 0, unshared: 12.5 });
    expect(j.perNode).toHaveLength(1);
    expect(typeof j.verdict).toBe('string');
    expect(r.code).toBe(j.ok ? 0 : 1);
    expect(j.values).toBeNull();
  });

  it('the example catalogue’s defaults are the seed’s first dialogue: KloudInsights, Required Shared 20 GB, Unshared 14 GB', async () => {
    const r = await estimate('--local', '--catalogue', 'kloudspot-example');
    expect(r.stdout).toContain('  Enable KloudInsights : Yes\n');
    expect(r.stdout).toContain('\nRequired: Shared 20 GB, Unshared 14 GB\n');
  });
});

describe('bad input: one line, exit 2, nothing read', () => {
  const badCatalogue = path.join(tmp, 'bad.yaml');
  beforeAll(() =>
    fs.writeFileSync(
      badCatalogue,
      'name: bad\nfeatures:\n  - name: a\n    components:\n      - name: c\n        volumes:\n          - name: v\n            kind: shared\n            defaultGB: -1\n',
    ),
  );

  it.each([
    [['--size', 'etcd-data=-3'], /^fleetdeck: --size etcd-data=-3: the size must be greater than 0 GB$/],
    [['--size', 'etcd-data=0'], /^fleetdeck: --size etcd-data=0: the size must be greater than 0 GB$/],
    [['--size', 'etcd-data=lots'], /^fleetdeck: --size etcd-data=lots: "lots" is not a number of GB$/],
    [['--size', 'etcd-data'], /^fleetdeck: --size etcd-data: expected VOLUME=GB/],
    [['--size', 'etcd-data=3', '--size', 'etcd-data=4'], /^fleetdeck: --size etcd-data is given twice$/],
    [['--size', 'wal=3'], /^fleetdeck: unknown volume "wal" in --size \(volumes of the enabled features: etcd-data\)$/],
    [
      ['--features', 'kloudinsights'],
      /^fleetdeck: unknown feature "kloudinsights" in catalogue nova-control-plane \(known: nova-control-plane\)$/,
    ],
    [
      ['--catalogue', 'kloudspot-example', '--size', 'hybrid-database=3'],
      /^fleetdeck: volume "hybrid-database" belongs to feature kloudhybrid, which is not enabled \(add it to --features\)$/,
    ],
    [['--catalogue', path.join(tmp, 'none.yaml')], /^fleetdeck: catalogue .*none\.yaml does not exist$/],
    [
      ['--catalogue', 'nonesuch'],
      /^fleetdeck: catalogue nonesuch does not exist \(a file, or one of fleetdeck's: default, kloudspot-example\)$/,
    ],
    [['--force'], /^fleetdeck: --force only applies to --values FILE$/],
    [['--context', 'x'], /^fleetdeck: --local reads this host and --context a cluster: give one of them$/],
    [['-o', 'xml'], /^fleetdeck: option '-o, --output <format>' argument 'xml' is invalid: allowed choices are text, json, yaml/],
    [['--shared-pool', 'vg', '--unshared-pool', 'vg'], /^fleetdeck: volume group vg cannot serve both shared and unshared volumes$/],
    [
      ['--unshared-pool', 'no-such-vg'],
      /^fleetdeck: volume group no-such-vg \(for unshared volumes\) is on no node \(volume groups: .*\)$/,
    ],
  ])('--local %j', async (args, pattern) => {
    const r = await estimate('--local', ...args);
    expect(r.code).toBe(2);
    expectOneLine(r, pattern);
  });

  it('a catalogue with a schema error names the file and the line', async () => {
    const r = await estimate('--local', '--catalogue', badCatalogue);
    expect(r.code).toBe(2);
    expectOneLine(
      r,
      new RegExp(
        `^fleetdeck: ${badCatalogue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} line 9: defaultGB of volume "v" must be a number of GB greater than 0 \\(got -1\\)$`,
      ),
    );
  });

  it('without --local and without a context', async () => {
    const r = await estimate();
    expect(r.code).toBe(2);
    expectOneLine(
      r,
      /^fleetdeck: no --context given and the kubeconfig has no current context; give --context C, or --local for this host$/,
    );
  });

  it('`storage` alone shows its help and exits 2; an unknown subcommand is one line', async () => {
    const help = await runCli(['storage'], { env });
    expect(help.code).toBe(2);
    expect(help.stdout).toContain('estimate');
    const r = await runCli(['storage', 'plan'], { env });
    expect(r.code).toBe(2);
    expectOneLine(r, /^fleetdeck: unknown command 'storage plan' \(estimate\)$/);
  });
});

describe('a cluster that cannot be reached', () => {
  it('one line, exit 1', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const kubeconfig = path.join(tmp, 'dead.yaml');
    fs.writeFileSync(
      kubeconfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'dead', cluster: { server: `https://127.0.0.1:${port}` } }],
        users: [{ name: 'u', user: { token: 'x' } }],
        contexts: [{ name: 'dead', context: { cluster: 'dead', user: 'u' } }],
        'current-context': 'dead',
      }),
    );
    const r = await runCli(['storage', 'estimate', '--kubeconfig', kubeconfig], { env });
    expect(r.code).toBe(1);
    expectOneLine(r, /^fleetdeck: context dead: the cluster cannot be read \(.+\); check the context or use --local for this host$/);
    const unknown = await runCli(['storage', 'estimate', '--kubeconfig', kubeconfig, '--context', 'ghost'], { env });
    expect(unknown.code).toBe(2);
    expectOneLine(unknown, /^fleetdeck: context "ghost" is not in the kubeconfig \(known: dead\)/);
  });
});

describe('--values FILE', () => {
  const file = path.join(tmp, 'values.yaml');

  it('writes the features, sizes and pools (0644), refuses to overwrite, overwrites with --force', async () => {
    const first = await estimate('--local', '--catalogue', 'kloudspot-example', '--size', 'insights-kafka=3', '--values', file);
    expect([0, 1]).toContain(first.code);
    expect(first.stdout.trimEnd().split('\n').at(-1)).toBe(`Values written to ${file}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toMatch(/^# Storage chosen with `fleetdeck storage estimate` \(catalogue kloudspot-example/);
    const values = parse(text);
    expect(values.storage.catalogue).toBe('kloudspot-example');
    expect(values.storage.features).toEqual({ kloudmanage: false, kloudinsights: true, kloudhybrid: false });
    expect(Object.keys(values.storage.volumes)).toEqual([
      'insights-elasticsearch',
      'insights-state',
      'insights-database',
      'insights-kafka',
      'insights-zookeeper',
    ]);
    expect(values.storage.volumes['insights-kafka']).toMatchObject({ size: '3Gi', sizeGB: 3, kind: 'unshared' });
    expect(values.storage.volumes['insights-elasticsearch']).toMatchObject({ size: '10Gi', sizeGB: 10, kind: 'shared' });
    expect(values.storage.required).toEqual({ sharedGB: 20, unsharedGB: 15 });
    expect(typeof values.storage.pools).toBe('object');

    const again = await estimate('--local', '--catalogue', 'kloudspot-example', '--size', 'insights-kafka=4', '--values', file);
    expect(again.code).toBe(2);
    expectOneLine(
      again,
      new RegExp(`^fleetdeck: --values ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} exists; pass --force to overwrite it$`),
    );
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    const forced = await estimate(
      '--local',
      '--catalogue',
      'kloudspot-example',
      '--size',
      'insights-kafka=4',
      '--values',
      file,
      '--force',
      '-o',
      'json',
    );
    expect([0, 1]).toContain(forced.code);
    expect(JSON.parse(forced.stdout).values).toBe(file);
    expect(parse(fs.readFileSync(file, 'utf8')).storage.volumes['insights-kafka'].size).toBe('4Gi');
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
    expect(fs.readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a directory that does not exist, or a directory as the file', async () => {
    const missing = await estimate('--local', '--values', path.join(tmp, 'no', 'values.yaml'));
    expect(missing.code).toBe(2);
    expectOneLine(missing, /^fleetdeck: --values .*values\.yaml: directory .* does not exist$/);
    const dir = await estimate('--local', '--values', tmp);
    expect(dir.code).toBe(2);
    expectOneLine(dir, /is a directory; give a file name$/);
  });
});
