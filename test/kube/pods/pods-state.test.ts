import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podState, problemSeverity, slimPod } from '../../../src/kube/pods/pods.js';
import { cond, created, cs, notReadyConds, pod, reasonOf, running } from './pod-fixture.js';

describe('podState: the reason, worded like kubectl', () => {
  it('Running and Ready, and Succeeded, are no problem', () => {
    expect(podState(pod())).toEqual({ phase: 'Running' });
    expect(
      podState(
        pod({ phase: 'Succeeded', conditions: [], containerStatuses: [cs('app', { terminated: { exitCode: 0, reason: 'Completed' } })] }),
      ),
    ).toEqual({
      phase: 'Succeeded',
    });
  });

  it('Pending and unschedulable: the scheduler message', () => {
    const p = pod({
      phase: 'Pending',
      node: '',
      conditions: [cond('PodScheduled', 'False', 'Unschedulable', "0/6 nodes are available: 6 node(s) didn't match node selector.")],
      containerStatuses: [],
    });
    const s = podState(p);
    expect(s.phase).toBe('Pending');
    expect(s.problem).toEqual({
      namespace: 'default',
      name: 'web-1',
      phase: 'Pending',
      reason: "Unschedulable: 0/6 nodes are available: 6 node(s) didn't match node selector.",
      restarts: 0,
      createdAt: created.getTime(),
    });
  });

  it('Pending without any status yet is "Pending"; SchedulingGated says so', () => {
    expect(reasonOf({ metadata: { name: 'x', namespace: 'n', uid: 'u' }, spec: { containers: [{ name: 'a' }] } })).toBe('Pending');
    expect(reasonOf(pod({ phase: 'Pending', conditions: [cond('PodScheduled', 'False', 'SchedulingGated')], containerStatuses: [] }))).toBe(
      'SchedulingGated',
    );
  });

  it('container waiting reasons, with restart counts', () => {
    const crash = pod({
      conditions: notReadyConds,
      containerStatuses: [cs('app', { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } }, false, 7)],
    });
    expect(podState(crash).problem).toMatchObject({ reason: 'CrashLoopBackOff', restarts: 7, phase: 'Running', node: 'node-1' });
    for (const reason of ['ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError', 'ContainerCreating']) {
      const p = pod({
        phase: 'Pending',
        conditions: [cond('PodScheduled', 'True'), cond('Ready', 'False')],
        containerStatuses: [cs('app', { waiting: { reason } })],
      });
      expect(reasonOf(p)).toBe(reason);
    }
  });

  it('the first container decides when several wait; restarts add up', () => {
    const p = pod({
      containers: ['a', 'b'],
      conditions: notReadyConds,
      containerStatuses: [
        cs('a', { waiting: { reason: 'ImagePullBackOff' } }, false, 1),
        cs('b', { waiting: { reason: 'CrashLoopBackOff' } }, false, 2),
      ],
    });
    expect(podState(p).problem).toMatchObject({ reason: 'ImagePullBackOff', restarts: 3 });
  });

  it('init containers: failing, waiting, progress', () => {
    const init = [{ name: 'setup' }];
    const initConds = [cond('Initialized', 'False'), cond('Ready', 'False'), cond('PodScheduled', 'True')];
    const waitingApp = [cs('app', { waiting: { reason: 'PodInitializing' } })];
    expect(
      podState(
        pod({
          phase: 'Pending',
          initContainers: init,
          conditions: initConds,
          containerStatuses: waitingApp,
          initContainerStatuses: [cs('setup', { waiting: { reason: 'CrashLoopBackOff' } }, false, 4)],
        }),
      ).problem,
    ).toMatchObject({ reason: 'Init:CrashLoopBackOff', restarts: 4 });
    expect(
      reasonOf(
        pod({
          phase: 'Pending',
          initContainers: init,
          conditions: initConds,
          containerStatuses: waitingApp,
          initContainerStatuses: [cs('setup', { running: {} })],
        }),
      ),
    ).toBe('Init:0/1');
    expect(
      reasonOf(
        pod({
          phase: 'Pending',
          initContainers: init,
          conditions: initConds,
          containerStatuses: waitingApp,
          initContainerStatuses: [cs('setup', { terminated: { exitCode: 1, reason: 'Error' } })],
        }),
      ),
    ).toBe('Init:Error');
    expect(
      reasonOf(
        pod({
          phase: 'Pending',
          initContainers: init,
          conditions: initConds,
          containerStatuses: waitingApp,
          initContainerStatuses: [cs('setup', { terminated: { exitCode: 2 } })],
        }),
      ),
    ).toBe('Init:ExitCode:2');
    const two = [{ name: 'a' }, { name: 'b' }];
    expect(
      reasonOf(
        pod({
          phase: 'Pending',
          initContainers: two,
          conditions: initConds,
          containerStatuses: waitingApp,
          initContainerStatuses: [
            cs('a', { terminated: { exitCode: 0, reason: 'Completed' } }),
            cs('b', { waiting: { reason: 'PodInitializing' } }),
          ],
        }),
      ),
    ).toBe('Init:1/2');
  });

  it('a started sidecar (restartable init container) counts towards readiness, not as initialising', () => {
    const p = pod({
      initContainers: [{ name: 'proxy', restartPolicy: 'Always' }],
      conditions: notReadyConds,
      initContainerStatuses: [cs('proxy', { running: {} }, true, 0, true)],
      containerStatuses: [cs('app', { running: {} }, false, 0, true)],
    });
    expect(reasonOf(p)).toBe('NotReady (1/2 ready)');
  });

  it('Failed pods: terminated reason (Error, OOMKilled, ExitCode), else the pod reason (Evicted)', () => {
    const failed = (state: V1ContainerStatus['state'], reason?: string) =>
      pod({ phase: 'Failed', conditions: notReadyConds, containerStatuses: [cs('app', state)], ...(reason ? { reason } : {}) });
    expect(podState(failed({ terminated: { exitCode: 1, reason: 'Error' } })).problem).toMatchObject({ phase: 'Failed', reason: 'Error' });
    expect(reasonOf(failed({ terminated: { exitCode: 137, reason: 'OOMKilled' } }))).toBe('OOMKilled');
    expect(reasonOf(failed({ terminated: { exitCode: 3 } }))).toBe('ExitCode:3');
    expect(reasonOf(failed({ terminated: { exitCode: 1, signal: 9 } }))).toBe('Signal:9');
    expect(reasonOf(failed({ terminated: { exitCode: 137, reason: 'Error' } }, 'Evicted'))).toBe('Evicted');
    expect(reasonOf(pod({ phase: 'Failed', reason: 'Evicted', conditions: [], containerStatuses: [] }))).toBe('Evicted');
    expect(reasonOf(pod({ phase: 'Failed', conditions: [], containerStatuses: [] }))).toBe('Failed');
  });

  it('Running but not Ready: how many containers are ready', () => {
    const p = pod({
      containers: ['a', 'b'],
      conditions: notReadyConds,
      containerStatuses: [running('a'), cs('b', { running: {} }, false, 0, true)],
    });
    expect(podState(p).problem).toMatchObject({ phase: 'Running', reason: 'NotReady (1/2 ready)' });
    expect(reasonOf(pod({ conditions: notReadyConds, containerStatuses: [] }))).toBe('NotReady (0/1 ready)');
  });

  it('a pod being deleted is Terminating; NodeLost makes it Unknown; a Failed one keeps its reason', () => {
    expect(podState(pod({ deleting: true })).problem).toMatchObject({ phase: 'Running', reason: 'Terminating' });
    expect(
      reasonOf(pod({ deleting: true, phase: 'Pending', containerStatuses: [cs('app', { waiting: { reason: 'ContainerCreating' } })] })),
    ).toBe('Terminating');
    expect(reasonOf(pod({ deleting: true, reason: 'NodeLost', phase: 'Unknown' }))).toBe('Unknown');
    expect(reasonOf(pod({ deleting: true, phase: 'Failed', reason: 'Evicted', containerStatuses: [] }))).toBe('Evicted');
    expect(podState(pod({ deleting: true, phase: 'Succeeded', containerStatuses: [] }))).toEqual({ phase: 'Succeeded' });
  });

  it('an unknown phase counts as Unknown', () => {
    expect(podState(pod({ phase: 'Weird', conditions: [] })).phase).toBe('Unknown');
  });

  it('takes string timestamps too (watch events are plain JSON)', () => {
    const p = pod({ phase: 'Pending', conditions: [], containerStatuses: [] });
    (p.metadata as { creationTimestamp: unknown }).creationTimestamp = '2024-05-01T10:00:00Z';
    expect(podState(p).problem?.createdAt).toBe(created.getTime());
  });

  it('slimPod keeps exactly what podState needs', () => {
    const cases = [
      pod(),
      pod({ conditions: notReadyConds, containerStatuses: [cs('app', { waiting: { reason: 'CrashLoopBackOff' } }, false, 3)] }),
      pod({ phase: 'Pending', conditions: [cond('PodScheduled', 'False', 'Unschedulable', 'no nodes')], containerStatuses: [] }),
      pod({
        phase: 'Pending',
        initContainers: [{ name: 'a' }, { name: 'b' }],
        conditions: [cond('Initialized', 'False')],
        initContainerStatuses: [cs('a', { terminated: { exitCode: 0, reason: 'Completed' } }), cs('b', { running: {} })],
      }),
      pod({ deleting: true }),
    ];
    for (const p of cases) {
      const full: V1Pod = { ...p, metadata: { ...p.metadata, managedFields: [{ manager: 'x' }], labels: { a: 'b' } } };
      expect(podState(slimPod(full))).toEqual(podState(p));
      expect(slimPod(full).metadata?.managedFields).toBeUndefined();
    }
  });
});

describe('problemSeverity: worst first', () => {
  it('orders failing before waiting before NotReady before Terminating', () => {
    const p = (reason: string, phase: 'Running' | 'Pending' | 'Failed' = 'Running') => ({
      namespace: 'a',
      name: 'b',
      phase,
      reason,
      restarts: 0,
    });
    expect(problemSeverity(p('CrashLoopBackOff'))).toBe(0);
    expect(problemSeverity(p('ImagePullBackOff', 'Pending'))).toBe(0);
    expect(problemSeverity(p('Init:CrashLoopBackOff', 'Pending'))).toBe(0);
    expect(problemSeverity(p('Error', 'Failed'))).toBe(0);
    expect(problemSeverity(p('Unschedulable: 0/3 nodes', 'Pending'))).toBe(1);
    expect(problemSeverity(p('Pending', 'Pending'))).toBe(1);
    expect(problemSeverity(p('ContainerCreating', 'Pending'))).toBe(1);
    expect(problemSeverity(p('Init:0/1', 'Pending'))).toBe(1);
    expect(problemSeverity(p('NotReady (0/1 ready)'))).toBe(2);
    expect(problemSeverity(p('Terminating'))).toBe(3);
  });
});
