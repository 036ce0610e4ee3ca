import { describe, expect, it } from 'vitest';
import { novaClustersTable } from '../../src/report/fleet-checklist.js';
import { NO_CLUSTERS_HINT, NO_POLICIES_HINT } from '../../src/report/fleet/hints.js';
import { fleetHealthy, statusText } from '../../src/report/status.js';
import { NOW, healthy, item, text, withControlPlane } from './fleet-checklist-fixture.js';

describe('fleet checklist', () => {
  it('reads like `kubectl nova status` for a healthy fleet, then checks more', () => {
    // Given a fleet where everything is up, with no SchedulePolicy yet
    const state = healthy();

    // When the checklist is printed
    const lines = text(state).split('\n');

    // Then the seed's lines come word for word, in its order
    expect(lines).toEqual([
      'Checking status of Nova Control Plane Components',
      '* API Server status... Running √',
      '* Kube-controller-manager status... Running √',
      '* ETCD status... Running √',
      '* Nova scheduler status... Running √',
      'Nova Control Plane is healthy √',
      '* API Server Service... 172.18.255.200 √',
      '* Control plane certificates... valid for 3649 days √',
      'Checking presence of Nova Custom Resource Definitions',
      '* Cluster CRD presence... installed √',
      '* Cluster kind-workload-1 connected and ready √',
      '* Cluster kind-workload-2 connected and ready √',
      '* SchedulePolicy CRD presence... installed √',
      '* 0 SchedulePolicies defined ‼',
      `  ${NO_POLICIES_HINT}`,
      '* ScheduleGroup CRD presence... installed √',
      'All Nova Custom Resource Definitions installed √',
      'Checking workload clusters',
      '* Agent in kind-workload-1... 1/1 ready, registered, Ready √',
      '* Agent in kind-workload-2... 1/1 ready, registered, Ready √',
      '* Kubernetes versions... consistent (v1.20) √',
    ]);
    // And a warning does not make the fleet unhealthy
    expect(fleetHealthy(state, NOW)).toBe(true);
  });

  it('counts SchedulePolicies once there are some', () => {
    const state = withControlPlane(healthy(), (cp) => ({ ...cp, schedulePolicies: 2 }));
    expect(text(state)).toContain('* 2 SchedulePolicies defined √');
    expect(text(withControlPlane(healthy(), (cp) => ({ ...cp, schedulePolicies: 1 })))).toContain('* 1 SchedulePolicy defined √');
  });

  it('without Clusters: the seed line and its hint, verbatim', () => {
    // Given a control plane that no agent has registered with yet
    const state = withControlPlane(healthy(), (cp) => ({ ...cp, clusters: [] }));

    // When printed
    const lines = text(state).split('\n');

    // Then it reads as in the seed, right after the Cluster CRD line
    const at = lines.indexOf('* Cluster CRD presence... installed √');
    expect(lines.slice(at, at + 4)).toEqual([
      '* Cluster CRD presence... installed √',
      '0 workload clusters connected ‼',
      '  please connect at least one Cluster, otherwise Nova does not have a target cluster to run your workloads. Connecting clusters can be done by running novactl install agent <cluster-name> in correct Kube context.',
      '* SchedulePolicy CRD presence... installed √',
    ]);
    expect(NO_CLUSTERS_HINT).toBe(lines[at + 2]!.trim());
    // And each agent says it is not registered
    expect(item(state, 'agent/kind-workload-1')).toMatchObject({ state: 'fail', detail: '1/1 ready, not registered' });
    expect(item(state, 'agent/kind-workload-1').hint).toContain('kubectl logs --context=kind-workload-1 -n elotl deployment/nova-agent');
    expect(fleetHealthy(state, NOW)).toBe(false);
  });
});

describe('Cluster table and text report', () => {
  it('has the columns of `kubectl get clusters`, then the room and the workloads placed', () => {
    expect(novaClustersTable(healthy())).toEqual([
      ['NAME', 'K8S-VERSION', 'K8S-CLUSTER', 'REGION', 'ZONE', 'READY', 'IDLE', 'STANDBY', 'CPU-FREE', 'MEM-FREE', 'WORKLOADS'],
      ['kind-workload-1', '1.20', 'workload-1', '', '', 'True', 'True', 'False', '', '', ''],
      ['kind-workload-2', '1.20', 'workload-2', '', '', 'True', 'True', 'False', '', '', ''],
    ]);
  });

  it('prints the fleet checklist, the table, then the contexts', () => {
    const out = statusText(healthy(), { ascii: false }, NOW).split('\n');
    expect(out[0]).toBe('Checking status of Nova Control Plane Components');
    const header = out.findIndex((l) => l.startsWith('NAME'));
    expect(out[header]).toBe(
      'NAME              K8S-VERSION   K8S-CLUSTER   REGION   ZONE   READY   IDLE   STANDBY   CPU-FREE   MEM-FREE   WORKLOADS',
    );
    expect(out[header + 1]).toBe('kind-workload-1   1.20          workload-1                    True    True   False');
    expect(out[header - 1]).toBe('');
    expect(out.indexOf('Checking contexts')).toBeGreaterThan(header);
  });
});
