import { describe, expect, it } from 'vitest';
import { ChecklistDiff } from '../../src/report/watch-lines.js';
import type { CheckItem } from '../../src/checklist/checklist.js';

const ctx = (state: CheckItem['state'], detail: string): CheckItem => ({ id: 'kind-cp', label: 'Context kind-cp', state, detail });

describe('status --watch: one line per change', () => {
  it('prints everything first, then only what changed', () => {
    const diff = new ChecklistDiff();
    const first = diff.next([{ id: 'title', label: 'Checking contexts', state: 'info' }, ctx('ok', 'reachable, v1.20.2, 4 ms')], false);
    expect(first.map((l) => l.text)).toEqual(['Checking contexts', '* Context kind-cp... reachable, v1.20.2, 4 ms √']);
    // A new latency alone is not a change.
    expect(diff.next([{ id: 'title', label: 'Checking contexts', state: 'info' }, ctx('ok', 'reachable, v1.20.2, 9 ms')], false)).toEqual(
      [],
    );
    const down = diff.next(
      [{ id: 'title', label: 'Checking contexts', state: 'info' }, ctx('fail', 'unreachable since 10:42:07 (connection refused)')],
      true,
    );
    expect(down.map((l) => l.text)).toEqual(['* Context kind-cp... unreachable since 10:42:07 (connection refused) [xx]']);
  });

  it('a changed hint is a change; children are tracked on their own', () => {
    const diff = new ChecklistDiff();
    const tree = (hint: string): CheckItem[] => [
      { id: 'p', label: 'Parent', state: 'warn', hint, children: [{ id: 'c', label: 'Child', state: 'ok', detail: 'x' }] },
    ];
    expect(diff.next(tree('a'), false)).toHaveLength(2);
    const changed = diff.next(tree('b'), false);
    expect(changed.map((l) => l.key)).toEqual(['0/p']);
  });
});
