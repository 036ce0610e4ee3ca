import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/errors.js';
import { rotatePlanFrom, rotatePlanLines, selectCas } from '../../../../src/day2/renew/rotate-ca/plan.js';

const input = {
  namespace: 'elotl',
  pods: { etcd: ['etcd-0'], apiserver: ['apiserver-a', 'apiserver-b'], 'controller-manager': ['cm-a'], 'nova-scheduler': ['s-a'] },
  kubeconfigFiles: ['/k/nova.kubeconfig'],
  controlPlaneContext: 'nova',
  workloads: ['kind-workload-1'],
};

describe('selectCas', () => {
  it('all (or nothing) is every CA; a CA named is that one', () => {
    expect(selectCas(['all'])).toEqual(['clusterCA', 'etcdCA', 'frontProxyCA']);
    expect(selectCas([])).toEqual(['clusterCA', 'etcdCA', 'frontProxyCA']);
    expect(selectCas(['front-proxy-ca', 'etcd-ca'])).toEqual(['etcdCA', 'frontProxyCA']);
  });

  it('refuses a leaf or unknown name with a usage error naming the CAs', () => {
    expect(() => selectCas(['admin'])).toThrow(UsageError);
    expect(() => selectCas(['admin'])).toThrow(/rotatable: all, cluster-ca, etcd-ca, front-proxy-ca/);
  });
});

describe('rotatePlanFrom', () => {
  it('plans bundle, leaves, drop; the cluster CA restarts its clients and reaches the kubeconfigs and agents', () => {
    const plan = rotatePlanFrom({ ...input, cas: ['clusterCA'] });
    expect(plan.phases.map((p) => p.phase)).toEqual(['bundle', 'leaves', 'drop']);
    expect(plan.cas).toEqual([{ name: 'cluster-ca', secret: 'nova-ca', nextSecret: 'nova-ca-next' }]);
    const [bundle, leaves, drop] = plan.phases;
    expect(bundle?.secrets).toContain('nova-ca-next');
    expect(bundle?.secrets).not.toContain('nova-ca');
    expect(leaves?.secrets).toContain('nova-ca');
    expect(leaves?.secrets).toContain('nova-agent-bootstrap');
    expect(drop?.secrets).toContain('nova-ca-next (deleted)');
    expect(bundle?.restarts.map((r) => r.component)).toEqual(['apiserver', 'controller-manager', 'nova-scheduler']);
    expect(bundle?.restarts[0]?.pods).toEqual(['apiserver-a', 'apiserver-b']);
    expect(drop?.agents).toEqual(['kind-workload-1']);
    expect(drop?.initKubeconfigs).toEqual(['nova', 'kind-workload-1']);
  });

  it('the etcd CA alone restarts etcd and the API servers and touches no kubeconfig', () => {
    const plan = rotatePlanFrom({ ...input, cas: ['etcdCA'] });
    expect(plan.phases[0]?.restarts.map((r) => r.component)).toEqual(['etcd', 'apiserver']);
    expect(plan.phases[0]?.kubeconfigs).toEqual([]);
    expect(plan.phases[0]?.agents).toEqual([]);
  });

  it('a resumed rotation lists only the phases left and says so', () => {
    const resumed = {
      cas: ['clusterCA' as const],
      phase: 'leaves' as const,
      written: true,
      startedAt: 'T',
      stalePods: {},
      staleAgents: {},
    };
    const plan = rotatePlanFrom({ ...input, cas: ['clusterCA'], resumed });
    expect(plan.phases.map((p) => p.phase)).toEqual(['leaves', 'drop']);
    const lines = rotatePlanLines(plan);
    expect(lines[0]).toMatch(/did not finish: this run continues it at phase leaves/);
    expect(lines.join('\n')).not.toMatch(/PRIVATE KEY/);
  });
});
