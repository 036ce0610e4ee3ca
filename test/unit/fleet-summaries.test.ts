import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { summarizeComponentPod } from '../../src/kube/component-pod.js';
import { summarizeCluster } from '../../src/kube/control-plane.js';
import { summarizeDeployment, summarizeService, summarizeStatefulSet } from '../../src/kube/fleet-namespace.js';

const base = (status: V1Pod['status'], extra: Partial<V1Pod> = {}): V1Pod => ({
  metadata: { name: 'etcd-0', labels: { app: 'etcd' } },
  spec: { containers: [{ name: 'etcd' }, { name: 'sidecar' }], nodeName: 'node-1' },
  status,
  ...extra,
});

describe('component pod summaries (kubectl STATUS wording)', () => {
  it('Running and Ready: no reason', () => {
    expect(summarizeComponentPod(base({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }))).toEqual({
      name: 'etcd-0',
      labels: { app: 'etcd' },
      phase: 'Running',
      ready: true,
      node: 'node-1',
    });
  });

  it('Pending and unschedulable: the scheduler message', () => {
    const pod = base(
      {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/6 nodes are available: 6 pod has unbound immediate PersistentVolumeClaims.' }],
      },
      { spec: { containers: [{ name: 'etcd' }] } },
    );
    expect(summarizeComponentPod(pod)).toMatchObject({
      phase: 'Pending',
      ready: false,
      reason: 'Unschedulable: 0/6 nodes are available: 6 pod has unbound immediate PersistentVolumeClaims.',
    });
  });

  it('waiting containers: CrashLoopBackOff, ImagePullBackOff, init containers', () => {
    const crash = base({
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: [
        { name: 'etcd', ready: false, restartCount: 4, image: 'x', imageID: '', state: { waiting: { reason: 'CrashLoopBackOff' } } },
        { name: 'sidecar', ready: true, restartCount: 0, image: 'x', imageID: '', state: { running: {} } },
      ],
    });
    expect(summarizeComponentPod(crash).reason).toBe('CrashLoopBackOff');
    const pull = base({
      phase: 'Pending',
      containerStatuses: [{ name: 'etcd', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: { reason: 'ImagePullBackOff' } } }],
    });
    expect(summarizeComponentPod(pull).reason).toBe('ImagePullBackOff');
    const init = base({
      phase: 'Pending',
      initContainerStatuses: [{ name: 'init', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: { reason: 'ErrImagePull' } } }],
    });
    expect(summarizeComponentPod(init).reason).toBe('Init:ErrImagePull');
  });

  it('Running, not Ready: how many containers are', () => {
    const pod = base({
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'False' }],
      containerStatuses: [
        { name: 'etcd', ready: true, restartCount: 0, image: 'x', imageID: '', state: { running: {} } },
        { name: 'sidecar', ready: false, restartCount: 0, image: 'x', imageID: '', state: { running: {} } },
      ],
    });
    expect(summarizeComponentPod(pod)).toMatchObject({ ready: false, reason: 'NotReady (1/2 ready)' });
  });

  it('Terminating and Evicted', () => {
    const going = base({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }, { metadata: { name: 'x', deletionTimestamp: new Date() } });
    expect(summarizeComponentPod(going)).toMatchObject({ ready: false, reason: 'Terminating' });
    expect(summarizeComponentPod(base({ phase: 'Failed', reason: 'Evicted' })).reason).toBe('Evicted');
  });
});

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
      summarizeStatefulSet({ metadata: { name: 'etcd' }, spec: { replicas: 3, selector: {}, serviceName: 'etcd', template: { metadata: { labels: { app: 'etcd' } } } }, status: { replicas: 0 } }),
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
