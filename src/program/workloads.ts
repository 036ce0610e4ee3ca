/** `fleetdeck workloads`: where Nova placed each workload of the control plane. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import type { WorkloadsOptions } from '../commands/workloads.js';
import { outputOption } from './parsers.js';

export function registerWorkloads(program: Command): void {
  program
    .command('workloads')
    .description(
      "every workload of the fleet's control plane: how it is placed (annotation or policy), its ScheduleGroup, the clusters its copies run in with their ready replicas, and its state (read-only; 0: all placed, 1: one pending, drifted or orphaned, or a cluster not read, 2: usage)",
    )
    .option('--pending', 'only the workloads not scheduled')
    .option('--cluster <name>', 'only the workloads placed on (or left in) this Nova cluster')
    .addOption(outputOption())
    .action(async (_opts, cmd: Command) => {
      const { runWorkloads } = await import('../commands/workloads.js');
      process.exitCode = await runWorkloads(cmd.optsWithGlobals<WorkloadsOptions>());
    });
}
