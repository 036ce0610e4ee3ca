import { describe, expect, it } from 'vitest';
import type { CheckItem } from '../../../../src/checklist/checklist.js';
import type { DetailLine } from '../../../../src/screens/status/detail-lines.js';
import { lineRows, offsetShowing } from '../../../../src/screens/status/fleet/line-rows.js';

const item = (id: string, hint?: string): CheckItem => ({ id, label: id, state: hint ? 'fail' : 'ok', ...(hint ? { hint } : {}) });

describe('lineRows', () => {
  it('an item owns its continuation and hint lines; headings and blanks are no rows; table rows with an id are', () => {
    const a = item('nova/etcd', 'see why');
    const lines: DetailLine[] = [
      { kind: 'check', line: { kind: 'item', item: item('nova/title'), depth: 0 } },
      { kind: 'check', line: { kind: 'item', item: a, depth: 0 } },
      { kind: 'more', text: 'more detail', indent: 4 },
      { kind: 'check', line: { kind: 'hint', item: a, depth: 0 } },
      { kind: 'blank' },
      { kind: 'heading', text: 'Clusters' },
      { kind: 'text', text: 'NAME', bold: true },
      { kind: 'text', text: 'w1', id: 'cluster/w1' },
    ];
    expect(lineRows(lines)).toEqual([
      { id: 'nova/title', start: 0, end: 1 },
      { id: 'nova/etcd', start: 1, end: 4 },
      { id: 'cluster/w1', start: 7, end: 8 },
    ]);
  });
});

describe('offsetShowing', () => {
  it('scrolls as little as it takes to show the row whole', () => {
    expect(offsetShowing({ id: 'a', start: 2, end: 4 }, 0, 5, 20)).toBe(0);
    expect(offsetShowing({ id: 'a', start: 8, end: 10 }, 0, 5, 20)).toBe(5);
    expect(offsetShowing({ id: 'a', start: 3, end: 4 }, 5, 5, 20)).toBe(3);
    expect(offsetShowing({ id: 'a', start: 18, end: 20 }, 0, 5, 20)).toBe(15);
    expect(offsetShowing(undefined, 30, 5, 20)).toBe(15);
  });
});
