import { describe, expect, it } from 'vitest';
import {
  boundedText,
  emptyLogs,
  formatLine,
  MAX_LINE_CHARS,
  mergedLines,
  newRing,
  searchMatches,
  type LogSource,
} from '../../src/store/logs.js';

function source(pod: string, container: string, lines: [number, string][]): LogSource {
  const ring = newRing(10);
  for (const [seq, text] of lines) ring.push({ seq, source: 0, time: '2026-01-01T00:00:00Z', text });
  return { pod, container, containers: [container], restarts: 0, status: 'streaming', ring };
}

describe('log lines', () => {
  it('merges the sources in arrival order', () => {
    const a = source('a', 'app', [
      [1, 'one'],
      [4, 'four'],
    ]);
    const b = source('b', 'app', [
      [2, 'two'],
      [3, 'three'],
    ]);
    expect(mergedLines([a, b]).map((l) => l.text)).toEqual(['one', 'two', 'three', 'four']);
  });

  it('finds matches case-insensitively, oldest first', () => {
    const a = source('a', 'app', [
      [1, 'Error: x'],
      [2, 'fine'],
      [3, 'another error'],
    ]);
    expect(searchMatches(mergedLines([a]), 'ERROR')).toEqual([1, 3]);
    expect(searchMatches(mergedLines([a]), '')).toEqual([]);
  });

  it('prefixes the pod when there are several sources, the time when asked', () => {
    const a = source('a', 'app', [[1, 'x']]);
    const b = source('b', 'app', [[2, 'y']]);
    const line = mergedLines([a, b])[0]!;
    expect(formatLine([a, b], line, false)).toBe('[a] x');
    expect(formatLine([a], line, true)).toBe('2026-01-01T00:00:00Z x');
  });

  it('cuts a runaway line', () => {
    expect(boundedText('x'.repeat(MAX_LINE_CHARS * 3)).length).toBe(MAX_LINE_CHARS);
    expect(boundedText('crlf\r')).toBe('crlf');
  });

  it('starts following, nothing else on', () => {
    expect(emptyLogs(100)).toMatchObject({ capacity: 100, follow: true, previous: false, wrap: false, timestamps: false });
  });
});
