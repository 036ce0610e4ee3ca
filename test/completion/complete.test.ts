/** The candidates `fleetdeck complete -- …` prints: commands, subcommands, flags, their values, context names. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { completionLines, wantsRolloutName } from '../../src/completion/complete.js';
import { buildProgram } from '../../src/main.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-complete-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const kubeconfig = (name: string, contexts: string[]) => writeUnreachableKubeconfig(path.join(tmp, name), contexts);

const home = path.join(tmp, 'home');
fs.mkdirSync(path.join(home, '.kube'), { recursive: true });
const noKube: NodeJS.ProcessEnv = { HOME: home };

/** The values offered for the last word (the `:directive` line and descriptions left out). */
async function values(words: string[], env: NodeJS.ProcessEnv = noKube): Promise<string[]> {
  const lines = await completionLines(buildProgram(), ['--', ...words], env);
  expect(lines.at(-1)).toMatch(/^:\d+$/);
  return lines.slice(0, -1).map((l) => l.split('\t')[0]!);
}

describe('completion of commands and flags', () => {
  it('the commands at the start of the line, without the hidden one', async () => {
    const v = await values(['']);
    expect(v).toEqual(
      expect.arrayContaining([
        'status',
        'install',
        'uninstall',
        'upgrade',
        'sandbox',
        'rollout',
        'storage',
        'approve',
        'preflight',
        'logs',
        'completion',
      ]),
    );
    expect(v).not.toContain('complete');
    expect(v).not.toContain('help');
    expect(new Set(v).size).toBe(v.length);
  });

  it('the subcommands of rollout and sandbox, by prefix', async () => {
    expect(await values(['rollout', ''])).toEqual(['create', 'resume', 'abort', 'watch', 'list', 'cleanup']);
    expect(await values(['rollout', 'c'])).toEqual(['create', 'cleanup']);
    expect(await values(['sandbox', 'st'])).toEqual(['status', 'stop-apiserver', 'start-apiserver', 'stop-etcd', 'start-etcd']);
  });

  it("a command's own flags and the program's flags", async () => {
    const v = await values(['rollout', 'create', '--']);
    for (const f of ['--selector', '--node', '--priority', '--replace', '--dry-run', '--yes', '--output', '--context', '--kubeconfig'])
      expect(v).toContain(f);
    expect(await values(['status', '--wat'])).toEqual(['--watch']);
    expect(await values(['--war'])).toEqual(['--warn-days']);
    expect(await values(['certs', 'renew', '--'])).toEqual(expect.arrayContaining(['--dry-run', '--yes', '--rotate-ca', '--output']));
    // Hidden flags stay hidden.
    expect(await values(['rollout', 'resume', '--r'])).toEqual(['--runner-namespace', '--read-only', '--request-timeout']);
  });

  it('the values of flags with choices, long or short, after a subcommand too', async () => {
    expect(await values(['status', '-o', ''])).toEqual(['text', 'json', 'yaml']);
    expect(await values(['rollout', 'list', '--output', 'y'])).toEqual(['yaml']);
    expect(await values(['rollout', 'create', '--replace', ''])).toEqual(['wait', 'delete-node', 'uncordon']);
    expect(await values(['completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('certs renew: its subcommand and the certificate names, by prefix', async () => {
    expect(await values(['certs', 'r'])).toEqual(['renew']);
    expect(await values(['certs', 'renew', 'etcd-2'])).toEqual(['etcd-2-server', 'etcd-2-peer']);
    expect(await values(['certs', 'renew', 'a'])).toEqual(['all', 'apiserver', 'apiserver-etcd-client', 'admin', 'agent-bootstrap']);
  });

  it("get's resource: nodes and pods, by prefix, and flags after it", async () => {
    expect(await values(['get', ''])).toEqual(['nodes', 'pods']);
    expect(await values(['get', 'p'])).toEqual(['pods']);
    expect(await values(['get', 'nodes', '--all'])).toEqual(['--all-contexts']);
  });

  it("upgrade: its flags, and the fleet's cluster names for --canary", async () => {
    const v = await values(['upgrade', '--']);
    for (const f of ['--bundle', '--canary', '--rollback', '--dry-run', '--yes', '--output']) expect(v).toContain(f);
    const fleetFile = path.join(tmp, 'fleet.yaml');
    fs.writeFileSync(fleetFile, 'hostingContext: cp\nworkloads:\n  - eu-1\n  - context: us\n    clusterName: us-east\n');
    expect(await values(['upgrade', '--canary', ''], { ...noKube, FLEETDECK_FLEET_FILE: fleetFile })).toEqual(['eu-1', 'us-east']);
    expect(await values(['upgrade', '--canary', ''], { ...noKube, FLEETDECK_FLEET_FILE: path.join(tmp, 'none.yaml') })).toEqual([]);
  });

  it('nothing for a flag that takes a free value', async () => {
    expect(await values(['rollout', 'create', '--name', ''])).toEqual([]);
  });
});

describe('completion of context names', () => {
  const a = kubeconfig('a.yaml', ['prod-eu', 'prod-us', 'staging']);
  const b = kubeconfig('b.yaml', ['staging', 'dev']);

  it('from the kubeconfig --kubeconfig names, for --context and the fleet flags, anywhere on the line', async () => {
    expect(await values(['--kubeconfig', a, '--context', ''])).toEqual(['prod-eu', 'prod-us', 'staging']);
    expect(await values(['--kubeconfig', a, '--context', 'prod-'])).toEqual(['prod-eu', 'prod-us']);
    expect(await values([`--kubeconfig=${a}`, 'rollout', 'list', '--context', 's'])).toEqual(['staging']);
    expect(await values(['status', '--kubeconfig', a, '--hosting-context', 'st'])).toEqual(['staging']);
  });

  it('from KUBECONFIG (every file, without repeats), else ~/.kube/config', async () => {
    expect(await values(['logs', '--context', ''], { HOME: home, KUBECONFIG: `${a}${path.delimiter}${b}` })).toEqual([
      'prod-eu',
      'prod-us',
      'staging',
      'dev',
    ]);
    fs.copyFileSync(b, path.join(home, '.kube', 'config'));
    expect(await values(['--context', ''], { HOME: home })).toEqual(['staging', 'dev']);
    fs.rmSync(path.join(home, '.kube', 'config'));
  });

  it('then the control plane’s context from the kubeconfig the install wrote (the fleet file’s), as the dashboard shows it', async () => {
    const nova = kubeconfig('nova.kubeconfig', ['nova']);
    const fleetFile = path.join(tmp, 'fleet.yaml');
    fs.writeFileSync(fleetFile, `hostingContext: prod-eu\nkubeconfig: ${nova}\n`);
    expect(await values(['get', 'nodes', '--context', ''], { HOME: home, KUBECONFIG: a, FLEETDECK_FLEET_FILE: fleetFile })).toEqual([
      'prod-eu',
      'prod-us',
      'staging',
      'nova',
    ]);
  });

  it('nothing (and no error) when the kubeconfig is missing or not YAML', async () => {
    expect(await values(['--kubeconfig', path.join(tmp, 'missing'), '--context', ''])).toEqual([]);
    const bad = path.join(tmp, 'bad.yaml');
    fs.writeFileSync(bad, 'contexts: [unclosed');
    expect(await values(['--kubeconfig', bad, '--context', ''])).toEqual([]);
  });
});

describe('when the cluster is asked for rollout names', () => {
  const program = buildProgram();
  it('for the name of rollout resume, abort and watch only', () => {
    expect(wantsRolloutName(program, ['rollout', 'resume', ''])).toBe(true);
    expect(wantsRolloutName(program, ['--context', 'c', 'rollout', '--kubeconfig', 'k', 'abort', 'r'])).toBe(true);
    expect(wantsRolloutName(program, ['rollout', 'watch', '-o', 'json', ''])).toBe(true);
    expect(wantsRolloutName(program, ['rollout', 'resume', '--'])).toBe(false);
    expect(wantsRolloutName(program, ['rollout', 'resume', 'r1', ''])).toBe(false);
    expect(wantsRolloutName(program, ['rollout', 'list', ''])).toBe(false);
    expect(wantsRolloutName(program, ['rollout', ''])).toBe(false);
  });
});
