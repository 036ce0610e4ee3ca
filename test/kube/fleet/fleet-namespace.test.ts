import { describe, expect, it } from 'vitest';
import { summarizeDeployment, summarizeService, summarizeStatefulSet } from '../../../src/kube/fleet/fleet-namespace.js';

describe('workload, service and Cluster summaries', () => {
  it('Deployments and StatefulSets: desired, ready, template labels', () => {
    expect(
      summarizeDeployment({
        metadata: { name: 'apiserver' },
        spec: { replicas: 3, selector: {}, template: { metadata: { labels: { component: 'apiserver' } } } },
        status: { readyReplicas: 2 },
      }),
    ).toEqual({ kind: 'Deployment', name: 'apiserver', desired: 3, ready: 2, labels: { component: 'apiserver' } });
    expect(
      summarizeStatefulSet({
        metadata: { name: 'etcd' },
        spec: { replicas: 3, selector: {}, serviceName: 'etcd', template: { metadata: { labels: { app: 'etcd' } } } },
        status: { replicas: 0 },
      }),
    ).toEqual({ kind: 'StatefulSet', name: 'etcd', desired: 3, ready: 0, labels: { app: 'etcd' } });
  });

  it('Services: LoadBalancer IPs and hostnames', () => {
    expect(
      summarizeService({
        metadata: { name: 'apiserver' },
        spec: { type: 'LoadBalancer' },
        status: { loadBalancer: { ingress: [{ ip: '172.18.255.200' }, { hostname: 'nova.example.com' }] } },
      }),
    ).toEqual({ name: 'apiserver', type: 'LoadBalancer', ingress: ['172.18.255.200', 'nova.example.com'] });
    expect(summarizeService({ metadata: { name: 'apiserver' }, spec: { type: 'LoadBalancer' } }).ingress).toEqual([]);
  });
});
