import { describe, expect, it } from 'vitest';
import { summarizeCluster } from '../../../src/kube/fleet/control-plane.js';

describe('Cluster summaries', () => {
  it('Cluster objects: the columns of kubectl get clusters', () => {
    expect(
      summarizeCluster({
        metadata: { name: 'kind-workload-1' },
        spec: { name: 'kind-workload-1', kubernetesversion: '1.25', kubernetescluster: 'workload-1', region: '', provider: 'kind' },
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'Idle', status: 'True' },
            { type: 'Standby', status: 'False' },
          ],
        },
      }),
    ).toEqual({ name: 'kind-workload-1', k8sVersion: '1.25', k8sCluster: 'workload-1', ready: 'True', idle: 'True', standby: 'False' });
    expect(summarizeCluster({ metadata: { name: 'fresh' } })).toEqual({ name: 'fresh' });
  });
});

describe("A Cluster's room", () => {
  it('sums its nodes: CPU in millicores and memory in bytes, available of allocatable', () => {
    const c = summarizeCluster({
      metadata: { name: 'w1' },
      status: {
        capacityResources: { n1: { cpu: '4', memory: '8Gi' }, n2: { cpu: '3500m', memory: '4Gi' } },
        availableResources: { n1: { cpu: '1500m', memory: '6Gi' }, n2: { cpu: '0', memory: '1Gi' } },
      },
    });
    expect(c.cpu).toEqual({ available: 1500, allocatable: 7500 });
    expect(c.memory).toEqual({ available: 7 * 2 ** 30, allocatable: 12 * 2 ** 30 });
  });

  it('is absent when the agent reports no capacity; a node without an available entry has none left', () => {
    expect(summarizeCluster({ metadata: { name: 'w1' }, status: {} }).cpu).toBeUndefined();
    const c = summarizeCluster({ metadata: { name: 'w1' }, status: { capacityResources: { n1: { cpu: 2, memory: '1Gi' } } } });
    expect(c.cpu).toEqual({ available: 0, allocatable: 2000 });
  });
});
