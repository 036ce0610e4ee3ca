import { describe, expect, it } from 'vitest';
import { recentWarnings } from '../../../../src/screens/status/detail/event-rows.js';
import { warning } from '../../../helpers/screens/fleets.js';

describe('recentWarnings', () => {
  it('keeps one row per reason and object, the newest message, the counts added up, newest first', () => {
    // Given the same warning twice and two others
    const rows = recentWarnings([
      warning('BackOff', 'Pod a/x', 10, { count: 2, message: 'older' }),
      warning('Unhealthy', 'Pod a/y', 5),
      warning('BackOff', 'Pod a/x', 1, { count: 3, message: 'newer' }),
      warning('BackOff', 'Pod a/z', 20),
    ]);
    // Then
    expect(rows.map((r) => `${r.reason} ${r.object} ${r.count} ${r.message}`)).toEqual([
      'BackOff Pod a/x 5 newer',
      'Unhealthy Pod a/y 1 Unhealthy on Pod a/y',
      'BackOff Pod a/z 1 BackOff on Pod a/z',
    ]);
  });

  it('lists at most 20', () => {
    expect(recentWarnings(Array.from({ length: 30 }, (_, i) => warning('R', `Pod a/${i}`, i)))).toHaveLength(20);
  });
});
