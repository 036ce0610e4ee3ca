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
