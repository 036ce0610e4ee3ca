/** `fleetdeck preflight`: this host before it becomes a node. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import { outputOption } from './parsers.js';

export function registerPreflight(program: Command): void {
  program
    .command('preflight')
    .description(
      'check this host before it becomes a node: OS, ports, API server and clock, previous install, hostname, firewalls, resolv.conf, swap, CPU, memory (0: no failures, 1: failures, 2: usage)',
    )
    .option(
      '--server <url>',
      'API server to reach over TCP and TLS, and compare clocks with (default: the --context’s or current context’s)',
    )
    .option('--root <dir>', 'read the host’s files under this directory instead of / (commands such as systemctl are then not run)')
    .option('--min-cpus <n>', 'minimum CPUs', '2')
    .option('--min-memory <GB>', 'minimum memory in GB (10^9 bytes of MemTotal)', '2')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runPreflight } = await import('../commands/preflight.js');
      process.exitCode = await runPreflight(cmd.optsWithGlobals());
    });
}
