import { describe, expect, it } from 'vitest';
import { defaultContainer, prefersPrevious, summarizeLogPod } from '../../src/kube/log-pods.js';

const spec = { containers: [{ name: 'app' }, { name: 'proxy' }] };

describe('log pods', () => {
  it('picks the default-container annotation, else the first container', () => {
    expect(defaultContainer({ spec })).toBe('app');
    expect(defaultContainer({ spec, metadata: { annotations: { 'kubectl.kubernetes.io/default-container': 'proxy' } } })).toBe('proxy');
    // An annotation naming no container of the pod is ignored.
    expect(defaultContainer({ spec, metadata: { annotations: { 'kubectl.kubernetes.io/default-container': 'gone' } } })).toBe('app');
  });

  it('prefers the previous instance of a container that restarted and is not running', () => {
    expect(prefersPrevious({ name: 'a', restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } })).toBe(true);
    expect(
      prefersPrevious({ name: 'a', restartCount: 1, state: { waiting: { reason: 'ContainerCreating' } }, lastState: { terminated: {} } }),
    ).toBe(true);
    expect(prefersPrevious({ name: 'a', restartCount: 1, state: { running: {} }, lastState: { terminated: {} } })).toBe(false);
    expect(prefersPrevious({ name: 'a', restartCount: 0, state: { waiting: { reason: 'CrashLoopBackOff' } } })).toBe(false);
  });

  it('summarises containers with restarts, init containers last', () => {
    const pod = summarizeLogPod({
      metadata: { name: 'p' },
      spec: { ...spec, initContainers: [{ name: 'init' }] },
      status: { containerStatuses: [{ name: 'app', restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff' } } }] },
    });
    expect(pod).toEqual({
      name: 'p',
      defaultContainer: 'app',
      containers: [
        { name: 'app', restarts: 5, previousPreferred: true },
        { name: 'proxy', restarts: 0, previousPreferred: false },
        { name: 'init', restarts: 0, previousPreferred: false },
      ],
    });
  });
});
