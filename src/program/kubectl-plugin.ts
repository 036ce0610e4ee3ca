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
import type { Command, Option } from 'commander';
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

/** The option of this name on the command or one of its parents, nearest first. */
function optionOf(chain: readonly Command[], flag: string): Option | undefined {
  for (const cmd of [...chain].reverse()) {
    const found = cmd.options.find((o) => o.long === flag || o.short === flag);
    if (found) return found;
  }
  return undefined;
}

/**
 * The arguments kubectl passed, as fleetdeck's parser takes them: `-n NS` becomes `--namespace NS`
 * where the command named so far has no `-n` of its own (`kubectl fleetdeck -n NS logs …` is the
 * fleet's namespace, which `logs` takes as its pods' namespace; `logs -n NS` is logs' own); a
 * kubectl global fleetdeck does not honour is a UsageError (one line, exit 2).
 */
export function kubectlPluginArgs(program: Command, args: readonly string[]): string[] {
  const chain: Command[] = [program];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const flag = flagOf(arg);
    const option = flag ? optionOf(chain, flag) : undefined;
    if (!flag) {
      const sub = chain.at(-1)?.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
      if (sub) chain.push(sub);
      out.push(arg);
      continue;
    }
    if (option) {
      out.push(arg);
      // The option's value, when it is the next word, is a value whatever it looks like.
      if ((option.required || option.optional) && arg === flag && i + 1 < args.length) out.push(args[++i] ?? '');
    } else if (flag === '-n') {
      out.push(arg === '-n' ? '--namespace' : `--namespace=${arg.slice(2).replace(/^=/, '')}`);
      if (arg === '-n' && i + 1 < args.length) out.push(args[++i] ?? '');
    } else if (REFUSED_KUBECTL_FLAGS.has(flag)) {
      throw new UsageError(`kubectl's ${flag} is not honoured by kubectl fleetdeck: ${REFUSED_KUBECTL_FLAGS.get(flag)}`);
    } else {
      out.push(arg);
    }
  }
  return out;
}
