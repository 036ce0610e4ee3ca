import { describe, expect, it } from 'vitest';
import { onlyFigures } from '../../src/bench/clusters.js';

describe('onlyFigures (--only)', () => {
  it('reads --only a,b, --only=a and FLEETDECK_BENCH_ONLY; nothing means every figure', () => {
    expect(onlyFigures(['node', 'index.js', '--clusters', '--only', 'oneshot,scale'], {})).toEqual(new Set(['oneshot', 'scale']));
    expect(onlyFigures(['node', 'index.js', '--only=drain'], {})).toEqual(new Set(['drain']));
    expect(onlyFigures(['node', 'index.js', '--only', 'faults'], {})).toEqual(new Set(['faults']));
    expect(onlyFigures(['node', 'index.js'], { FLEETDECK_BENCH_ONLY: 'scale' })).toEqual(new Set(['scale']));
    expect(onlyFigures(['node', 'index.js', '--clusters'], {})).toBeUndefined();
  });

  it('refuses a figure it does not know, naming the known ones', () => {
    expect(() => onlyFigures(['node', 'index.js', '--only', 'oneshot,fast'], {})).toThrow(/unknown figure fast.*drain, oneshot/);
  });
});
