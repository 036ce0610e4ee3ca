/**
 * `fleetdeck completion bash|zsh|fish` and the hidden `fleetdeck complete -- …` it calls, run as
 * the shell runs them. Bash: the generated script is sourced in `bash -c` and its function called
 * with COMP_WORDS/COMP_CWORD set, as bash sets them on Tab (without the bash-completion package,
 * whose words reading the script falls back from). zsh and fish must be installed (npm test
 * installs them: src/sandbox/test-tools.sh): their scripts are checked by the shells themselves.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CLI, runCli } from '../helpers/cli/cli.js';
import { requireTool } from '../helpers/cli/tools.js';
import { writeUnreachableKubeconfig } from '../helpers/kubeconfig/fake-contexts.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-completion-cli-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const home = path.join(tmp, 'home');
fs.mkdirSync(home);
const kubeconfig = path.join(tmp, 'kubeconfig');
writeUnreachableKubeconfig(kubeconfig, ['prod-eu', 'prod-us', 'staging']);
const env = { HOME: home, KUBECONFIG: kubeconfig };

// biome-ignore lint/suspicious/noTemplateCurlyInString: bash, not a template
const CALL = ['COMP_LINE="${COMP_WORDS[*]}"', 'COMP_POINT=${#COMP_LINE}', '__fleetdeck_complete', 'printf "%s\\n" "${COMPREPLY[@]}"'].join(
  '\n',
);

/** COMPREPLY after the script's function ran on `words` (the last one being completed). */
function bashComplete(script: string, words: string[]): { reply: string[]; stderr: string } {
  const file = path.join(tmp, 'fleetdeck.bash');
  fs.writeFileSync(file, script);
  const quoted = words.map((w) => `'${w.replace(/'/g, "'\\''")}'`).join(' ');
  const program = [
    // The name the script calls: this build, with the node running the tests.
    `fleetdeck() { '${process.execPath}' '${CLI}' "$@"; }`,
    // compopt works only while bash itself runs a completion.
    'compopt() { :; }',
    `source '${file}'`,
    `COMP_WORDS=(${quoted})`,
    `COMP_CWORD=${words.length - 1}`,
    CALL,
  ].join('\n');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return { reply: r.stdout.split('\n').filter(Boolean), stderr: r.stderr };
}

describe('fleetdeck completion bash, as bash runs it', () => {
  it('completes subcommands, flag values and context names from the kubeconfig', async () => {
    const gen = await runCli(['completion', 'bash'], { env });
    expect(gen.code).toBe(0);
    expect(gen.stderr).toBe('');
    const script = gen.stdout;

    expect(bashComplete(script, ['fleetdeck', 'rollout', 're']).reply).toEqual(['resume']);
    expect(bashComplete(script, ['fleetdeck', 'sandbox', '']).reply).toEqual(
      expect.arrayContaining(['up', 'status', 'down', 'stop-apiserver', 'start-etcd']),
    );
    expect(bashComplete(script, ['fleetdeck', 'status', '-o', '']).reply).toEqual(['text', 'json', 'yaml']);
    // KUBECONFIG's contexts; the kubeconfig named on the line wins.
    const viaEnv = bashComplete(script, ['fleetdeck', 'logs', '--context', '']);
    expect(viaEnv.reply).toEqual(['prod-eu', 'prod-us', 'staging']);
    expect(viaEnv.stderr).toBe('');
    expect(bashComplete(script, ['fleetdeck', '--context', 'prod-']).reply).toEqual(['prod-eu', 'prod-us']);
    const other = path.join(tmp, 'other');
    fs.writeFileSync(other, stringify({ apiVersion: 'v1', kind: 'Config', contexts: [{ name: 'lab', context: {} }] }));
    expect(bashComplete(script, ['fleetdeck', '--kubeconfig', other, 'rollout', 'list', '--context', '']).reply).toEqual(['lab']);
  });
});

describe('fleetdeck complete', () => {
  it('prints candidates and the directive on stdout only, also for a line it cannot make sense of', async () => {
    const r = await runCli(['complete', '--', 'rollout', 'resume', '--context', 'st'], { env });
    expect(r).toEqual({ code: 0, stdout: 'staging\tkube context\n:4\n', stderr: '' });
    const odd = await runCli(['complete', '--', '--kubeconfig', path.join(tmp, 'missing'), 'frob', '--nope', ''], { env });
    expect(odd.code).toBe(0);
    expect(odd.stderr).toBe('');
    expect(odd.stdout.trimEnd().split('\n').at(-1)).toMatch(/^:\d+$/);
  });

  it('offers no rollout names, quietly, when the cluster cannot be reached', async () => {
    const r = await runCli(['complete', '--', 'rollout', 'abort', ''], { env });
    expect(r).toEqual({ code: 0, stdout: ':4\n', stderr: '' });
  });
});

describe('fleetdeck completion zsh|fish', () => {
  for (const shell of ['zsh', 'fish'] as const) {
    it(`prints the ${shell} script, which the shell accepts`, async () => {
      const program = requireTool(shell);
      const r = await runCli(['completion', shell], { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('fleetdeck complete --');
      const file = path.join(tmp, `fleetdeck.${shell}`);
      fs.writeFileSync(file, r.stdout);
      const check = spawnSync(program, shell === 'zsh' ? ['-n', file] : ['--no-execute', file], { encoding: 'utf8' });
      expect(check.stderr).toBe('');
      expect(check.status).toBe(0);
    });
  }

  it('an unknown shell is a usage error naming the shells, exit 2', async () => {
    const r = await runCli(['completion', 'powershell'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/'powershell' is invalid.*bash, zsh, fish/);
  });
});
