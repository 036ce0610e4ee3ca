import { describe, expect, it } from 'vitest';
import { cleanText, hardWrap, indexAtOrBefore, logWindow } from '../../../src/screens/logs/log-window.js';
import { mergedLines, newRing, type LogSource } from '../../../src/store/logs.js';

function source(texts: string[]): LogSource {
  const ring = newRing(100);
  for (const [i, text] of texts.entries()) ring.push({ seq: i + 1, source: 0, time: '2026-01-01T00:00:00Z', text });
  return { pod: 'p', container: 'c', containers: ['c'], restarts: 0, status: 'streaming', ring };
}

const opts = { width: 10, height: 3, wrap: false, timestamps: false, search: '', ellipsis: '…' };

describe('log window', () => {
  it('shows the newest lines at the bottom while following', () => {
    const s = [source(['a', 'b', 'c', 'd', 'e'])];
    expect(logWindow(mergedLines(s), s, opts).map((r) => r.text)).toEqual(['c', 'd', 'e']);
  });

  it('ends at the anchor when scrolled', () => {
    const s = [source(['a', 'b', 'c', 'd', 'e'])];
    expect(logWindow(mergedLines(s), s, { ...opts, anchor: 3 }).map((r) => r.text)).toEqual(['a', 'b', 'c']);
  });

  it('cuts long lines, or wraps them keeping their last rows in the window', () => {
    const s = [source(['short', '0123456789abcdef'])];
    expect(logWindow(mergedLines(s), s, opts).map((r) => r.text)).toEqual(['short', '012345678…']);
    expect(logWindow(mergedLines(s), s, { ...opts, wrap: true, height: 2 }).map((r) => r.text)).toEqual(['0123456789', 'abcdef']);
  });

  it('marks where the search term is', () => {
    const s = [source(['an Error here'])];
    expect(logWindow(mergedLines(s), s, { ...opts, width: 40, search: 'error' })[0]!.hits).toEqual([[3, 8]]);
  });

  it('with wrap off, shifts a line whose hit is past the width to the hit, … on the side cut', () => {
    const line = `${'a'.repeat(30)} needle ${'b'.repeat(30)}`;
    const s = [source([line, `${'c'.repeat(30)} needle`, 'needle first, then a long tail'])];
    const rows = logWindow(mergedLines(s), s, { ...opts, width: 20, search: 'NEEDLE' });
    // In the middle: a third of the width before the hit, the rest after it
    expect(rows[0]!.text).toBe('…aaaaa needle bbbbb…');
    expect(rows[0]!.hits).toEqual([[7, 13]]);
    // Near the end: the end of the line, as much before the hit as fits
    expect(rows[1]!.text).toBe('…cccccccccccc needle');
    // Already in sight: cut at the end as before
    expect(rows[2]!.text).toBe('needle first, then …');
    for (const r of rows) expect([...r.text]).toHaveLength(20);
  });

  it('takes escape sequences and control characters out, tabs become spaces', () => {
    expect(cleanText('\u001B[31mred\u001B[0m\tx\u0007')).toBe('red    x');
  });

  it('wraps by characters, keeping spaces', () => {
    expect(hardWrap('a  b  c', 3)).toEqual(['a  ', 'b  ', 'c']);
  });

  it('finds the line at or before a seq', () => {
    const lines = mergedLines([source(['a', 'b', 'c'])]);
    expect(indexAtOrBefore(lines, 2)).toBe(1);
    expect(indexAtOrBefore(lines, 0)).toBe(-1);
    expect(indexAtOrBefore(lines, 99)).toBe(2);
  });
});
