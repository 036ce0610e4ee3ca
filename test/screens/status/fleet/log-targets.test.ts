import { describe, expect, it } from 'vitest';
import { clusterLogTarget, fleetItemLogTarget } from '../../../../src/screens/status/fleet/log-targets.js';
import { novaFleet } from '../../../helpers/screens/fleets.js';

describe('the pods behind a row of the fleet checklist', () => {
  it('a control-plane component: its pods in the hosting context, by the label the checklist knows it by', () => {
    const state = novaFleet().getState();
    expect(fleetItemLogTarget('nova/etcd', state)).toMatchObject({ context: 'kind-cp', namespace: 'elotl', selector: 'app=etcd' });
    expect(fleetItemLogTarget('nova/nova-scheduler', state)).toMatchObject({ context: 'kind-cp', selector: 'component=nova-scheduler' });
  });

  it("the API server Service: the API server's pods", () => {
    const t = fleetItemLogTarget('nova/apiserver-service', novaFleet().getState());
    expect(t).toMatchObject({ context: 'kind-cp', namespace: 'elotl', selector: 'component=apiserver' });
    expect(t?.title).toContain('API Server Service');
  });

  it("an agent row and a registered cluster's row: the agent Deployment's pods in the workload context", () => {
    const state = novaFleet().getState();
    const agent = fleetItemLogTarget('agent/kind-workload-2', state);
    expect(agent).toMatchObject({ context: 'kind-workload-2', namespace: 'elotl', selector: 'app=nova-agent' });
    expect(agent?.events).toBeUndefined();
    expect(clusterLogTarget('kind-workload-2', state)).toMatchObject({ context: 'kind-workload-2', selector: 'app=nova-agent' });
  });

  it('rows that stand for no pods have none', () => {
    const state = novaFleet().getState();
    expect(fleetItemLogTarget('nova/title', state)).toBeUndefined();
    expect(fleetItemLogTarget('crd/all', state)).toBeUndefined();
    expect(fleetItemLogTarget('nova/certificates', state)).toBeUndefined();
    expect(clusterLogTarget('not-in-the-fleet', state)).toBeUndefined();
  });
});
