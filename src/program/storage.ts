/** `fleetdeck storage estimate`. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { collect, outputOption, quiet } from './parsers.js';

export function registerStorage(program: Command): void {
  // fleetdeck storage estimate
  const storage = program
    .command('storage')
    .description('storage of a cluster or this host, per node, and whether a catalogue of volumes fits')
    .allowExcessArguments(true)
    .action((_opts, cmd: Command) => {
      const [sub] = cmd.args;
      if (sub !== undefined) throw new UsageError(`unknown command 'storage ${sub}' (estimate)`);
      storage.outputHelp();
      process.exitCode = 2;
    });
  storage
    .command('estimate')
    .description(
      'volume groups and disks per node, then Required against Available for the enabled features (0: it fits, 1: it does not, 2: bad input)',
    )
    .option('--local', 'this host (lsblk, vgs, pvs) instead of a cluster')
    .option(
      '--catalogue <file>',
      'the catalogue of features and volumes: a YAML file, or a shipped one by name (default, kloudspot-example)',
    )
    .option('--features <names>', 'features to enable (repeatable, or comma separated; default: those the catalogue enables)', collect)
    .option(
      '--size <volume=GB>',
      'size of a volume in GB, whole or decimal (repeatable, or comma separated; default: the catalogue’s)',
      collect,
    )
    .option('--shared-pool <vg>', 'volume group for shared volumes (default: one named for shared storage, else the largest other)')
    .option('--unshared-pool <vg>', 'volume group for unshared volumes (default: the one with the most free space)')
    .option('--values <file>', 'write the features, sizes and pools as a values YAML (never overwrites without --force)')
    .option('--force', 'let --values overwrite an existing file')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runStorageEstimate } = await import('../commands/storage.js');
      process.exitCode = await runStorageEstimate(cmd.optsWithGlobals());
    });
  for (const cmd of storage.commands) {
    quiet(cmd);
  }
}
