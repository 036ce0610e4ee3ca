import { describe, expect, it } from 'vitest';
import { totalFree } from '../../../src/report/storage/describe.js';

describe('volume groups', () => {
  it('adds up their free space', () => {
    expect(
      totalFree([
        { name: 'a', sizeBytes: 10, freeBytes: 3 },
        { name: 'b', sizeBytes: 10, freeBytes: 4 },
      ]),
    ).toBe(7);
  });
});
