import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { faultOf, podStatus, reported } from '../../../src/sandbox/sim/pod-status.js';

const pod = (spec: V1Pod['spec']): V1Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'u1' }, spec });
const settle = (p: V1Pod): V1Pod => ({ ...p, status: podStatus(p, '127.0.0.2', '10.244.0.5') });

describe('what the simulated kubelet reports for an image it cannot pull', () => {
  it('a later container’s image: that container waits on it, the pod stays Pending, and it is reported so (nothing left to do)', () => {
    const p = settle(
      pod({
        containers: [
          { name: 'web', image: 'nginx' },
          { name: 'side', image: 'ngnix:1' },
        ],
      }),
    );
    expect(faultOf(p)).toBe('ImagePullBackOff');
    expect(p.status?.phase).toBe('Pending');
    expect(p.status?.containerStatuses?.map((c) => [c.name, c.state?.waiting?.reason ?? 'running'])).toEqual([
      ['web', 'running'],
      ['side', 'ImagePullBackOff'],
    ]);
    expect(reported(p)).toBe(faultOf(p));
  });

  it('an init container’s image: it waits on the pull and the containers wait for it (Init:ImagePullBackOff)', () => {
    const p = settle(
      pod({
        initContainers: [
          { name: 'setup', image: 'busybox' },
          { name: 'migrate', image: 'myorg/migrate:1' },
        ],
        containers: [{ name: 'web', image: 'nginx' }],
      }),
    );
    expect(p.status?.initContainerStatuses?.map((c) => c.state?.terminated?.reason ?? c.state?.waiting?.reason)).toEqual([
      'Completed',
      'ImagePullBackOff',
    ]);
    expect(p.status?.initContainerStatuses?.[1]?.state?.waiting?.message).toBe('Back-off pulling image "myorg/migrate:1"');
    expect(p.status?.containerStatuses?.map((c) => c.state?.waiting?.reason)).toEqual(['PodInitializing']);
    expect(reported(p)).toBe('ImagePullBackOff');
  });

  it('every image pullable: Running and Ready', () => {
    const p = settle(pod({ containers: [{ name: 'web', image: 'registry.example/web:2' }] }));
    expect(faultOf(p)).toBeUndefined();
    expect(reported(p)).toBe('Running');
  });
});
