import type { CommanderError } from 'commander';

/**
 * The one stderr line for a command-line mistake commander found, in fleetdeck's words: what is
 * wrong and where to look, without commander's "error:" prefix or its trailing full stops.
 */
export function usageLine(err: CommanderError, name = 'fleetdeck'): string {
  const first = (err.message.replace(/^error: /, '').split('\n')[0] ?? err.message).trim();
  // "too many arguments. Expected 0 arguments but got 1: frobnicate." on the root program is a
  // command that does not exist; on a command, arguments it does not take.
  const excess = /^too many arguments(?: for '([^']+)')?\. Expected \d+ arguments? but got \d+: (.*?)\.?$/.exec(first);
  if (err.code === 'commander.excessArguments' && excess) {
    const [, command, args = ''] = excess;
    if (!command) return `unknown command '${args.split(', ')[0]}'; run \`${name} --help\` for the commands`;
    return `${command} takes no arguments (got ${args}); run \`${name} ${command} --help\` for usage`;
  }
  // Commander's sentences end in a full stop; fleetdeck adds its hint after a semicolon.
  const message = first.replace(/\.+$/, '').replace(/ is invalid\. (\S)/, (_m, c: string) => ` is invalid: ${c.toLowerCase()}`);
  return `${message}; run \`${name} --help\` for usage`;
}
