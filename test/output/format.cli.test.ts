/**
 * `-o yaml` beside `-o json`, on the commands that run without a cluster: the YAML parses to
 * exactly the object the JSON does (times, which differ from run to run, set aside), a stream as
 * YAML documents. Every command with `-o` refuses `-o xml` naming the three formats. The commands
 * that need a cluster: format.int.test.ts.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { CLI, ROOT, eventually, runCli } from '../helpers/cli/cli.js';
import { timeless, writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-output-cli-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const home = path.join(tmp, 'home');
fs.mkdirSync(home);
const kubeconfig = path.join(tmp, 'kubeconfig');
// Two contexts whose API server is not there (a closed port): status answers at once.
writeUnreachableKubeconfig(kubeconfig, ['one', 'two']);
const env = { HOME: home, KUBECONFIG: kubeconfig, XDG_STATE_HOME: path.join(tmp, 'state') };

/** Runs `args` with -o json and -o yaml; both exit alike, print nothing on stderr, and carry the same object. */
async function sameObject(args: string[]): Promise<unknown> {
  const json = await runCli([...args, '-o', 'json'], { env });
  const yaml = await runCli([...args, '-o', 'yaml'], { env });
  expect(json.stderr).toBe('');
  expect(yaml.stderr).toBe('');
  expect(yaml.code).toBe(json.code);
  expect(parseAllDocuments(yaml.stdout)).toHaveLength(1);
  expect(yaml.stdout.trimStart().startsWith('{')).toBe(false);
  const fromJson: unknown = JSON.parse(json.stdout);
  expect(timeless(parse(yaml.stdout))).toEqual(timeless(fromJson));
  return fromJson;
}

describe('-o yaml is -o json in YAML', () => {
  it('status (contexts unreachable)', async () => {
    const obj = (await sameObject(['status'])) as { contexts: { name: string; reachability: string }[] };
    expect(obj.contexts.map((c) => [c.name, c.reachability])).toEqual([
      ['one', 'unreachable'],
      ['two', 'unreachable'],
    ]);
  });

  it('sandbox status (no sandbox)', async () => {
    expect(await sameObject(['sandbox', 'status', '--dir', path.join(tmp, 'no-sandbox')])).toMatchObject({ running: false, clusters: [] });
  });

  it('preflight', async () => {
    const obj = (await sameObject(['preflight', '--root', path.join(ROOT, 'test', 'fixtures', 'preflight', 'clean')])) as {
      checks: unknown[];
    };
    expect(obj.checks.length).toBeGreaterThan(10);
  });

  it('storage estimate --local', async () => {
    expect(await sameObject(['storage', 'estimate', '--local'])).toHaveProperty('verdict');
  });
});

/** Starts `status --watch`, waits until `enough` says the output is there, then stops it with SIGTERM. */
async function watchOutput(output: 'json' | 'yaml', enough: (stdout: string) => boolean): Promise<{ stdout: string; code: number | null }> {
  const child = spawn(process.execPath, [CLI, 'status', '--watch', '-o', output], {
    env: { ...process.env, CI: 'true', FLEETDECK_FLEET_FILE: path.join(ROOT, 'test', 'no-fleet.yaml'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    await eventually(`status --watch -o ${output} output`, () => enough(stdout));
  } finally {
    child.kill('SIGTERM');
  }
  return { stdout, code: await closed };
}

describe('status --watch -o yaml', () => {
  it('one YAML document per change, --- between them, each the object of the JSON line', async () => {
    const json = await watchOutput('json', (s) => s.includes('\n'));
    const first = JSON.parse(json.stdout.split('\n')[0]!) as Record<string, unknown>;
    const yaml = await watchOutput('yaml', (s) => /^---$/m.test(s));
    expect(yaml.code).toBe(143);
    expect(yaml.stdout.startsWith('---')).toBe(false);
    const docs = parseAllDocuments(yaml.stdout.slice(0, yaml.stdout.lastIndexOf('\n---'))).map((d) => d.toJS() as Record<string, unknown>);
    expect(docs.length).toBeGreaterThan(0);
    expect(timeless(docs[0])).toEqual(timeless(first));
    for (const d of docs) expect(Object.keys(d).sort()).toEqual(['detail', 'hint', 'id', 'label', 'state', 'time']);
  });
});

describe('-o xml', () => {
  const commands = [
    ['status'],
    ['install', '--hosting-context', 'one', '--workload', 'two'],
    ['uninstall'],
    ['backup'],
    ['restore', 'backup.yaml'],
    ['rollout', 'create', '--node', 'n'],
    ['rollout', 'resume', 'r'],
    ['rollout', 'cleanup'],
    ['rollout', 'list'],
    ['rollout', 'watch'],
    ['rollout', 'abort', 'r'],
    ['storage', 'estimate', '--local'],
    ['approve'],
    ['preflight'],
    ['logs', 'pod/x'],
    ['sandbox', 'status'],
  ];
  for (const args of commands) {
    it(`${args.slice(0, 2).join(' ')}: one line naming text, json, yaml; exit 2`, async () => {
      const r = await runCli([...args, '-o', 'xml'], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        "fleetdeck: option '-o, --output <format>' argument 'xml' is invalid: allowed choices are text, json, yaml; run `fleetdeck --help` for usage\n",
      );
    });
  }
});
