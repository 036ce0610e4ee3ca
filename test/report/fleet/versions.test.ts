import { describe, expect, it } from 'vitest';
import { minorVersion } from '../../../src/report/fleet/versions.js';

describe('versions', () => {
  it('minorVersion', () => {
    expect(minorVersion('v1.20.2')).toBe('v1.20');
    expect(minorVersion('1.25')).toBe('v1.25');
    expect(minorVersion('v1.27.4-eks-2d98532')).toBe('v1.27');
    expect(minorVersion(undefined)).toBeUndefined();
  });
});
