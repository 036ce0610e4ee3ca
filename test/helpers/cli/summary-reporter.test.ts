/**
 * The summary reporter fails a run in which a test did not run: vitest run as `npm test` runs it,
 * on test/fixtures/skipped-test (its own config and `*.fixture.ts` files, which this project's run
 * does not pick up).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, type RunResult, runProgram } from './cli.js';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'skipped-test');

/** `vitest run` on the fixture, with a plain environment (none of this run's VITEST_* variables). */
function vitest(...args: string[]): Promise<RunResult> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };
  const bin = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  return runProgram(process.execPath, [bin, 'run', '--config', path.join(FIXTURE, 'vitest.config.ts'), ...args], {
    env,
    cwd: FIXTURE,
    timeoutMs: 60_000,
  });
}

describe('the summary reporter', { timeout: 90_000 }, () => {
  it('fails the run (exit 1) when a test is skipped or todo, with a line naming each', async () => {
    const r = await vitest();
    expect(r.code, r.stderr).toBe(1);
    // The slowest files first (here, the fixture's two), each with its duration.
    expect(r.stdout.match(/^slowest: +\d+\.\d s \S+\.fixture\.ts$/gm)).toHaveLength(2);
    expect(r.stdout.trimEnd().split('\n').slice(-4)).toEqual([
      'skipped: skipped.fixture.ts > a file with tests that do not run > is left out',
      'skipped: skipped.fixture.ts > a file with tests that do not run > is written some day (todo)',
      '2 passed, 0 failed, 2 skipped',
      'the run fails: 2 tests were skipped; every test must run',
    ]);
  });

  it('passes a run in which every test ran', async () => {
    const r = await vitest('passing.fixture.ts');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 0 failed, 0 skipped');
  });

  it('does not fail for the tests a -t name filter leaves out, and still names them', async () => {
    const r = await vitest('-t', 'adds');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('skipped: skipped.fixture.ts > a file with tests that do not run > runs\n');
    expect(r.stdout.trimEnd().split('\n').slice(-2)).toEqual([
      '1 passed, 0 failed, 3 skipped',
      '(a -t name filter left tests out: the run does not fail for them)',
    ]);
  });
});
