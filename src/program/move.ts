/** `fleetdeck move KIND/NAME --to CLUSTER`: a workload moved by its annotation. The command's code is loaded when it runs. */
import { Option, type Command } from 'commander';
import type { MoveOptions } from '../commands/move.js';
import { duration } from './parsers.js';

export function registerMove(program: Command): void {
  program
    .command('move')
    .description(
      "move a workload of the fleet's control plane to a Nova cluster by its annotation nova.elotl.co/cluster (confirmed, or --yes; refused with --read-only), then a line per change until its copy is ready there and gone elsewhere; run again to keep watching (0: moved, 1: declined or not done in time, or not found, 2: usage)",
    )
    .argument('<kind/name>', 'e.g. deployment/web')
    .requiredOption('--to <cluster>', 'the Nova cluster to move it to')
    .option(
      '-n, --workload-namespace <ns>',
      "the workload's namespace in the control plane (default: default; --namespace stays the fleet's)",
    )
    .option('--yes', 'do not ask')
    .addOption(new Option('--timeout <duration>', 'how long to watch the move').argParser(duration('--timeout')).default(5 * 60_000, '5m'))
    .action(async (target: string, _opts, cmd: Command) => {
      const { runMove } = await import('../commands/move.js');
      process.exitCode = await runMove(target, cmd.optsWithGlobals<MoveOptions>());
    });
}
