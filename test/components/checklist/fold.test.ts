import { describe, expect, it } from 'vitest';
import { foldChildren, foldedLines, foldPassed } from '../../../src/components/checklist/index.js';
import type { CheckItem } from '../../../src/checklist/checklist.js';

const labels = (items: readonly CheckItem[]): string[] => items.flatMap((i) => [i.label, ...labels(i.children ?? []).map((l) => `  ${l}`)]);

describe('foldChildren', () => {
  it('hides the children of finished rows except those needing attention, at every depth', () => {
    const items: CheckItem[] = [
      {
        id: 'a',
        label: 'A',
        state: 'ok',
        children: [
          { id: 'a1', label: 'a1 ok', state: 'ok' },
          { id: 'a2', label: 'a2 running', state: 'running', children: [{ id: 'x', label: 'x ok', state: 'ok' }] },
        ],
      },
      { id: 'b', label: 'B', state: 'running', children: [{ id: 'b1', label: 'b1 ok', state: 'ok' }] },
    ];
    expect(labels(foldChildren(items))).toEqual(['A', '  a2 running', '    x ok', 'B', '  b1 ok']);
  });
});

describe('foldPassed', () => {
  it('puts one line for the passed rows after the others, their labels as its detail', () => {
    const folded = foldPassed([
      { id: 'a', label: 'A', state: 'ok' },
      { id: 'b', label: 'B', state: 'warn' },
    ]);
    expect(folded).toEqual([
      { id: 'b', label: 'B', state: 'warn' },
      { id: 'passed', label: '1 other check passed', state: 'ok', detail: 'A' },
    ]);
  });

  it('folds nothing when there is no passed row, and only when the lines do not fit', () => {
    const items: CheckItem[] = [
      { id: 'a', label: 'A', state: 'fail' },
      { id: 'b', label: 'B', state: 'ok' },
    ];
    expect(foldPassed([items[0] as CheckItem])).toEqual([items[0]]);
    expect(foldedLines(items, 'passed', 2).map((l) => l.item.label)).toEqual(['A', 'B']);
    expect(foldedLines(items, 'passed', 1).map((l) => l.item.label)).toEqual(['A', '1 other check passed']);
    expect(foldedLines(items, undefined, 1).map((l) => l.item.label)).toEqual(['A', 'B']);
  });
});
