import { describe, expect, it } from 'vitest';
import type { CheckItem } from '../../src/checklist/checklist.js';
import { runWithRows } from '../../src/day2/run-rows.js';
import { StepError } from '../../src/install/runner.js';

describe('runWithRows', () => {
  it('publishes the rows live and ends ok with the summary', async () => {
    const seen: CheckItem[][] = [];
    const out = await runWithRows(
      (items) => seen.push(items),
      async (runner) => {
        runner.plan([
          { id: 'a', label: 'First' },
          { id: 'b', label: 'Second' },
        ]);
        await runner.run('a', async () => 'one');
        await runner.run('b', async () => 'two');
        return 'all done';
      },
    );
    expect(out.ok).toBe(true);
    expect(out.summary).toBe('all done');
    expect(out.steps.map((s) => [s.id, s.state, s.detail])).toEqual([
      ['a', 'ok', 'one'],
      ['b', 'ok', 'two'],
    ]);
    expect(seen.some((items) => items[0]?.state === 'running')).toBe(true);
  });

  it('ends failed with the failed row as the summary and its hint; later rows stay pending', async () => {
    const out = await runWithRows(
      () => {},
      async (runner) => {
        runner.plan([
          { id: 'a', label: 'Apply' },
          { id: 'b', label: 'Verify' },
        ]);
        await runner.run('a', async () => {
          throw new StepError('ConfigMap x: forbidden', 'fix it and run again');
        });
        return 'never';
      },
    );
    expect(out).toMatchObject({ ok: false, summary: 'Apply: ConfigMap x: forbidden', hint: 'fix it and run again' });
    expect(out.steps.map((s) => s.state)).toEqual(['fail', 'pending']);
  });
});
