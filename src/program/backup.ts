/** `fleetdeck backup` and `fleetdeck restore`. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import { outputOption } from './parsers.js';

export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description(
      "write every object an operator created in the control plane (Nova's CRDs' objects, namespaces, workloads, RBAC) to one YAML file, 0600 (0: written, 1: the control plane could not be read, 2: usage)",
    )
    .option('-f, --file <file>', 'the file to write (default: fleetdeck-backup-<context>-<time>.yaml in the current folder)')
    .option('--include-secrets', 'also back up Secrets with their data (otherwise they are skipped)')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runBackupCommand } = await import('../commands/backup.js');
      process.exitCode = await runBackupCommand(cmd.optsWithGlobals());
    });

  program
    .command('restore')
    .description(
      'apply a backup to the control plane by server-side apply, in dependency order: the plan first, then (confirmed) only what changes (0: done or nothing to do, 1: an object failed or declined, 2: usage or a bad file)',
    )
    .argument('<file>', 'a file written by fleetdeck backup')
    .option('--dry-run', 'show the plan, change nothing')
    .option('-y, --yes', 'do not ask for confirmation')
    .addOption(outputOption())
    .action(async (file: string, _opts, cmd: Command) => {
      const { runRestoreCommand } = await import('../commands/restore.js');
      process.exitCode = await runRestoreCommand(file, cmd.optsWithGlobals());
    });
}
