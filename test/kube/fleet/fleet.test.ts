import { describe, expect, it } from 'vitest';
import { fleetProblemLine, watchersFor } from '../../../src/kube/fleet/fleet.js';
import { NOVA_FLEET } from '../../helpers/screens/fleets.js';

const fleet = NOVA_FLEET;
const elsewhere = { detail: 'context kind-workload-2 is another cluster than the fleet file recorded: …', hint: 'point KUBECONFIG at …' };

describe('what a context watches', () => {
  it('the fleet roles watch more than pods and events', () => {
    for (const c of ['kind-cp', 'nova', 'kind-workload-1']) expect(watchersFor(c, fleet).length, c).toBe(3);
    expect(watchersFor('other', fleet)).toHaveLength(2);
  });

  it('a context that is not the cluster the fleet file recorded plays no role; none does when the hosting one is not', () => {
    const oneAway = { ...fleet, problems: { 'kind-workload-2': elsewhere } };
    expect(watchersFor('kind-workload-2', oneAway)).toHaveLength(2);
    expect(watchersFor('kind-workload-1', oneAway)).toHaveLength(3);
    const hostingAway = { ...fleet, problems: { 'kind-cp': { ...elsewhere, detail: 'context kind-cp is …' } } };
    for (const c of ['kind-cp', 'nova', 'kind-workload-1', 'kind-workload-2']) expect(watchersFor(c, hostingAway), c).toHaveLength(2);
  });

  it('says the problems in one line', () => {
    expect(fleetProblemLine(fleet)).toBeUndefined();
    expect(fleetProblemLine({ ...fleet, problems: { 'kind-workload-2': elsewhere, 'kind-workload-1': elsewhere } })).toBe(
      `${elsewhere.detail} (and 1 more context); ${elsewhere.hint}`,
    );
  });
});
