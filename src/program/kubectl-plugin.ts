/**
 * kubectl's global flags in `kubectl fleetdeck …`. kubectl runs a plugin with the words after
 * the plugin's name verbatim and its own environment (KUBECONFIG included); it parses none of
 * them itself, and refuses flags placed before the plugin's name ("flags cannot be placed before
 * plugin name"). So `kubectl fleetdeck status --context prod -n elotl` reaches fleetdeck as typed,
 * and each of kubectl's global flags is either one fleetdeck has or refused here in one line:
 *
 * - honoured: `--kubeconfig`, `--context`, `--request-timeout` (fleetdeck's own, same syntax),
 *   `-n`/`--namespace` (the fleet's namespace, fleetdeck's `--namespace`; in `logs`, which has
 *   its own `-n`, the pods' namespace as in `kubectl logs`);
 * - refused (exit 2): every other flag of `kubectl options`, unless the command being run has a
 *   flag of that name of its own (`preflight --server`).
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';

const SEVERAL_CONTEXTS =
  'fleetdeck works on several contexts at once, each with the cluster and user its kubeconfig context names; choose contexts with --context';
const FROM_KUBECONFIG =
  'servers and credentials come from the kubeconfig’s contexts; name a kubeconfig with --kubeconfig and a context with --context';
const NO_SUCH_SETTING = 'fleetdeck has no such setting';

/** Every global flag of kubectl (`kubectl options`) fleetdeck does not honour, and why. */
export const REFUSED_KUBECTL_FLAGS: ReadonlyMap<string, string> = new Map([
  ...['--cluster', '--user'].map((f) => [f, SEVERAL_CONTEXTS] as const),
  ...[
    '-s',
    '--server',
    '--token',
    '--as',
    '--as-group',
    '--as-uid',
    '--username',
    '--password',
    '--certificate-authority',
    '--client-certificate',
    '--client-key',
    '--insecure-skip-tls-verify',
    '--tls-server-name',
  ].map((f) => [f, FROM_KUBECONFIG] as const),
  ...[
    '-v',
    '--v',
    '--vmodule',
    '--log-flush-frequency',
    '--profile',
    '--profile-output',
    '--warnings-as-errors',
    '--cache-dir',
    '--match-server-version',
    '--disable-compression',
    '--kuberc',
  ].map((f) => [f, NO_SUCH_SETTING] as const),
]);

/** kubectl's global flags `kubectl fleetdeck` honours, for its help and the README. */
export const KUBECTL_PLUGIN_HELP = `
As a kubectl plugin: kubectl's global flags go after "fleetdeck" (kubectl passes them on as typed).
Honoured: --kubeconfig, --context, --request-timeout, -n/--namespace (the fleet's namespace; in
"logs", the pods' namespace). Refused (exit 2): --cluster, --user, --server, --token, --as and
kubectl's other global flags.`;

/** The flag an argument names: `--user=x` → `--user`, `-nelotl` → `-n`; undefined for a word or a number. */
function flagOf(arg: string): string | undefined {
  if (/^--[^-=]/.test(arg)) return arg.split('=')[0];
  if (/^-[a-zA-Z]/.test(arg)) return arg.slice(0, 2);
  return undefined;
}

/** The program and the (sub)commands the arguments name, outermost first. */
function commandChain(program: Command, args: readonly string[]): Command[] {
  const chain = [program];
  let cmd = program;
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('-')) continue;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub) {
      chain.push(sub);
      cmd = sub;
    }
  }
  return chain;
}

/**
 * The arguments kubectl passed, as fleetdeck's parser takes them: `-n NS` becomes `--namespace NS`
 * where the command has no `-n` of its own; a kubectl global fleetdeck does not honour is a
 * UsageError (one line, exit 2).
 */
export function kubectlPluginArgs(program: Command, args: readonly string[]): string[] {
  const chain = commandChain(program, args);
  const known = (flag: string) => chain.some((c) => c.options.some((o) => o.long === flag || o.short === flag));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const flag = flagOf(arg);
    if (!flag || known(flag)) {
      out.push(arg);
    } else if (flag === '-n') {
      out.push(arg === '-n' ? '--namespace' : `--namespace=${arg.slice(2).replace(/^=/, '')}`);
    } else if (REFUSED_KUBECTL_FLAGS.has(flag)) {
      throw new UsageError(`kubectl's ${flag} is not honoured by kubectl fleetdeck: ${REFUSED_KUBECTL_FLAGS.get(flag)}`);
    } else {
      out.push(arg);
    }
  }
  return out;
}
