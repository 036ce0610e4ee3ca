/** `fleetdeck logs`: containers' logs of one or several contexts, merged (kubectl logs, stern). The command's code is loaded when it runs. */
import type { Command } from 'commander';
import type { LogsOptions } from '../commands/logs.js';
import { outputOption } from './parsers.js';

export function registerLogs(program: Command): void {
  program
    .command('logs')
    .description(
      'print the logs of a pod, a workload’s pods, pods by selector or the fleet’s agents or control plane, of the current context or of each --context (repeatable) merged, each line prefixed context/pod/container (read-only)',
    )
    .argument('[target]', 'pod/NAME (or NAME), deployment/NAME, statefulset/NAME or daemonset/NAME (deploy/, sts/, ds/, po/ too)')
    .option('-n, --namespace <ns>', "the pods' namespace (default: the context's namespace in the kubeconfig, else default)")
    .option('-c, --container <name>', 'the container to read (default: the only one, or the default-container annotation)')
    .option('--all-containers', 'every container of each pod (and the init containers that ran)')
    .option('-f, --follow', 'keep streaming: new pods join, deleted pods leave, restarted containers are read again; until Ctrl-C')
    .option('-p, --previous', 'the previous (terminated) instance of each container')
    .option('--since <duration>', 'only lines newer than this (10s, 5m, 1h30m)')
    .option('--since-time <time>', 'only lines after this RFC 3339 time (2026-11-25T10:00:00Z)')
    .option('--tail <lines>', 'the last N lines of each container (-1: all; default all)')
    .option('--timestamps', "print the runtime's RFC 3339 timestamp of each line (after the prefix)")
    .option('-l, --selector <selector>', 'the pods matching this label selector instead of a TARGET (kubectl syntax)')
    .option('--agents', 'the nova-agent pods of every workload context of the fleet instead of a TARGET')
    .option('--control-plane', "the control plane's components in the fleet's hosting context instead of a TARGET")
    .option('--max-log-requests <n>', 'most streams followed at once with -f (default 50)')
    .addOption(outputOption())
    .action(async (target: string | undefined, _opts, cmd: Command) => {
      const { runLogs } = await import('../commands/logs.js');
      process.exitCode = await runLogs(target, cmd.optsWithGlobals<LogsOptions>());
    });
}
