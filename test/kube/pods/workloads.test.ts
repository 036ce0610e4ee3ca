import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { summarizeLogPod } from '../../../src/kube/pods/workloads.js';

describe('summarizeLogPod', () => {
  it('keeps containers, init containers, their states and the default container', () => {
    const pod: V1Pod = {
      metadata: { name: 'p', namespace: 'ns', uid: 'u', annotations: { 'kubectl.kubernetes.io/default-container': 'b' } },
      spec: { containers: [{ name: 'a' }, { name: 'b' }], initContainers: [{ name: 'i' }] },
      status: {
        phase: 'Running',
        initContainerStatuses: [
          { name: 'i', restartCount: 0, image: '', imageID: '', ready: true, state: { terminated: { exitCode: 0 } } },
        ],
        containerStatuses: [
          {
            name: 'a',
            restartCount: 3,
            containerID: 'c://a',
            image: '',
            imageID: '',
            ready: false,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
          },
          { name: 'b', restartCount: 0, containerID: 'c://b', image: '', imageID: '', ready: true, state: { running: {} } },
        ],
      },
    };
    const s = summarizeLogPod(pod);
    expect(s.containers).toEqual(['a', 'b']);
    expect(s.initContainers).toEqual(['i']);
    expect(s.defaultContainer).toBe('b');
    expect(s.statuses.a).toEqual({ restarts: 3, containerID: 'c://a', state: 'waiting', reason: 'CrashLoopBackOff' });
    expect(s.statuses.i?.state).toBe('terminated');
    expect(s.finished).toBe(false);
    expect(summarizeLogPod({ ...pod, status: { phase: 'Succeeded' } }).finished).toBe(true);
  });
});
