import { ApiException, type V1ContainerStatus, type V1Pod, type V1PodCondition } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { listPaged } from '../../../src/kube/watch/list.js';
import { PROBLEM_LIMIT, PodTracker, podState, problemSeverity, slimPod, type PodProblem } from '../../../src/kube/pods/pods.js';

const created = new Date('2024-05-01T10:00:00Z');

function cond(type: string, status: string, reason?: string, message?: string): V1PodCondition {
  return { type, status, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

function cs(name: string, state: V1ContainerStatus['state'], ready = false, restartCount = 0, started?: boolean): V1ContainerStatus {
  return { name, image: 'img', imageID: '', ready, restartCount, state, ...(started !== undefined ? { started } : {}) };
}

const running = (name = 'app', restarts = 0) => cs(name, { running: { startedAt: created } }, true, restarts, true);

/** A pod literal: Running and Ready unless told otherwise. */
function pod(
  over: { name?: string; ns?: string; uid?: string; phase?: string; reason?: string; deleting?: boolean; node?: string } & Partial<
    NonNullable<V1Pod['status']>
  > & { containers?: string[]; initContainers?: { name: string; restartPolicy?: string }[] } = {},
): V1Pod {
  const name = over.name ?? 'web-1';
  return {
    metadata: {
      name,
      namespace: over.ns ?? 'default',
      uid: over.uid ?? `uid-${over.ns ?? 'default'}-${name}`,
      creationTimestamp: created,
      ...(over.deleting ? { deletionTimestamp: new Date('2024-05-01T11:00:00Z') } : {}),
    },
    spec: {
      containers: (over.containers ?? ['app']).map((c) => ({ name: c, image: 'img' })),
      ...(over.initContainers ? { initContainers: over.initContainers.map((c) => ({ image: 'img', ...c })) } : {}),
      ...(over.node !== undefined ? { nodeName: over.node } : { nodeName: 'node-1' }),
    },
    status: {
      phase: over.phase ?? 'Running',
      ...(over.reason ? { reason: over.reason } : {}),
      conditions: over.conditions ?? [
        cond('Initialized', 'True'),
        cond('Ready', 'True'),
        cond('ContainersReady', 'True'),
        cond('PodScheduled', 'True'),
      ],
      containerStatuses: over.containerStatuses ?? [running()],
      ...(over.initContainerStatuses ? { initContainerStatuses: over.initContainerStatuses } : {}),
    },
  };
}

const notReadyConds = [cond('Initialized', 'True'), cond('Ready', 'False', 'ContainersNotReady'), cond('PodScheduled', 'True')];
const reasonOf = (p: V1Pod) => podState(p).problem?.reason;

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

describe('PodTracker', () => {
  const crash = (name: string, ns = 'default', restarts = 1) =>
    pod({
      name,
      ns,
      conditions: notReadyConds,
      containerStatuses: [cs('app', { waiting: { reason: 'CrashLoopBackOff' } }, false, restarts)],
    });
  const pending = (name: string, ns = 'default') =>
    pod({ name, ns, phase: 'Pending', conditions: [cond('PodScheduled', 'False', 'Unschedulable', 'no nodes')], containerStatuses: [] });
  const notReady = (name: string, ns = 'default') => pod({ name, ns, conditions: notReadyConds });

  it('counts by phase through add, modify and delete', () => {
    const t = new PodTracker();
    expect(t.summary().synced).toBe(false);
    t.reset([pod({ name: 'a' }), pod({ name: 'b' }), pending('c')]);
    let s = t.summary();
    expect(s).toMatchObject({
      synced: true,
      total: 3,
      byPhase: { Running: 2, Pending: 1, Succeeded: 0, Failed: 0, Unknown: 0 },
      problemCount: 1,
    });
    expect(s.problems.map((p) => p.name)).toEqual(['c']);

    expect(t.apply('ADDED', crash('d'))).toBe(true);
    // c is scheduled and runs: no longer a problem.
    expect(t.apply('MODIFIED', pod({ name: 'c' }))).toBe(true);
    s = t.summary();
    expect(s).toMatchObject({ total: 4, byPhase: { Running: 4, Pending: 0 }, problemCount: 1 });
    expect(s.problems.map((p) => p.reason)).toEqual(['CrashLoopBackOff']);

    // A change that the summary does not show changes nothing.
    expect(t.apply('MODIFIED', pod({ name: 'a' }))).toBe(false);
    expect(t.summary().problems).toBe(s.problems);

    expect(t.apply('DELETED', crash('d'))).toBe(true);
    expect(t.apply('DELETED', crash('never-seen'))).toBe(false);
    expect(t.apply('MODIFIED', pod({ name: 'b', phase: 'Succeeded', conditions: [], containerStatuses: [] }))).toBe(true);
    s = t.summary();
    expect(s).toMatchObject({ total: 3, byPhase: { Running: 2, Succeeded: 1 }, problemCount: 0, problems: [] });
  });

  it('a restart count that grows updates the problem', () => {
    const t = new PodTracker();
    t.reset([crash('a', 'default', 1)]);
    const before = t.summary().problems;
    expect(t.apply('MODIFIED', crash('a', 'default', 2))).toBe(true);
    expect(t.summary().problems).not.toBe(before);
    expect(t.summary().problems[0]?.restarts).toBe(2);
  });

  it('a re-list rebuilds everything', () => {
    const t = new PodTracker();
    t.reset([pod({ name: 'a' }), crash('b'), pending('c')]);
    t.reset([pod({ name: 'x' }), notReady('y')]);
    const s = t.summary();
    expect(s).toMatchObject({ total: 2, byPhase: { Running: 2, Pending: 0 }, problemCount: 1 });
    expect(s.problems.map((p) => p.name)).toEqual(['y']);
  });

  it('sorts worst first, then namespace and name', () => {
    const t = new PodTracker();
    t.reset([
      notReady('n1', 'a'),
      pending('p1', 'b'),
      pending('p0', 'a'),
      crash('c2', 'z'),
      crash('c1', 'z'),
      pod({ name: 't', ns: 'a', deleting: true }),
    ]);
    expect(t.summary().problems.map((p) => `${p.namespace}/${p.name}`)).toEqual(['z/c1', 'z/c2', 'a/p0', 'b/p1', 'a/n1', 'a/t']);
  });

  it(`caps the list at PROBLEM_LIMIT (${PROBLEM_LIMIT}) and keeps the true total`, () => {
    const t = new PodTracker();
    const pods: V1Pod[] = [];
    for (let i = 0; i < 1000; i++) pods.push(i % 2 ? pending(`p-${String(i).padStart(4, '0')}`) : pod({ name: `ok-${i}` }));
    pods.push(crash('worst', 'zzz'));
    t.reset(pods);
    const s = t.summary();
    expect(s.total).toBe(1001);
    expect(s.problemCount).toBe(501);
    expect(s.problems).toHaveLength(PROBLEM_LIMIT);
    expect(s.problems[0]?.name).toBe('worst');
    expect(s.problems[1]?.name).toBe('p-0001');
  });

  it('the capped list is the head of the full order, whatever order the pods arrive in', () => {
    const kinds = [crash, pending, notReady];
    const pods: V1Pod[] = [];
    for (let i = 0; i < 900; i++) pods.push(kinds[i % 3]!(`p-${String(i).padStart(3, '0')}`, `ns-${i % 7}`));
    // The full order, by a plain sort of every problem.
    const key = (p: PodProblem) => `${problemSeverity(p)} ${p.namespace} ${p.name}`;
    const full = pods
      .map((p) => podState(p).problem!)
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
      .slice(0, PROBLEM_LIMIT);
    expect(full).toHaveLength(PROBLEM_LIMIT);
    // Ascending, descending and a fixed shuffle of the same pods (i → i·7919 mod 900 is a permutation).
    const shuffled: V1Pod[] = [];
    for (const [i, p] of pods.entries()) shuffled[(i * 7919) % pods.length] = p;
    for (const order of [pods, [...pods].reverse(), shuffled]) {
      const t = new PodTracker();
      t.reset(order);
      expect(t.summary().problems).toEqual(full);
    }
  });

  it('pods that need no attention share one record (no per-pod object is kept)', () => {
    expect(podState(pod({ name: 'a' }))).toBe(podState(pod({ name: 'b' })));
  });
});

describe('listPaged', () => {
  it('follows continue tokens, maps each item and returns the list resourceVersion', async () => {
    const calls: { limit?: number; _continue?: string }[] = [];
    const pages: Record<string, { items: number[]; metadata: { _continue?: string; resourceVersion: string } }> = {
      '': { items: [1, 2], metadata: { _continue: 'c1', resourceVersion: '100' } },
      c1: { items: [3, 4], metadata: { _continue: 'c2', resourceVersion: '100' } },
      c2: { items: [5], metadata: { resourceVersion: '100' } },
    };
    const res = await listPaged(
      async (o) => {
        calls.push(o);
        return pages[o._continue ?? '']!;
      },
      (n: number) => n * 10,
      2,
    );
    expect(res).toEqual({ items: [10, 20, 30, 40, 50], metadata: { resourceVersion: '100' } });
    expect(calls).toEqual([{ limit: 2 }, { limit: 2, _continue: 'c1' }, { limit: 2, _continue: 'c2' }]);
  });

  it('falls back to one full list when a continue token expired (410)', async () => {
    const calls: { limit?: number; _continue?: string }[] = [];
    const res = await listPaged(
      async (o) => {
        calls.push(o);
        if (o._continue) throw new ApiException(410, 'Gone', {}, {});
        if (o.limit) return { items: [1], metadata: { _continue: 'c1', resourceVersion: '5' } };
        return { items: [1, 2, 3], metadata: { resourceVersion: '9' } };
      },
      (n: number) => n,
    );
    expect(res).toEqual({ items: [1, 2, 3], metadata: { resourceVersion: '9' } });
    expect(calls).toEqual([{ limit: 500 }, { limit: 500, _continue: 'c1' }, {}]);
  });

  it('passes other errors on (the watch retries with backoff)', async () => {
    await expect(
      listPaged(
        async () => Promise.reject(new ApiException(403, 'Forbidden', {}, {})),
        (n: number) => n,
      ),
    ).rejects.toThrow();
  });
});
