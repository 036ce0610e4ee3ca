import { describe, expect, it } from 'vitest';
import { advance, skipSeen, type ResumePoint } from '../../src/logs/resume.js';

const T1 = '2026-01-01T00:00:01Z';
const T2 = '2026-01-01T00:00:02Z';

describe('resume after a dropped stream', () => {
  it('advance counts the lines printed at the last stamp', () => {
    let p: ResumePoint | undefined;
    for (const time of [T1, T2, T2, '']) p = advance(p, { time, text: '' });
    expect(p).toEqual({ time: T2, count: 2 });
  });

  it('skipSeen drops what was printed and passes what follows', () => {
    const keep = skipSeen({ time: T2, count: 2 });
    const got = [
      { time: T1, text: 'old' },
      { time: T2, text: 'seen1' },
      { time: T2, text: 'seen2' },
      { time: T2, text: 'new-same-stamp' },
      { time: '2026-01-01T00:00:03Z', text: 'new' },
    ].filter(keep);
    expect(got.map((x) => x.text)).toEqual(['new-same-stamp', 'new']);
  });

  it('without a point every line passes', () => {
    expect([{ time: T1, text: 'x' }].filter(skipSeen(undefined))).toHaveLength(1);
  });
});
