import { describe, expect, it } from 'vitest';
import { StepError, StepRunner } from '../../src/install/runner.js';
import { formatChecklist, type CheckItem } from '../../src/checklist/checklist.js';

describe('StepRunner', () => {
  it('shows the whole plan pending, runs steps in order with their elapsed time, and stops at the first failure with its hint', async () => {
    let now = 1_000;
    const published: CheckItem[][] = [];
    const runner = new StepRunner(
      (items) => published.push(items),
      () => now,
    );
    runner.plan([
      { id: 'a', label: 'First' },
      { id: 'b', label: 'Second' },
      { id: 'c', label: 'Third' },
    ]);
    expect(published[0]!.map((i) => i.state)).toEqual(['pending', 'pending', 'pending']);

    await runner.run('a', async (row) => {
      row.progress('half way');
      now += 2_500;
      return 'done';
    });
    const failure = runner.run('b', async (row) => {
      const child = row.child('b1', 'Part');
      child.set('running', '0/1');
      now += 500;
      child.set('fail', 'broken');
      throw new StepError('it broke', 'fix it like this');
    });
    await expect(failure).rejects.toThrow('it broke');
    runner.stop();

    const [a, b, c] = runner.items();
    expect(a).toMatchObject({ state: 'ok', detail: 'done', elapsedMs: 2_500 });
    expect(b).toMatchObject({ state: 'fail', detail: 'it broke', hint: 'fix it like this', elapsedMs: 500 });
    expect(b!.children?.[0]).toMatchObject({ label: 'Part', state: 'fail', detail: 'broken' });
    expect(c!.state).toBe('pending');
    // While running, a row showed its progress detail.
    expect(published.some((items) => items[0]!.state === 'running' && items[0]!.detail === 'half way')).toBe(true);
    expect(formatChecklist([a!], { ascii: true })).toBe('* First... done (2.5s) [ok]');
  });

  it('a failure that is not a StepError shows one line, never a stack', async () => {
    const runner = new StepRunner(() => {});
    runner.plan([{ id: 'x', label: 'X' }]);
    const err = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) });
    await expect(runner.run('x', () => Promise.reject(err))).rejects.toBe(err);
    runner.stop();
    expect(runner.items()[0]).toMatchObject({ state: 'fail', detail: 'connection refused' });
  });
});
