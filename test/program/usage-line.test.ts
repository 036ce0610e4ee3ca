import { describe, expect, it } from 'vitest';
import { CommanderError } from 'commander';
import { buildProgram } from '../../src/main.js';
import { usageLine } from '../../src/program/usage-line.js';

/** What commander throws for `args`, turned into fleetdeck's one line. */
async function lineFor(args: string[]): Promise<string> {
  try {
    await buildProgram().parseAsync(args, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return usageLine(err);
    throw err;
  }
  throw new Error(`${args.join(' ')} parsed`);
}

describe('usage lines', () => {
  it('an unknown command is said to be one', async () => {
    expect(await lineFor(['frobnicate'])).toBe("unknown command 'frobnicate'; run `fleetdeck --help` for the commands");
  });

  it('arguments a command does not take are named, with its help', async () => {
    expect(await lineFor(['status', 'extra'])).toBe('status takes no arguments (got extra); run `fleetdeck status --help` for usage');
  });

  it('commander sentences lose their full stops: never ".;"', async () => {
    const line = await lineFor(['status', '-o', 'wide']);
    expect(line).toBe(
      "option '-o, --output <format>' argument 'wide' is invalid: allowed choices are text, json, yaml; run `fleetdeck --help` for usage",
    );
  });

  it('a whole number out of range says the range, also for negative numbers', async () => {
    const line = await lineFor(['rollout', 'create', '--max-unavailable', '-1']);
    expect(line).toMatch(/argument '-1' is invalid: -1 is out of range \(a whole number from 1 to 1000\); run/);
    expect(await lineFor(['rollout', 'create', '--max-unavailable', 'two'])).toMatch(
      /"two" is not a whole number \(a whole number from 1 to 1000\)/,
    );
  });
});
