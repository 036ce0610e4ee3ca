/** `fleetdeck get nodes|pods`: the rows of the dashboard's Fleet views for scripts. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import type { GetOptions } from '../commands/get.js';
import { outputOption } from './parsers.js';

export function registerGet(program: Command): void {
  program
    .command('get')
    .description(
      'print the nodes, or the pods needing attention, of the current context, of each --context (repeatable) or of --all-contexts in one table (read-only; 0: all read, 1: a context could not be read, 2: usage)',
    )
    .argument('<resource>', 'nodes or pods (no, po)')
    .option('--all-contexts', 'every context of the kubeconfig')
    .addOption(outputOption())
    .action(async (resource: string, _opts, cmd: Command) => {
      const { runGet } = await import('../commands/get.js');
      process.exitCode = await runGet(resource, cmd.optsWithGlobals<GetOptions>());
    });
}
