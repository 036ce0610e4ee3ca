import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseMaxRequests, parseSince, parseSinceTime, parseTail } from '../../src/logs/options.js';

describe('parseSince', () => {
  it('takes kubectl’s durations, in whole seconds rounded up', () => {
    expect(parseSince('10s')).toBe(10);
    expect(parseSince('5m')).toBe(300);
    expect(parseSince('1h')).toBe(3600);
    expect(parseSince('1h30m')).toBe(5400);
    expect(parseSince('1.5h')).toBe(5400);
    expect(parseSince('300ms')).toBe(1);
    expect(parseSince('2m3s')).toBe(123);
  });

  it('refuses what is no duration, a bare number and zero', () => {
    for (const bad of ['', '10', '5x', 'm', '-5m', '1h 30m', 'ten minutes']) {
      expect(() => parseSince(bad), bad).toThrow(UsageError);
    }
    expect(() => parseSince('0s')).toThrow(/longer than 0/);
    expect(() => parseSince('5x')).toThrow(/--since "5x" is not a duration/);
  });
});

describe('parseSinceTime', () => {
  it('takes RFC 3339 with Z, an offset or fractions', () => {
    expect(parseSinceTime('2026-11-25T10:00:00Z')).toBe('2026-11-25T10:00:00Z');
    expect(parseSinceTime('2026-11-25T10:00:00.123456789+01:00')).toBe('2026-11-25T10:00:00.123456789+01:00');
  });

  it('refuses dates without a time or zone and impossible dates', () => {
    for (const bad of ['2026-11-25', '2026-11-25T10:00:00', 'yesterday', '2026-13-45T10:00:00Z']) {
      expect(() => parseSinceTime(bad), bad).toThrow(/--since-time .* is not an RFC 3339 time/);
    }
  });
});

describe('parseTail and parseMaxRequests', () => {
  it('--tail: a whole number, -1 for all', () => {
    expect(parseTail('0')).toBe(0);
    expect(parseTail('20')).toBe(20);
    expect(parseTail('-1')).toBe(-1);
    for (const bad of ['-2', 'ten', '1.5', '']) expect(() => parseTail(bad), bad).toThrow(/--tail/);
  });

  it('--max-log-requests: at least 1', () => {
    expect(parseMaxRequests('50')).toBe(50);
    for (const bad of ['0', '-1', 'many']) expect(() => parseMaxRequests(bad), bad).toThrow(/--max-log-requests/);
  });
});
