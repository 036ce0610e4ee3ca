/** `fleetdeck certs`: the fleet's certificates in one table. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import { intIn, outputOption } from './parsers.js';

export function registerCerts(program: Command): void {
  program
    .command('certs')
    .description(
      "list every certificate of the fleet: the control plane's Secrets, the agents' init kubeconfig, the kubeconfig's client certificates (0: all fine, 1: one expires within --warn-days, expired or unreadable, 2: usage or config error)",
    )
    .addOption(outputOption())
    .option('--warn-days <n>', 'flag certificates that expire within this many days (default 30)', intIn(0, 36500))
    .action(async (_opts, cmd: Command) => {
      const { runCerts } = await import('../commands/certs.js');
      process.exitCode = await runCerts(cmd.optsWithGlobals());
    });
}
