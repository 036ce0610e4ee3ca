import { describe, expect, it } from 'vitest';
import { fitWindow, viewSize } from '../../../src/components/fit/index.js';

describe('fitWindow', () => {
  it('shows every line when they fit', () => {
    expect(fitWindow(3, 3)).toEqual({ start: 0, end: 3, total: 3, overflow: false });
    expect(fitWindow(0, 5)).toEqual({ start: 0, end: 0, total: 0, overflow: false });
  });

  it('keeps the first lines, one line short for the marker, and scrolls by the offset up to the last line', () => {
    expect(fitWindow(10, 4)).toEqual({ start: 0, end: 3, total: 10, overflow: true });
    expect(fitWindow(10, 4, { offset: 2 })).toEqual({ start: 2, end: 5, total: 10, overflow: true });
    expect(fitWindow(10, 4, { offset: 99 })).toEqual({ start: 7, end: 10, total: 10, overflow: true });
  });

  it('keeps the last lines when asked, the offset scrolling back up', () => {
    expect(fitWindow(10, 4, { keep: 'end' })).toEqual({ start: 7, end: 10, total: 10, overflow: true });
    expect(fitWindow(10, 4, { keep: 'end', offset: 1 })).toEqual({ start: 6, end: 9, total: 10, overflow: true });
  });

  it('shows at least minView lines, and none in no height', () => {
    expect(viewSize(10, 1, 1)).toBe(1);
    expect(fitWindow(10, 1, { minView: 1 })).toEqual({ start: 0, end: 1, total: 10, overflow: true });
    expect(fitWindow(10, 0)).toEqual({ start: 0, end: 0, total: 10, overflow: true });
  });
});
