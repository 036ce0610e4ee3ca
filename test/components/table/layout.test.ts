import { describe, expect, it } from 'vitest';
import { layoutColumns, scrollWindow, splitCell, visibleColumns } from '../../../src/components/table/index.js';

describe('layoutColumns', () => {
  const specs = [
    { header: 'NAME', min: 6, shrink: 2 },
    { header: 'STATUS', min: 8, shrink: 1 },
    { header: 'AGE', min: 3 },
  ];

  it('sizes columns to their widest cell, with two spaces between', () => {
    // Given short cells and room
    // When laid out in 80 columns
    const { widths, gap } = layoutColumns(specs, [['alpha', 'reachable', '3m']], 80);
    // Then
    expect(widths).toEqual([6, 9, 3]);
    expect(gap).toBe(2);
  });

  it('gives up the gap, then the columns that shrink first, down to their minimum', () => {
    // Given cells too wide for 30 columns
    const { widths, gap } = layoutColumns(specs, [['a-very-long-context-name', 'unreachable since 10:42', '3m']], 30);
    // Then NAME shrinks first, to its minimum, then STATUS
    expect(gap).toBe(1);
    expect(widths.reduce((a, b) => a + b, 0) + 2 * gap).toBe(30);
    expect(widths[2]).toBe(3);
    expect(widths[0]).toBe(6);
  });
});

describe('scrollWindow', () => {
  it('shows everything when it fits', () => {
    expect(scrollWindow([1, 1, 1], 0, 5)).toEqual({ start: 0, end: 3 });
  });

  it('follows the selection down, counting two-line rows', () => {
    // Given 10 rows, the third of which has a note, and 4 lines
    const heights = [1, 1, 2, 1, 1, 1, 1, 1, 1, 1];
    // When the 6th row is selected
    const w = scrollWindow(heights, 5, 4, 0);
    // Then it is shown, past the two-line row, within 4 lines
    expect(w).toEqual({ start: 3, end: 7 });
    expect(heights.slice(w.start, w.end).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(4);
  });

  it('keeps the window while the selection moves inside it, and follows it up', () => {
    const heights = Array.from({ length: 10 }, () => 1);
    expect(scrollWindow(heights, 6, 4, 4)).toEqual({ start: 4, end: 8 });
    expect(scrollWindow(heights, 2, 4, 4)).toEqual({ start: 2, end: 6 });
  });

  it('fills the space when the list got shorter', () => {
    expect(scrollWindow([1, 1, 1, 1], 3, 4, 3)).toEqual({ start: 0, end: 4 });
  });
});

describe('layoutColumns on a wide terminal', () => {
  it('lets a capped column show all of its content when there is room', () => {
    // Given a name longer than its column's max, and 120 columns
    const { widths } = layoutColumns(
      [
        { header: 'NAME', min: 4, max: 10 },
        { header: 'AGE', min: 3 },
      ],
      [['a-name-of-twenty-two', '3m']],
      120,
    );
    // Then it is not cut
    expect(widths).toEqual([20, 3]);
  });
});

describe('visibleColumns', () => {
  const specs = [
    { header: 'NAME', min: 4 },
    { header: 'LATENCY', min: 7, drop: 1 },
    { header: 'NODES', min: 5 },
  ];

  it('keeps every column when the content fits', () => {
    expect(visibleColumns(specs, [['kind-cp', '3ms', '3/3']], 40)).toEqual([0, 1, 2]);
  });

  it('leaves out droppable columns when the content would be cut', () => {
    // Given 22 columns: NAME 10 + LATENCY 7 + NODES 5 + 2 gaps = 24
    expect(visibleColumns(specs, [['kind-cp-12', '3ms', '3/3']], 22)).toEqual([0, 2]);
  });

  it('leaves out the last columns when even their minimum widths do not fit, so a row never wraps', () => {
    // Given 10 columns: NAME 4 + NODES 5 + a gap = 10 once LATENCY is gone, 9 is too narrow for both
    expect(visibleColumns(specs, [['kind-cp', '3ms', '3/3']], 10)).toEqual([0, 2]);
    expect(visibleColumns(specs, [['kind-cp', '3ms', '3/3']], 9)).toEqual([0]);
  });
});

describe('splitCell', () => {
  it('cuts a cell into pieces for its colored parts, the ellipsis going with the last piece shown', () => {
    expect(splitCell('142, 3 bad', [3, 7])).toEqual(['142', ', 3 bad']);
    expect(splitCell('142, 3…', [3, 7])).toEqual(['142', ', 3…']);
    expect(splitCell('14…', [3, 7])).toEqual(['14…', '']);
  });
});
