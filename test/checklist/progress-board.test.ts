import { describe, expect, it } from 'vitest';
import type { CheckItem } from '../../src/checklist/checklist.js';
import { ProgressBoard } from '../../src/checklist/progress-board.js';

describe('ProgressBoard', () => {
  it('tracks rows and children from pending to their outcome with the time they ran, on the given clock', () => {
    // Given a board with two steps and a clock at 1 s
    let now = 1_000;
    const seen: CheckItem[][] = [];
    const board = new ProgressBoard(
      (items) => seen.push(items),
      () => now,
    );
    board.plan([
      { id: 'a', label: 'First' },
      { id: 'b', label: 'Second' },
    ]);
    expect(seen[0]!.map((i) => i.state)).toEqual(['pending', 'pending']);

    // When the first runs 1.5 s with a child and finishes, and the second is skipped
    board.start('a', 'working');
    const child = board.child('a', 'c', 'Part');
    board.start(child);
    now += 1_500;
    expect(board.items()[0]).toMatchObject({ state: 'running', detail: 'working', elapsedMs: 1_500 });
    expect(board.elapsed('a')).toBe('1.5s');
    expect(board.running()).toBe(true);
    board.finish(child, 'done');
    board.finish('a', 'all done');
    board.markSkipped('b', 'dry run');

    // Then the rows say so, and nothing runs any more
    const [a, b] = board.items();
    expect(a).toMatchObject({ state: 'ok', detail: 'all done', elapsedMs: 1_500 });
    expect(a!.children?.[0]).toMatchObject({ id: 'c', state: 'ok', detail: 'done', elapsedMs: 1_500 });
    expect(b).toEqual({ id: 'b', label: 'Second', state: 'info', detail: 'dry run' });
    expect(board.running()).toBe(false);
    expect(seen.at(-1)).toEqual(board.items());
  });

  it('a failure keeps its hint; replace sets a verdict as a whole, without time', () => {
    const board = new ProgressBoard(undefined, () => 0);
    board.plan([
      { id: 'x', label: 'X' },
      { id: 'y', label: 'Y' },
    ]);
    board.start('x');
    board.hint('x', 'slow because of this');
    board.fail('x', 'broken', 'fix it');
    board.replace('y', { state: 'running' });
    board.replace('y', { state: 'warn', detail: 'maybe', hint: 'look', children: [{ id: 'z', label: 'Z', state: 'info' }] });
    board.replace('y', { state: 'ok', detail: 'fine' });
    expect(board.items()).toEqual([
      { id: 'x', label: 'X', state: 'fail', detail: 'broken', hint: 'fix it', elapsedMs: 0 },
      { id: 'y', label: 'Y', state: 'ok', detail: 'fine' },
    ]);
    expect(() => board.start('nope')).toThrow('no step nope');
  });
});
