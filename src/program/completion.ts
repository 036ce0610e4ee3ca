/**
 * `fleetdeck completion bash|zsh|fish` prints the shell's completion script; the script calls the
 * hidden `fleetdeck complete -- WORDS…` on every Tab. The completion code is loaded when it runs.
 */
import { type Command, Option } from 'commander';

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print the completion script of a shell (bash, zsh, fish); docs/commands/completion.md says how to install it')
    .addArgument(program.createArgument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action(async (shell: 'bash' | 'zsh' | 'fish') => {
      const { completionScript } = await import('../completion/script.js');
      process.stdout.write(`${completionScript(shell)}\n`);
    });
  program
    .command('complete', { hidden: true })
    .description('the candidates for the last word of a command line (what the completion scripts call)')
    .argument('[words...]')
    .allowUnknownOption()
    .addOption(new Option('-h, --help').hideHelp())
    .action(async (words: string[]) => {
      const { runComplete } = await import('../completion/complete.js');
      process.exitCode = await runComplete(program, words);
    });
}
