import { describe, expect, it } from 'vitest';
import type { LogContainerStatus, LogPod } from '../../src/kube/pods/workloads.js';
import { afterEnd, hasLog, instanceOf, isNewInstance } from '../../src/logs/decide.js';

const run1: LogContainerStatus = { restarts: 0, containerID: 'c://1', state: 'running' };
/** The run read (c://1) crashed: waiting to restart, the runtime id still its. */
const crashed: LogContainerStatus = { restarts: 1, containerID: 'c://1', state: 'waiting', reason: 'CrashLoopBackOff' };
const run2: LogContainerStatus = { restarts: 1, containerID: 'c://2', state: 'running' };
const creating: LogContainerStatus = { restarts: 0, containerID: '', state: 'waiting', reason: 'ContainerCreating' };

const pod = (status: LogContainerStatus, finished = false): LogPod => ({
  namespace: 'ns',
  name: 'p',
  uid: 'u',
  labels: {},
  containers: ['app'],
  initContainers: [],
  statuses: { app: status },
  deleting: false,
  finished,
});

describe('hasLog', () => {
  it('a container being created has none; running, ended or crash-looping ones have', () => {
    expect(hasLog(creating)).toBe(false);
    expect(hasLog(undefined)).toBe(false);
    expect(hasLog(run1)).toBe(true);
    expect(hasLog(crashed)).toBe(true);
    expect(hasLog({ ...run1, state: 'terminated' })).toBe(true);
  });
});

describe('isNewInstance', () => {
  it('a restarted container running again is new; waiting to restart after the run read is not', () => {
    const read = instanceOf(run1);
    expect(isNewInstance(run1, read)).toBe(false);
    expect(isNewInstance(crashed, read)).toBe(false);
    expect(isNewInstance(run2, read)).toBe(true);
    expect(isNewInstance({ ...run2, state: 'terminated' }, read)).toBe(true);
  });

  it('a run that started and crashed between two updates is new: its log is read', () => {
    const missed: LogContainerStatus = { restarts: 2, containerID: 'c://2', state: 'waiting', reason: 'CrashLoopBackOff' };
    expect(isNewInstance(missed, instanceOf(run1))).toBe(true);
  });

  it('without runtime ids: only a running or ended container counts as a new run', () => {
    const noId = { restarts: 0, containerID: '', state: 'running' } as const;
    const read = instanceOf(noId);
    expect(isNewInstance({ ...noId, restarts: 1, state: 'waiting' }, read)).toBe(false);
    expect(isNewInstance({ ...noId, restarts: 1 }, read)).toBe(true);
  });
});

describe('afterEnd', () => {
  const read = instanceOf(run1);

  it('the container restarted: the new instance from its start', () => {
    expect(afterEnd(pod(run2), 'app', read)).toBe('from-start');
  });

  it('the same instance still runs: resume after the last line', () => {
    expect(afterEnd(pod(run1), 'app', read)).toBe('resume');
  });

  it('it crashed and waits to restart: wait for the next instance', () => {
    expect(afterEnd(pod(crashed), 'app', read)).toBe('wait');
  });

  it('the pod finished or is gone: the end', () => {
    expect(afterEnd(pod({ ...run1, state: 'terminated' }, true), 'app', read)).toBe('gone');
    expect(afterEnd(undefined, 'app', read)).toBe('gone');
    expect(afterEnd(pod(run1), 'other', read)).toBe('gone');
  });
});
