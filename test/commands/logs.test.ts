import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { logRequest } from '../../src/commands/logs.js';

describe('logRequest', () => {
  it('defaults: no follow, all lines, 50 streams', () => {
    expect(logRequest({})).toEqual({ follow: false, previous: false, maxLogRequests: 50 });
  });

  it('takes the flags', () => {
    expect(logRequest({ follow: true, container: 'c', since: '1h30m', tail: '10', maxLogRequests: '5' })).toEqual({
      follow: true,
      previous: false,
      container: 'c',
      sinceSeconds: 5400,
      tailLines: 10,
      maxLogRequests: 5,
    });
  });

  it('refuses flags that exclude each other', () => {
    expect(() => logRequest({ container: 'c', allContainers: true })).toThrow(UsageError);
    expect(() => logRequest({ since: '1m', sinceTime: '2026-11-25T10:00:00Z' })).toThrow(/--since or --since-time/);
  });
});
