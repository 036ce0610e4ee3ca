import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { PROBLEM_LIMIT, PodTracker, podState, problemSeverity, type PodProblem } from '../../../src/kube/pods/pods.js';
import { cond, cs, notReadyConds, pod } from './pod-fixture.js';

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
