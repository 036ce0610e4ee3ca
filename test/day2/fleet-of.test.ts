import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { fleetTargetsOf } from '../../src/day2/fleet-of.js';

describe('fleetTargetsOf', () => {
  const kc = new KubeConfig();

  it('gives the hosting, the control plane (the target itself), the workloads and the namespace', () => {
    const hosting = { context: 'host', kc };
    const workloads = [{ context: 'w1', kc, clusterName: 'one' }];
    const t = fleetTargetsOf(
      { context: 'nova', kc, fleet: { hosting, workloads, namespace: 'nova', fleetFile: '/x/fleet.yaml' } },
      'An upgrade',
    );
    expect(t).toEqual({ hosting, controlPlane: { context: 'nova', kc }, workloads, namespace: 'nova' });
  });

  it('refuses a target without its fleet, naming the operation', () => {
    expect(() => fleetTargetsOf({ context: 'nova', kc }, 'An upgrade')).toThrow(/^An upgrade needs every cluster of the fleet/);
  });
});
