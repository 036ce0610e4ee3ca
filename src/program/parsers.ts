/** Parsers and shared options of the command line (commander). */
import { type Command, InvalidArgumentError, Option } from 'commander';

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

/** "15m", "90s", "1h30m", "500ms"; a bare number is seconds. */
export function duration(flag: string) {
  return (value: string): number => {
    const v = value.trim();
    if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
    const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
    const parts = [...v.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
    if (parts.length === 0 || parts.map((p) => p[0]).join('') !== v)
      throw new InvalidArgumentError(`"${value}" is not a duration for ${flag} (e.g. 90s, 15m, 1h30m)`);
    const ms = parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]!]!, 0);
    if (ms <= 0) throw new InvalidArgumentError(`${flag} must be longer than 0`);
    return Math.round(ms);
  };
}

/** `--request-timeout`: a duration as above, or 0 (any unit) for no deadline, as kubectl has it. */
export function requestTimeoutValue(value: string): number {
  if (/^0+(\.0+)?(ms|s|m|h)?$/.test(value.trim())) return 0;
  return duration('--request-timeout')(value);
}

export function outputOption(choices: readonly string[] = ['text', 'json']): Option {
  return new Option('-o, --output <format>', 'output format for plain mode').choices(choices);
}

/** Errors are printed by main() as one line: commander itself prints nothing. */
export function quiet(cmd: Command): Command {
  return cmd
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} })
    .showSuggestionAfterError(true);
}
