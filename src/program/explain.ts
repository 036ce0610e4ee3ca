/** `fleetdeck explain KIND/NAME`: why a workload is placed where it is, or not placed. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import type { ExplainOptions } from '../commands/explain.js';

export function registerExplain(program: Command): void {
  program
    .command('explain')
    .description(
      "the placement checklist of one workload of the fleet's control plane: the policy matching it, the clusters it selects and whether it fits each, where it went, its copies (read-only; 0: placed and fine, 1: pending, orphaned, moving or drifted, or not found, 2: usage)",
    )
    .argument('<kind/name>', 'e.g. deployment/web, deploy/web, configmap/settings')
    .option(
      '-n, --workload-namespace <ns>',
      "the workload's namespace in the control plane (default: default; --namespace stays the fleet's)",
    )
    .action(async (target: string, _opts, cmd: Command) => {
      const { runExplain } = await import('../commands/explain.js');
      process.exitCode = await runExplain(target, cmd.optsWithGlobals<ExplainOptions>());
    });
}
