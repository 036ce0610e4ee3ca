import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import type { LogContainerStatus, LogPod } from '../../src/kube/pods/workloads.js';
import { chooseContainers, missingContainer } from '../../src/logs/containers.js';

const running: LogContainerStatus = { restarts: 0, containerID: 'containerd://1', state: 'running' };

function pod(containers: string[], more: Partial<LogPod> = {}): LogPod {
  return {
    namespace: 'ns',
    name: 'p',
    uid: 'u',
    labels: {},
    containers,
    initContainers: [],
    statuses: Object.fromEntries(containers.map((c) => [c, running])),
    deleting: false,
    finished: false,
    ...more,
  };
}

describe('chooseContainers', () => {
  it('one container: that one', () => {
    expect(chooseContainers(pod(['app']), { onePod: true })).toEqual(['app']);
  });

  it('several: the default-container annotation when it names one of them', () => {
    expect(chooseContainers(pod(['a', 'b'], { defaultContainer: 'b' }), { onePod: true })).toEqual(['b']);
  });

  it('several for one named pod without -c: kubectl’s error naming them, one line', () => {
    const p = pod(['a', 'b'], { defaultContainer: 'gone' });
    expect(() => chooseContainers(p, { onePod: true })).toThrow(UserError);
    expect(() => chooseContainers(p, { onePod: true })).toThrow(/^a container name must be specified for pod p, choose one of: \[a b\]/);
  });

  it('several for a set of pods: every container, as stern reads them', () => {
    expect(chooseContainers(pod(['a', 'b']), { onePod: false })).toEqual(['a', 'b']);
  });

  it('-c: that container; one the named pod lacks is an error naming those it has', () => {
    const p = pod(['a', 'b'], { initContainers: ['init'] });
    expect(chooseContainers(p, { container: 'init', onePod: true })).toEqual(['init']);
    expect(() => chooseContainers(p, { container: 'x', onePod: true })).toThrow('container x is not valid for pod p; it has: [init a b]');
    expect(chooseContainers(p, { container: 'x', onePod: false })).toEqual([]);
  });

  it('--all-containers: the init containers that ran, then the containers', () => {
    const p = pod(['a', 'b'], {
      initContainers: ['done', 'never'],
      statuses: {
        done: { restarts: 0, containerID: 'c://d', state: 'terminated' },
        never: { restarts: 0, containerID: '', state: 'waiting', reason: 'PodInitializing' },
        a: running,
        b: running,
      },
    });
    expect(chooseContainers(p, { allContainers: true, onePod: true })).toEqual(['done', 'a', 'b']);
  });
});

describe('missingContainer', () => {
  it('names the containers of all the pods, once each', () => {
    expect(missingContainer('x', [pod(['a']), pod(['a', 'b'])])).toBe('container x is not valid for the 2 pods; it has: [a b]');
  });
});
