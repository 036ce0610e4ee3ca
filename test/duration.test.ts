import { describe, expect, it } from 'vitest';
import { formatDuration } from '../src/duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;
const each = (style: Parameters<typeof formatDuration>[1], values: number[]) => values.map((ms) => formatDuration(ms, style));

describe('formatDuration: the one formatter of durations', () => {
  it('elapsed (the default): a tenth below 10 s, then seconds, then minutes and padded seconds', () => {
    expect(each('elapsed', [400, 9_940, 12 * S, 59 * S, 2 * M + 5 * S, 75 * M])).toEqual(['0.4s', '9.9s', '12s', '59s', '2m05s', '75m00s']);
    expect(formatDuration(400)).toBe('0.4s');
  });

  it('span: whole seconds, zero parts left out, hours past 60 minutes', () => {
    expect(each('span', [45 * S, 3 * M + 10 * S, 15 * M, H + 5 * M, 2 * H, 400])).toEqual(['45s', '3m10s', '15m', '1h05m', '2h', '0s']);
  });

  it('clock: as span, with every part kept', () => {
    expect(each('clock', [45 * S, 3 * M + 10 * S, 15 * M, H + 5 * M, 2 * H])).toEqual(['45s', '3m10s', '15m00s', '1h05m', '2h00m']);
  });

  it('deadline: milliseconds below a second, unpadded seconds after minutes', () => {
    expect(each('deadline', [500, S, 5 * S, M, 90 * S])).toEqual(['500ms', '1s', '5s', '1m', '1m30s']);
  });

  it('age: the largest whole unit, rounded down', () => {
    expect(each('age', [45 * S, 150 * S, 3 * H + 1, 50 * H, 119 * S])).toEqual(['45s', '2m', '3h', '2d', '1m']);
  });

  it('kubectl-age: a unit until twice the next one', () => {
    expect(each('kubectl-age', [119 * S, 5 * M, 3 * H, 2 * D, 47 * H])).toEqual(['119s', '5m', '3h', '2d', '47h']);
  });

  it('go: as Go prints a time.Duration', () => {
    expect(each('go', [10 * S, 80 * S, 5 * M])).toEqual(['10s', '1m20s', '5m0s']);
  });

  it('a negative duration (a clock ahead) is 0', () => {
    expect(each('age', [-5 * S])).toEqual(['0s']);
    expect(each('span', [-5 * S])).toEqual(['0s']);
  });
});
