/** `fleetdeck upgrade`. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import { outputOption } from './parsers.js';

export function registerUpgrade(program: Command): void {
  program
    .command('upgrade')
    .description(
      "upgrade the fleet's control plane and agents to a newer bundle: plan, backup, then one component at a time with a health gate, then the agents cluster by cluster (0: done, dry run or nothing to do, 1: a step failed or the plan is refused, 2: usage)",
    )
    .option('--bundle <dir>', "the new bundle (a Nova release's install/ directory; default: the one built into fleetdeck)")
    .option('--canary <cluster>', "the workload cluster whose agent is upgraded first (default: the fleet's first)")
    .option('--rollback', 're-apply the bundle recorded before the one in place (after a failed or unwanted upgrade)')
    .option('--dry-run', 'print the plan, change nothing')
    .option('-y, --yes', 'do not ask for confirmation')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runUpgradeCommand } = await import('../commands/upgrade.js');
      process.exitCode = await runUpgradeCommand(cmd.optsWithGlobals());
    });
}
