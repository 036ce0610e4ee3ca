/** `fleetdeck status`: the fleet checklist and every context once, or --watch. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import type { GlobalOptions } from '../session/options.js';
import { outputOption } from './parsers.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('print the fleet checklist and every context once and exit (0: healthy, 1: not, 2: usage or config error)')
    .addOption(outputOption())
    .option('-w, --watch', 'keep watching and print each change as a line (plain mode)')
    .action(async (_opts, cmd: Command) => {
      const { runStatus } = await import('../commands/status.js');
      process.exitCode = await runStatus(cmd.optsWithGlobals<GlobalOptions>());
    });
}
