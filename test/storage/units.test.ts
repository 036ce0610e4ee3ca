import { describe, expect, it } from 'vitest';
import { formatGB, formatGBAmount, formatSize } from '../../src/storage/units.js';

const GiB = 2 ** 30;

describe('sizes as the seed prints them', () => {
  it('formats like lsblk: binary units, one decimal rounded half up, none when whole', () => {
    expect(formatSize(512)).toBe('512B');
    expect(formatSize(1023)).toBe('1023B');
    expect(formatSize(1024)).toBe('1K');
    expect(formatSize(2 ** 20)).toBe('1M');
    expect(formatSize(53684994048)).toBe('50G'); // 49.998 GiB
    expect(formatSize(100000000000)).toBe('93.1G');
    expect(formatSize(114746267648)).toBe('106.9G');
    expect(formatSize(1.25 * GiB)).toBe('1.3G');
    expect(formatSize(2 ** 40)).toBe('1T');
  });

  it('formats volume groups in GB with one decimal', () => {
    expect(formatGB(99996401664)).toBe('93.1 GB');
    expect(formatGB(0)).toBe('0.0 GB');
  });
});

describe('GB amounts', () => {
  it('without float noise and without the unit', () => {
    expect(formatGBAmount(10)).toBe('10');
    expect(formatGBAmount(2.5)).toBe('2.5');
    expect(formatGBAmount(0.1 + 0.2)).toBe('0.3');
  });
});
