import { describe, expect, it } from 'vitest';
import { ago } from '../../src/report/relative-time.js';

describe('ago', () => {
  it('says how long ago in the largest whole unit', () => {
    const now = 1_000_000_000;
    expect(ago(now - 45_000, now)).toBe('45s');
    expect(ago(now - 150_000, now)).toBe('2m');
    expect(ago(now - 3 * 3_600_000 - 1, now)).toBe('3h');
    expect(ago(now - 50 * 3_600_000, now)).toBe('2d');
    expect(ago(now + 5_000, now)).toBe('0s');
  });
});
