import { describe, expect, it } from 'vitest';
import { forbiddenFor } from '../../../src/report/fleet/gates.js';

describe('gates', () => {
  it('forbiddenFor finds the part about one resource', () => {
    const joined =
      'cannot list pods in namespace elotl: HTTP 403: x (needs list and watch on pods); cannot list services in namespace elotl: HTTP 403: y (needs list and watch on services)';
    expect(forbiddenFor(joined, 'services')).toBe(
      'cannot list services in namespace elotl: HTTP 403: y (needs list and watch on services)',
    );
    expect(forbiddenFor(joined, 'pods')).toMatch(/^cannot list pods in namespace elotl: HTTP 403: x/);
    expect(forbiddenFor(joined, 'secrets')).toBeUndefined();
    expect(forbiddenFor(undefined, 'pods')).toBeUndefined();
  });
});
