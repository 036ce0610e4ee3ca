/**
 * Every command of the program against every targeting global flag: the flag is one its
 * declaration (src/program/global-flags.ts) allows and parses, or it is refused in one line
 * naming the command and the flag, exit 2, before the command runs. No command runs here: the
 * allowed ones parse with no-op actions, the refused ones stop in the preAction hook.
 */
import type { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProgram, main } from '../../src/main.js';
import {
  checkGlobalFlags,
  commandPath,
  GLOBAL_FLAG_USE,
  givenGlobalFlags,
  globalFlagRefusal,
  TARGETING_FLAGS,
  type TargetingFlag,
} from '../../src/program/global-flags.js';
import { kubectlPluginArgs } from '../../src/program/kubectl-plugin.js';

const walk = (cmd: Command): Command[] => [cmd, ...cmd.commands.flatMap(walk)];
const FLAGS = Object.keys(TARGETING_FLAGS) as TargetingFlag[];

/** Each flag as typed on a command line, with a value its parser takes. */
const FLAG_ARGS: Record<TargetingFlag, string[]> = {
  fleet: ['--fleet', 'prod'],
  context: ['--context', 'a,b'],
  hostingContext: ['--hosting-context', 'h'],
  controlPlaneContext: ['--control-plane-context', 'cp'],
  namespace: ['--namespace', 'ns'],
  sandbox: ['--sandbox'],
  warnDays: ['--warn-days', '5'],
  logLines: ['--log-lines', '500'],
  output: ['-o', 'json'],
};

/** The command's words, then what commander requires before it runs the action: its required arguments and options. */
function commandLine(cmd: Command): string[] {
  const path = commandPath(cmd);
  const args = cmd.registeredArguments.filter((a) => a.required).map((a) => a.argChoices?.[0] ?? 'x');
  const options = cmd.options.filter((o) => o.mandatory).flatMap((o) => [o.long ?? '', 'x']);
  return [...(path ? path.split(' ') : []), ...args, ...options];
}

/** The program with every action a no-op: parsing runs the hooks and nothing else. */
function inertProgram(): Command {
  const program = buildProgram();
  for (const cmd of walk(program)) cmd.action(() => {});
  return program;
}

const commands = walk(buildProgram());

afterEach(() => vi.restoreAllMocks());

describe('the table of targeting global flags', () => {
  it('declares every command of the program, the program itself included, and nothing else', () => {
    const paths = commands.map(commandPath);
    expect(paths).toContain('');
    expect(paths).toContain('rollout create');
    for (const path of paths) expect(GLOBAL_FLAG_USE[path], `no declaration for "${path}"`).toBeDefined();
    expect(Object.keys(GLOBAL_FLAG_USE).sort()).toEqual([...paths].sort());
  });

  it('keeps the flags the commands read', () => {
    const allowed = (path: string, ...flags: TargetingFlag[]) =>
      expect(globalFlagRefusal(path, Object.fromEntries(flags.map((f) => [f, 'x']))), path).toBeUndefined();
    allowed('', ...FLAGS);
    allowed('status', 'context', 'hostingContext', 'controlPlaneContext', 'namespace', 'warnDays', 'output');
    allowed('logs', 'context', 'hostingContext', 'namespace', 'output');
    allowed('get', 'context', 'output');
    allowed('workloads', 'context', 'hostingContext', 'controlPlaneContext', 'output');
    allowed('rollout create', 'context', 'output');
    allowed('backup', 'hostingContext', 'controlPlaneContext', 'output');
    allowed('uninstall', 'hostingContext', 'controlPlaneContext', 'namespace', 'output');
    allowed('certs', 'context', 'hostingContext', 'namespace', 'warnDays', 'output');
    allowed('sandbox status', 'output');
  });
});

/** Every command with each flag its declaration uses (or does not): [the command's name, the flag, its path, its command line with the flag]. */
const pairs = (used: boolean): [name: string, flag: TargetingFlag, path: string, args: string[]][] =>
  commands.flatMap((cmd) => {
    const path = commandPath(cmd);
    return FLAGS.filter((flag) => (GLOBAL_FLAG_USE[path]?.uses ?? []).includes(flag) === used).map((flag) => [
      path || '(the dashboard)',
      flag,
      path,
      [...commandLine(cmd), ...FLAG_ARGS[flag]],
    ]);
  });

describe('a targeting flag its declaration allows', () => {
  it.each(pairs(true))('%s with %s: not refused, and parsed', async (_name, flag, path, args) => {
    expect(globalFlagRefusal(path, { [flag]: 'x' })).toBeUndefined();
    await expect(inertProgram().parseAsync(args, { from: 'user' })).resolves.toBeDefined();
  });
});

describe('a targeting flag its declaration does not allow', () => {
  it.each(pairs(false))('%s with %s: refused in one line, exit 2', async (_name, flag, path, args) => {
    const line = globalFlagRefusal(path, { [flag]: 'x' });
    expect(line).toMatch(new RegExp(`^${path || 'fleetdeck'} does not use ${TARGETING_FLAGS[flag]}(;|$)`));
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
      err.push(String(s));
      return true;
    });
    expect(await main(args)).toBe(2);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(new RegExp(`^fleetdeck: ${path} does not use ${TARGETING_FLAGS[flag]}(;[^\\n]*)?\\n$`));
  });
});

describe('the refusal', () => {
  it('names the flag the command has for what was meant, with the value given', () => {
    expect(globalFlagRefusal('install', { context: 'a,b' })).toBe(
      'install does not use --context; the workload clusters are named with --workload (e.g. --workload a,b)',
    );
    expect(globalFlagRefusal('explain', { namespace: 'shop' })).toBe(
      "explain does not use --namespace; the workload's namespace is -n/--workload-namespace (e.g. -n shop)",
    );
    expect(globalFlagRefusal('rollout cleanup', { namespace: 'jobs' })).toBe(
      "rollout cleanup does not use --namespace; the runner Job's namespace is --runner-namespace (e.g. --runner-namespace jobs)",
    );
    expect(globalFlagRefusal('logs', { logLines: '300' })).toBe(
      'logs does not use --log-lines; the last lines of each container are --tail N (e.g. --tail 300)',
    );
    expect(globalFlagRefusal('sandbox up', { hostingContext: 'h' })).toBe('sandbox up does not use --hosting-context');
    expect(globalFlagRefusal('sandbox up', { sandbox: '' })).toBe('sandbox up does not use --sandbox');
  });

  it('names every flag refused in the one line', () => {
    expect(globalFlagRefusal('sandbox down', { context: 'a', output: 'json' })).toBe('sandbox down does not use --context or -o/--output');
  });

  it('counts only what the command line (or the environment) gave, never a default', async () => {
    const program = inertProgram();
    await program.parseAsync(['status'], { from: 'user' });
    expect(givenGlobalFlags(program)).toEqual({});
    await program.parseAsync(['--context', 'a', '--context', 'b', '--warn-days', '7'], { from: 'user' });
    const up = program.commands.find((c) => c.name() === 'sandbox')?.commands.find((c) => c.name() === 'up');
    expect(givenGlobalFlags(up!)).toEqual({ context: 'a,b', warnDays: '7' });
    program.setOptionValueWithSource('namespace', 'from-env', 'env');
    expect(givenGlobalFlags(up!)).toMatchObject({ namespace: 'from-env' });
    expect(() => checkGlobalFlags(up!)).toThrow(/^sandbox up does not use --context, --namespace or --warn-days; /);
    program.setOptionValueWithSource('namespace', 'elotl', 'default');
    expect(givenGlobalFlags(up!)).not.toHaveProperty('namespace');
  });

  it("reads a command's own flag of the same name as its own: logs -n, certs --warn-days", async () => {
    const program = inertProgram();
    await program.parseAsync(['logs', '-n', 'kube-system', 'pod/x'], { from: 'user' });
    expect(givenGlobalFlags(program)).toEqual({});
    await expect(inertProgram().parseAsync(['certs', '--warn-days', '9'], { from: 'user' })).resolves.toBeDefined();
  });
});

describe('as kubectl fleetdeck', () => {
  const parse = (...a: string[]) => {
    const program = inertProgram();
    return program.parseAsync(kubectlPluginArgs(program, a), { from: 'user' });
  };

  it("kubectl's -n reaches a command that reads --namespace, and its own -n stays its own", async () => {
    await expect(parse('status', '-n', 'fleet-a')).resolves.toBeDefined();
    await expect(parse('-n', 'kube-system', 'logs', 'pod/x')).resolves.toBeDefined();
    await expect(parse('explain', 'deploy/web', '-n', 'shop')).resolves.toBeDefined();
    await expect(parse('rollout', 'list', '--context', 'a', '--request-timeout', '5s', '--kubeconfig', '/k')).resolves.toBeDefined();
  });

  it('-n to a command that reads no namespace is refused as --namespace', async () => {
    await expect(parse('sandbox', 'up', '-n', 'x')).rejects.toThrow('sandbox up does not use --namespace');
  });
});
