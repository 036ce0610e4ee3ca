/** `fleetdeck policy check FILE`: a SchedulePolicy tried before it is applied. The command's code is loaded when it runs. */
import type { Command } from 'commander';
import type { GlobalOptions } from '../session/options.js';
import { outputOption } from './parsers.js';

export function registerPolicy(program: Command): void {
  const policy = program.command('policy').description('SchedulePolicies of the fleet');
  policy
    .command('check')
    .description(
      'what a SchedulePolicy not yet applied would do: the objects it would catch (and the policies that already catch them), the clusters it selects, where each unit would go (changes nothing; 0: it catches objects and places each, 1: it catches nothing, one would stay pending or stay with another policy, 2: usage)',
    )
    .argument('<file>', 'a YAML file with one SchedulePolicy')
    .addOption(outputOption())
    .action(async (file: string, _opts, cmd: Command) => {
      const { runPolicyCheck } = await import('../commands/policy-check.js');
      process.exitCode = await runPolicyCheck(file, cmd.optsWithGlobals<GlobalOptions>());
    });
}
