import { describe, expect, it } from 'vitest';
import { type FleetConfig, fleetProblemLine, watchersFor } from '../../../src/kube/fleet/fleet.js';

const fleet: FleetConfig = {
  hostingContext: 'kind-cp',
  controlPlaneContext: 'nova',
  namespace: 'elotl',
  workloads: [
    { context: 'w1', clusterName: 'w1' },
    { context: 'w2', clusterName: 'w2' },
  ],
};
const elsewhere = { detail: 'context w2 is another cluster than the fleet file recorded: …', hint: 'point KUBECONFIG at …' };

describe('what a context watches', () => {
  it('the fleet roles watch more than pods and events', () => {
    for (const c of ['kind-cp', 'nova', 'w1']) expect(watchersFor(c, fleet).length, c).toBe(3);
    expect(watchersFor('other', fleet)).toHaveLength(2);
  });

  it('a context that is not the cluster the fleet file recorded plays no role; none does when the hosting one is not', () => {
    const oneAway = { ...fleet, problems: { w2: elsewhere } };
    expect(watchersFor('w2', oneAway)).toHaveLength(2);
    expect(watchersFor('w1', oneAway)).toHaveLength(3);
    const hostingAway = { ...fleet, problems: { 'kind-cp': { ...elsewhere, detail: 'context kind-cp is …' } } };
    for (const c of ['kind-cp', 'nova', 'w1', 'w2']) expect(watchersFor(c, hostingAway), c).toHaveLength(2);
  });

  it('says the problems in one line', () => {
    expect(fleetProblemLine(fleet)).toBeUndefined();
    expect(fleetProblemLine({ ...fleet, problems: { w2: elsewhere, w1: elsewhere } })).toBe(
      `${elsewhere.detail} (and 1 more context); ${elsewhere.hint}`,
    );
  });
});
