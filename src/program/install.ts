/** `fleetdeck install` and `fleetdeck uninstall`. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import { collect, intIn, outputOption } from './parsers.js';

export function registerInstall(program: Command): void {
  const installOptions = (cmd: Command) =>
    cmd
      .option(
        '--workload <contexts>',
        'workload contexts to connect (repeatable or comma separated; CONTEXT=NAME to register under another cluster name)',
        collect,
      )
      .option('--bundle <dir>', 'install from this bundle directory (plain manifests or kustomizations) instead of the built-in one')
      .addOption(outputOption())
      .option('-y, --yes', 'do not ask for confirmation');

  installOptions(
    program
      .command('install')
      .description(
        'check, then install the control plane into the hosting context and connect the workload contexts (resumable: run it again after an interruption)',
      ),
  )
    .option('--no-ha', 'one replica of each component (default: 3, spread by the topology key)')
    .option('--topology-key <key>', 'node label that spreads the HA replicas', 'topology.kubernetes.io/zone')
    .option('--cert-validity-days <days>', 'validity of the certificates', intIn(1, 36500), 3650)
    .option('--rotate-certs', 'regenerate every certificate and key (existing ones are otherwise reused)')
    .option(
      '--merge-kubeconfig',
      'also add the control plane context to your kubeconfig (backup first; existing names are never overwritten)',
    )
    .option('--dry-run', 'show every object that would be created or changed, change nothing')
    .action(async (_opts, cmd: Command) => {
      const { runInstallCommand } = await import('../commands/install.js');
      process.exitCode = await runInstallCommand(cmd.optsWithGlobals());
    });

  installOptions(
    program
      .command('uninstall')
      .description(
        'back up the control plane, then remove the agents, the control plane, its certificates, its Service and namespace, and what the install added to your kubeconfig (asks you to type the namespace)',
      ),
  )
    .option('--dry-run', 'say what would be removed, change nothing')
    .option('--no-backup', "do not back up the control plane's objects first (default: a backup in <config>/fleetdeck/backups/)")
    .action(async (_opts, cmd: Command) => {
      const { runUninstallCommand } = await import('../commands/install.js');
      process.exitCode = await runUninstallCommand(cmd.optsWithGlobals());
    });
}
