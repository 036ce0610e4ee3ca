/** Parsers and shared options of the command line (commander). */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { parseDuration } from '../duration.js';
import { OUTPUT_FORMATS } from '../output/formats.js';

export function intIn(min: number, max: number) {
  return (value: string): number => {
    const range = `a whole number from ${min} to ${max}`;
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`"${value}" is not a whole number (${range})`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${n} is out of range (${range})`);
    return n;
  };
}

export const collect = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').filter(Boolean)];

/** "15m", "90s", "1h30m", "500ms", "2d"; a bare number is seconds (parseDuration). */
export function duration(flag: string) {
  return (value: string): number => {
    const ms = parseDuration(value);
    if (ms === undefined) throw new InvalidArgumentError(`"${value}" is not a duration for ${flag} (e.g. 90s, 15m, 1h30m)`);
    if (ms <= 0) throw new InvalidArgumentError(`${flag} must be longer than 0`);
    return ms;
  };
}

/** `--request-timeout`: a duration as above, or 0 (any unit) for no deadline, as kubectl has it. */
export function requestTimeoutValue(value: string): number {
  if (/^0+(\.0+)?(ms|s|m|h)?$/.test(value.trim())) return 0;
  return duration('--request-timeout')(value);
}

export function outputOption(): Option {
  return new Option('-o, --output <format>', 'output format for plain mode').choices(OUTPUT_FORMATS);
}

/** Errors are printed by main() as one line: commander itself prints nothing. */
export function quiet(cmd: Command): Command {
  return cmd
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    .showSuggestionAfterError(true);
}
