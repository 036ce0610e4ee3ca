import { describe, expect, it } from 'vitest';
import { defaultContainer, podContainers, prefersPrevious, restartsOf } from '../../../src/kube/pods/log-pods.js';
import type { LogContainerStatus } from '../../../src/kube/pods/workloads.js';
import { logPod } from '../../helpers/objects/log-pod.js';

const two = [{ name: 'app' }, { name: 'proxy' }];

describe('log pods', () => {
  it('picks the default-container annotation, else the first container', () => {
    expect(defaultContainer(logPod('p', two))).toBe('app');
    expect(defaultContainer(logPod('p', two, { defaultContainer: 'proxy' }))).toBe('proxy');
    // An annotation naming no container of the pod is ignored.
    expect(defaultContainer(logPod('p', two, { defaultContainer: 'gone' }))).toBe('app');
  });

  it('prefers the previous instance of a container that restarted and is not running', () => {
    const s = (over: Partial<LogContainerStatus>): LogContainerStatus => ({ restarts: 1, containerID: 'c://1', state: 'running', ...over });
    expect(prefersPrevious(s({ restarts: 3, state: 'waiting', reason: 'CrashLoopBackOff' }))).toBe(true);
    expect(prefersPrevious(s({ state: 'waiting', reason: 'ContainerCreating' }))).toBe(true);
    expect(prefersPrevious(s({ state: 'terminated' }))).toBe(true);
    expect(prefersPrevious(s({ state: 'running' }))).toBe(false);
    expect(prefersPrevious(s({ restarts: 0, state: 'waiting', reason: 'CrashLoopBackOff' }))).toBe(false);
    expect(prefersPrevious(undefined)).toBe(false);
  });

  it('lists app containers, then init containers, with their restarts', () => {
    const pod = logPod('p', [{ name: 'app', restarts: 5 }, { name: 'proxy' }], { init: ['init'] });
    expect(podContainers(pod)).toEqual(['app', 'proxy', 'init']);
    expect([restartsOf(pod, 'app'), restartsOf(pod, 'proxy'), restartsOf(pod, 'gone')]).toEqual([5, 0, 0]);
  });
});
