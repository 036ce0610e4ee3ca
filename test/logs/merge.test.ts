import { describe, expect, it } from 'vitest';
import { mergeByTime } from '../../src/logs/merge.js';

const e = (time: string, id: string) => ({ time, id });

describe('mergeByTime', () => {
  it('interleaves sources by time', () => {
    const a = [e('2026-01-01T00:00:01Z', 'a1'), e('2026-01-01T00:00:03Z', 'a2')];
    const b = [e('2026-01-01T00:00:02Z', 'b1'), e('2026-01-01T00:00:04Z', 'b2')];
    expect(mergeByTime([a, b]).map((x) => x.id)).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it('compares below the millisecond and across zones', () => {
    const a = [e('2026-01-01T00:00:00.000000200Z', 'late')];
    const b = [e('2026-01-01T00:00:00.000000100Z', 'early')];
    const c = [e('2026-01-01T01:00:00.0000001+01:00', 'zone')];
    expect(mergeByTime([a, b, c]).map((x) => x.id)).toEqual(['early', 'zone', 'late']);
  });

  it('keeps each source’s order, ties to the earlier source, unstamped lines with their neighbours', () => {
    const t = '2026-01-01T00:00:05Z';
    const a = [e(t, 'a1'), e('', 'a2'), e('2026-01-01T00:00:09Z', 'a3')];
    const b = [e(t, 'b1'), e('2026-01-01T00:00:06Z', 'b2')];
    expect(mergeByTime([a, b]).map((x) => x.id)).toEqual(['a1', 'a2', 'b1', 'b2', 'a3']);
  });

  it('empty sources and none at all', () => {
    expect(mergeByTime([])).toEqual([]);
    expect(mergeByTime([[], [e('2026-01-01T00:00:00Z', 'x')]]).map((x) => x.id)).toEqual(['x']);
  });
});
