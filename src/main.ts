import { Command, CommanderError } from 'commander';
import { UsageError, UserError } from './errors.js';
import { setRequestTimeout } from './kube/transport/request-timeout.js';
import { registerApprove } from './program/approve.js';
import { registerCompletion } from './program/completion.js';
import { registerGet } from './program/get.js';
import { registerBackup } from './program/backup.js';
import { registerCerts } from './program/certs.js';
import { registerInstall } from './program/install.js';
import { registerUpgrade } from './program/upgrade.js';
import { selectFleetForRun } from './config/fleets.js';
import { checkGlobalFlags } from './program/global-flags.js';
import { commandName, isKubectlPlugin } from './program/invocation.js';
import { KUBECTL_PLUGIN_HELP, kubectlPluginArgs } from './program/kubectl-plugin.js';
import { registerFleet } from './program/fleet.js';
import { registerLogs } from './program/logs.js';
import { collect, intIn, outputOption, quiet, requestTimeoutValue } from './program/parsers.js';
import { registerPreflight } from './program/preflight.js';
import { registerRollout } from './program/rollout.js';
import { registerSandbox } from './program/sandbox.js';
import { registerStatus } from './program/status.js';
import { registerStorage } from './program/storage.js';
import { registerWorkloads } from './program/workloads.js';
import { registerExplain } from './program/explain.js';
import { registerPolicy } from './program/policy.js';
import { registerMove } from './program/move.js';
import { usageLine } from './program/usage-line.js';
import { endQuietlyOnClosedPipe, exitWhenFlushed, watchTerminal } from './session/exit.js';
import type { GlobalOptions } from './session/options.js';
import { installSignals, signalExitCode } from './session/signals.js';
import { VERSION } from './version.js';

export function buildProgram(): Command {
  const program = new Command(commandName())
    .description('Terminal dashboard for a multi-cluster Kubernetes control plane: every kube context, live.')
    .version(VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--kubeconfig <file>', 'kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)')
    .option(
      '--fleet <name>',
      'the recorded fleet to work on (default: $FLEETDECK_FLEET, else the fleet file’s current one; fleetdeck fleet list)',
    )
    .option(
      '--context <name>',
      'kube context to show (repeatable, or comma separated; default: all); with a fleet: its workload contexts',
      collect,
    )
    .option('--hosting-context <name>', 'fleet: the context whose cluster hosts the control plane (overrides the fleet file)')
    .option('--control-plane-context <name>', 'fleet: the control plane’s own context (default: nova)')
    .option('--namespace <ns>', 'fleet: the namespace of the control plane and the agents (default: elotl)')
    .addOption(outputOption())
    .option('--read-only', 'never change anything in any cluster')
    .option('--no-color', 'no colours (also when NO_COLOR is set)')
    .option('--ascii', 'ASCII symbols only')
    .option('--sandbox', 'when no --kubeconfig/--context is given: start (or reuse) the built-in sandbox fleet and show it')
    .option(
      '--request-timeout <duration>',
      'give up on a single server request after this long (e.g. 30s, 2m); 0: never (default: each request its own)',
      requestTimeoutValue,
    )
    .option(
      '--warn-days <n>',
      'the Status screen: flag certificates that expire within this many days (Certificates view, status row; default 30)',
      intIn(0, 36500),
    )
    .option('--log-lines <n>', 'lines the log view keeps per pod (default: 5000)', intIn(100, 1_000_000))
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    // Before any command runs: a targeting global flag it does not use is refused
    // (src/program/global-flags.ts); then, set once, the whole-request deadline of
    // --request-timeout. (The write gate of --read-only is the session's: src/session/session.ts.)
    .hook('preAction', (_program, action) => {
      checkGlobalFlags(action);
      const opts = action.optsWithGlobals<GlobalOptions>();
      setRequestTimeout(opts.requestTimeout);
      // The fleet of the whole run: whatever reads the fleet file reads that fleet (src/config/fleets.ts).
      if (opts.fleet !== undefined) selectFleetForRun(opts.fleet);
    })
    .action(async (_opts, cmd: Command) => {
      // Commands load what they need when they run: --help and --version stay instant.
      const { runDashboard } = await import('./commands/dashboard.js');
      process.exitCode = await runDashboard(cmd.optsWithGlobals<GlobalOptions>());
    });

  for (const register of [
    registerStatus,
    registerFleet,
    registerInstall,
    registerUpgrade,
    registerSandbox,
    registerRollout,
    registerStorage,
    registerApprove,
    registerPreflight,
    registerLogs,
    registerCompletion,
    registerGet,
    registerWorkloads,
    registerExplain,
    registerPolicy,
    registerMove,
    registerCerts,
    registerBackup,
  ]) {
    register(program);
  }
  for (const cmd of [program, ...program.commands]) quiet(cmd);
  if (isKubectlPlugin()) program.addHelpText('after', KUBECTL_PLUGIN_HELP);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  // SIGINT, SIGTERM and SIGHUP stop the run's work (src/session/signals.ts).
  installSignals();
  try {
    // As a kubectl plugin: kubectl's global flags, honoured or refused (src/program/kubectl-plugin.ts).
    const args = isKubectlPlugin() ? kubectlPluginArgs(program, argv) : argv;
    await program.parseAsync(args, { from: 'user' });
    // Stopped by a signal: the shell's code for it (129, 130, 143), whatever the command returned.
    return signalExitCode() ?? (typeof process.exitCode === 'number' ? process.exitCode : 0);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      process.stderr.write(`fleetdeck: ${usageLine(err, commandName())}\n`);
      return 2;
    }
    if (err instanceof UsageError || err instanceof UserError) {
      process.stderr.write(`fleetdeck: ${err.message}\n`);
      return err.exitCode;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`fleetdeck: unexpected error: ${message.split('\n')[0]}\n`);
    if (process.env.FLEETDECK_DEBUG) console.error(err);
    return 1;
  }
}

export async function run(): Promise<never> {
  endQuietlyOnClosedPipe();
  watchTerminal();
  const code = await main(process.argv.slice(2));
  // Whole output first; then keep-alive sockets and timers must not hold the process open.
  return exitWhenFlushed(code);
}
