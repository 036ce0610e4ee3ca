import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { summarizeComponentPod } from '../../../src/kube/fleet/component-pod.js';

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
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: '0/6 nodes are available: 6 pod has unbound immediate PersistentVolumeClaims.',
          },
        ],
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
      containerStatuses: [
        { name: 'etcd', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: { reason: 'ImagePullBackOff' } } },
      ],
    });
    expect(summarizeComponentPod(pull).reason).toBe('ImagePullBackOff');
    const init = base({
      phase: 'Pending',
      initContainerStatuses: [
        { name: 'init', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: { reason: 'ErrImagePull' } } },
      ],
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
    const going = base(
      { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      { metadata: { name: 'x', deletionTimestamp: new Date() } },
    );
    expect(summarizeComponentPod(going)).toMatchObject({ ready: false, reason: 'Terminating' });
    expect(summarizeComponentPod(base({ phase: 'Failed', reason: 'Evicted' })).reason).toBe('Evicted');
  });
});
