/** `fleetdeck fleet list|use`: the fleets the fleet file records. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import type { GlobalOptions } from '../session/options.js';
import { outputOption } from './parsers.js';

export function registerFleet(program: Command): void {
  const fleet = program.command('fleet').description('the fleets the fleet file records, and the one commands work on');
  fleet
    .command('list')
    .description('every recorded fleet: its hosting, control plane and workload contexts; * marks the one commands work on (0, 2: usage)')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runFleetList } = await import('../commands/fleet.js');
      process.exitCode = runFleetList(cmd.optsWithGlobals<GlobalOptions>());
    });
  fleet
    .command('use')
    .description('make a recorded fleet the current one: the one every command works on without --fleet (changes only the fleet file)')
    .argument('<name>', 'a fleet the fleet file records (fleetdeck fleet list)')
    .action(async (name: string) => {
      const { runFleetUse } = await import('../commands/fleet.js');
      process.exitCode = runFleetUse(name);
    });
}
