import { describe, expect, it } from 'vitest';
import { spawnCli, stopCli } from '../../src/bench/running-cli.js';
import { eventually } from '../helpers/cli/cli.js';

/** A stand-in for the CLI (`node -e`): prints `a`, `b`, then `a` again, and runs until Ctrl-C. */
const SCRIPT = `console.log('a'); console.log('b'); setTimeout(() => console.log('a'), 20); setInterval(() => {}, 1000);`;

describe('spawnCli (the fault figure and the fault suite read a child line by line)', () => {
  it('finds a line by its order: the first match from an index on, not an earlier one', async () => {
    const cli = spawnCli('-e', [SCRIPT], process.env);
    try {
      await eventually('three lines', () => cli.lines.length === 3);
      expect(cli.lines.map((l) => l.text)).toEqual(['a', 'b', 'a']);
      expect(cli.findFrom(0, (t) => t === 'a')).toBe(cli.lines[0]);
      expect(cli.findFrom(1, (t) => t === 'a')).toBe(cli.lines[2]);
      expect(cli.findFrom(3, (t) => t === 'a')).toBeUndefined();
      expect(cli.alive()).toBe(true);
    } finally {
      await stopCli(cli);
    }
    expect(cli.alive()).toBe(false);
  });
});
