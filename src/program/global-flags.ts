/**
 * The targeting global flags each command honours. The root program declares them once
 * (src/main.ts) and commander accepts them before or after any command; a command that does not
 * read one would ignore it without a word (`install --context a,b` installing with no workload
 * cluster). So each command (by its path: '' the dashboard, 'rollout create') declares here which
 * of them it reads, and a flag given to one that does not is a usage error — one line, exit 2,
 * naming the command, the flag and, where the command has one, the flag of its own meant — checked
 * in main's preAction hook, before the command runs. Only values from the command line (or the
 * environment) count; defaults do not. --kubeconfig, --read-only, --no-color, --ascii and
 * --request-timeout stay allowed everywhere. A command missing from the table is allowed every
 * flag here; test/program/global-flags.test.ts fails for it.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { commandName } from './invocation.js';

/** The targeting global flags, by their attribute name on the root program, as the user types them. */
export const TARGETING_FLAGS = {
  fleet: '--fleet',
  context: '--context',
  hostingContext: '--hosting-context',
  controlPlaneContext: '--control-plane-context',
  namespace: '--namespace',
  sandbox: '--sandbox',
  warnDays: '--warn-days',
  logLines: '--log-lines',
  output: '-o/--output',
} as const;

export type TargetingFlag = keyof typeof TARGETING_FLAGS;

/** The flags given and their values (a repeatable flag's values joined by commas). */
export type GivenFlags = Partial<Record<TargetingFlag, string>>;

/** What a command honours, and for a flag it does not, the hint that names what the user most likely meant. */
export interface Declaration {
  uses: readonly TargetingFlag[];
  /** null: no hint, not even the flag's own. */
  hints?: Partial<Record<TargetingFlag, ((value: string) => string) | null>>;
}

const ALL = Object.keys(TARGETING_FLAGS) as TargetingFlag[];
/** The flags that describe a fleet (with the fleet file: they override it). */
const FLEET: readonly TargetingFlag[] = ['fleet', 'context', 'hostingContext', 'controlPlaneContext', 'namespace'];
/** A command that only groups subcommands: it runs none of them and its own usage error says more. */
const GROUP: Declaration = { uses: ALL };

const eg = (flag: string, value: string) => (value ? ` (e.g. ${flag} ${value})` : '');
const oneCluster = (what: string) => (value: string) =>
  `${what} works on one cluster: name its context with --context${eg('--context', value)}`;
const workload = (value: string) => `the workload clusters are named with --workload${eg('--workload', value)}`;
const workloadNamespace = (value: string) => `the workload's namespace is -n/--workload-namespace${eg('-n', value)}`;
const runnerNamespace = (value: string) => `the runner Job's namespace is --runner-namespace${eg('--runner-namespace', value)}`;
const controlPlane = (value: string) =>
  `the control plane's own context is --control-plane-context (${value ? `e.g. --control-plane-context ${value}; ` : ''}default nova)`;
const sandboxArgument = (sub: string) => (value: string) =>
  `name the sandbox context as the argument${value ? ` (e.g. sandbox ${sub} ${value})` : ''}`;

/** One cluster, as a single-cluster command takes it: --context, else the current context. */
const single = (what: string, extra: Declaration['hints'] = {}): Declaration => ({
  uses: ['context', 'output'],
  hints: { hostingContext: oneCluster(what), controlPlaneContext: oneCluster(what), ...extra },
});

/** A sandbox command: it works on the sandbox of --dir, whatever the flags (--sandbox is the dashboard's). */
const sandboxCommand = (sub: string, uses: TargetingFlag[] = []): Declaration => ({
  uses,
  hints: { sandbox: null, ...(sub.endsWith('-apiserver') || sub.endsWith('-etcd') ? { context: sandboxArgument(sub) } : {}) },
});

/**
 * Every command's targeting flags, read from its run function (src/commands/**): the fleet's
 * commands (session.fleet, fleetTargets) take the fleet flags they read, the single-cluster ones
 * (session.one, session.several) --context.
 */
export const GLOBAL_FLAG_USE: Readonly<Record<string, Declaration>> = {
  // The dashboard (without a terminal: the status report), its tabs, the sandbox, the install wizard.
  '': { uses: ALL },
  status: { uses: [...FLEET, 'warnDays', 'output'] },
  certs: {
    uses: ['fleet', 'context', 'hostingContext', 'namespace', 'warnDays', 'output'],
    hints: {
      controlPlaneContext: () => "the control plane's certificates are read from its Secrets in the hosting cluster (--hosting-context)",
    },
  },
  'certs renew': {
    uses: [...FLEET, 'output'],
    hints: { warnDays: () => 'fleetdeck certs --warn-days N lists the certificates that expire soon' },
  },
  install: { uses: ['fleet', 'hostingContext', 'controlPlaneContext', 'namespace', 'output'], hints: { context: workload } },
  uninstall: { uses: ['fleet', 'hostingContext', 'controlPlaneContext', 'namespace', 'output'], hints: { context: workload } },
  upgrade: { uses: [...FLEET, 'output'] },
  backup: { uses: ['fleet', 'hostingContext', 'controlPlaneContext', 'output'], hints: { context: controlPlane } },
  restore: { uses: ['fleet', 'hostingContext', 'controlPlaneContext', 'output'], hints: { context: controlPlane } },
  workloads: { uses: ['fleet', 'context', 'hostingContext', 'controlPlaneContext', 'output'] },
  explain: { uses: ['fleet', 'context', 'hostingContext', 'controlPlaneContext'], hints: { namespace: workloadNamespace } },
  move: { uses: ['fleet', 'context', 'hostingContext', 'controlPlaneContext'], hints: { namespace: workloadNamespace } },
  policy: GROUP,
  'policy check': { uses: ['fleet', 'context', 'hostingContext', 'controlPlaneContext', 'output'] },
  // --namespace: the pods' namespace; --hosting-context (and --context): the fleet of --fleet.
  logs: {
    uses: ['fleet', 'context', 'hostingContext', 'namespace', 'output'],
    hints: {
      controlPlaneContext: () => "--control-plane reads the control plane's pods in the hosting cluster (--hosting-context)",
      logLines: (value) => `the last lines of each container are --tail N${eg('--tail', value)}`,
    },
  },
  // --hosting-context (and --control-plane-context with it) adds those contexts to the ones read.
  get: { uses: ['fleet', 'context', 'hostingContext', 'controlPlaneContext', 'output'] },
  approve: single('approve', { namespace: () => 'certificate signing requests belong to no namespace' }),
  preflight: single('preflight'),
  storage: GROUP,
  'storage estimate': single('storage estimate'),
  rollout: GROUP,
  'rollout create': { ...single('a rollout', { namespace: runnerNamespace }), uses: ['fleet', 'context', 'output'] },
  'rollout resume': { ...single('a rollout', { namespace: runnerNamespace }), uses: ['fleet', 'context', 'output'] },
  'rollout abort': single('a rollout'),
  'rollout watch': single('a rollout'),
  // Every context of the dashboard, or each --context.
  'rollout list': { uses: ['fleet', 'context', 'output'] },
  'rollout cleanup': single('a cleanup', { namespace: runnerNamespace }),
  sandbox: GROUP,
  'sandbox up': sandboxCommand('up'),
  'sandbox down': sandboxCommand('down'),
  'sandbox status': sandboxCommand('status', ['output']),
  'sandbox stop-apiserver': sandboxCommand('stop-apiserver'),
  'sandbox start-apiserver': sandboxCommand('start-apiserver'),
  'sandbox stop-etcd': sandboxCommand('stop-etcd'),
  'sandbox start-etcd': sandboxCommand('start-etcd'),
  'sandbox monitoring': GROUP,
  'sandbox monitoring start': sandboxCommand('monitoring start'),
  'sandbox monitoring stop': sandboxCommand('monitoring stop'),
  'sandbox __supervise': sandboxCommand('__supervise'),
  fleet: GROUP,
  'fleet list': { uses: ['fleet', 'output'] },
  'fleet use': { uses: [] },
  completion: { uses: [] },
  complete: { uses: [] },
};

/** Hints for a flag whatever the command (a command's own hint wins). */
const FLAG_HINTS: Partial<Record<TargetingFlag, (value: string) => string>> = {
  fleet: () => 'it chooses the fleet of the commands that read the fleet file (fleetdeck fleet list shows them)',
  sandbox: () => 'it starts the sandbox for the dashboard (fleetdeck --sandbox); start it with fleetdeck sandbox up',
  warnDays: () => 'it is read by the dashboard, status and certs',
  logLines: () => "it sets the lines the dashboard's log view keeps",
};

/** The command's path under the program: '' for the program itself, 'rollout create' for a subcommand. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The one line refusing the targeting flags `path` does not use, or undefined when it uses every
 * one given (or has no declaration). Pure: the preAction hook and the tests call it.
 */
export function globalFlagRefusal(path: string, given: GivenFlags): string | undefined {
  const declared = GLOBAL_FLAG_USE[path];
  if (!declared) return undefined;
  const refused = ALL.filter((f) => given[f] !== undefined && !declared.uses.includes(f));
  if (refused.length === 0) return undefined;
  const flags = refused.map((f) => TARGETING_FLAGS[f]);
  const hints = refused.flatMap((f) => {
    const own = declared.hints?.[f];
    const hint = own === undefined ? FLAG_HINTS[f] : own;
    return hint ? [hint(given[f] ?? '')] : [];
  });
  const what = `${path || commandName()} does not use ${flags.slice(0, -1).join(', ')}${flags.length > 1 ? ' or ' : ''}${flags.at(-1)}`;
  return [what, ...hints].join('; ');
}

/** The targeting flags given on the command line (or by the environment) to the program that `cmd` belongs to. */
export function givenGlobalFlags(cmd: Command): GivenFlags {
  let root = cmd;
  while (root.parent) root = root.parent;
  const given: GivenFlags = {};
  for (const flag of ALL) {
    const source = root.getOptionValueSource(flag);
    if (source !== 'cli' && source !== 'env') continue;
    const value: unknown = root.getOptionValue(flag);
    given[flag] = Array.isArray(value) ? value.join(',') : typeof value === 'boolean' ? '' : String(value ?? '');
  }
  return given;
}

/** The preAction check: throws the one-line UsageError (exit 2) for a targeting flag `action` does not use. */
export function checkGlobalFlags(action: Command): void {
  const refusal = globalFlagRefusal(commandPath(action), givenGlobalFlags(action));
  if (refusal) throw new UsageError(refusal);
}
