import { describe, expect, it } from 'vitest';
import { contextRoles, roleDescription, roleLabel } from '../../../../src/screens/status/fleet/fleet-roles.js';
import { NOVA_FLEET } from '../../../helpers/screens/fleets.js';

describe('fleet roles', () => {
  it('names each context’s role in the fleet', () => {
    expect(contextRoles(NOVA_FLEET, 'kind-cp')).toEqual(['hosting']);
    expect(roleLabel(contextRoles(NOVA_FLEET, 'nova'))).toBe('control');
    expect(roleLabel(contextRoles(NOVA_FLEET, 'kind-workload-1'))).toBe('workload');
    expect(roleLabel(contextRoles(NOVA_FLEET, 'elsewhere'))).toBe('-');
    expect(roleLabel(contextRoles({ ...NOVA_FLEET, hostingContext: 'kind-workload-1' }, 'kind-workload-1'))).toBe('hosting+workload');
    expect(contextRoles(undefined, 'kind-cp')).toEqual([]);
    // Not the clusters the fleet file recorded: no role is claimed for them.
    const problem = { detail: '…', hint: '…' };
    expect(contextRoles({ ...NOVA_FLEET, problems: { 'kind-workload-1': problem } }, 'kind-workload-1')).toEqual([]);
    expect(contextRoles({ ...NOVA_FLEET, problems: { 'kind-cp': problem } }, 'kind-workload-1')).toEqual([]);
    expect(roleDescription({ ...NOVA_FLEET, workloads: [{ context: 'prod', clusterName: 'eu-1' }] }, 'prod')).toBe(
      'workload (cluster eu-1), namespace elotl',
    );
  });
});
