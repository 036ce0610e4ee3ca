import { describe, expect, it } from 'vitest';
import { supportedOs } from '../../src/preflight/supported-os.js';

describe('supported OS', () => {
  it('supported OS list', () => {
    expect(supportedOs('ubuntu', '22.04')).toBeDefined();
    expect(supportedOs('rhel', '9.4')).toBeDefined();
    expect(supportedOs('centos', '7')).toBeUndefined();
    expect(supportedOs('ubuntu', '18.04')).toBeUndefined();
  });
});
