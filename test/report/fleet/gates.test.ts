import { describe, expect, it } from 'vitest';
import { contextGate, forbiddenFor } from '../../../src/report/fleet/gates.js';
import { createFleetStore } from '../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../src/store/status.js';
import type { FleetConfig } from '../../../src/kube/fleet/fleet.js';

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

  it('a fleet context whose credentials cannot be loaded is unknown, with the hint about its kubeconfig user', () => {
    const fleet: FleetConfig = { hostingContext: 'cp', controlPlaneContext: 'nova', namespace: 'elotl', workloads: [] };
    const store = createFleetStore([{ name: 'cp', cluster: 'cp', user: 'ops', server: 'https://cp:6443' }], fleet);
    const b = new UpdateBatcher(store, -1);
    b.patchContext('cp', { reachability: 'credentials', lastError: 'client certificate of user "ops" expired on 2026-01-01T00:00:00Z' });
    b.flush();
    expect(contextGate(store.getState(), 'cp', 'hosting', fleet)).toEqual({
      state: 'fail',
      detail: 'unknown: cp credentials: client certificate of user "ops" expired on 2026-01-01T00:00:00Z',
      hint: 'fix user "ops" of context cp in the kubeconfig (what it names must exist and be valid); kubectl --context cp get --raw /version fails the same way',
    });
  });
});
