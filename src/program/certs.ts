/** `fleetdeck certs`: the fleet's certificates in one table. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import { intIn, outputOption } from './parsers.js';

export function registerCerts(program: Command): void {
  const certs = program
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

  certs
    .command('renew')
    .argument('[names...]', 'all (the default) or certificate names as fleetdeck certs shows them')
    .description(
      "new leaf certificates signed by the existing CAs: Secrets updated, components restarted one replica at a time, kubeconfigs and the agents' init kubeconfig updated, agents re-connected (0: renewed or planned, 1: a step failed, 2: usage, --read-only, no --yes without a terminal)",
    )
    .addOption(outputOption())
    .option('--rotate-ca', 'rotate the CAs named (all, cluster-ca, etcd-ca, front-proxy-ca) with a trust hand-over: bundle, leaves, drop')
    .option('--dry-run', 'print the plan and change nothing')
    .option('--yes', 'do not ask for confirmation')
    .action(async (names: string[], _opts, cmd: Command) => {
      const { runCertsRenew } = await import('../commands/certs-renew.js');
      process.exitCode = await runCertsRenew(names, cmd.optsWithGlobals());
    });
}
