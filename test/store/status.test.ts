import { describe, expect, it, vi } from 'vitest';
import { createFleetStore, setContexts } from '../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../src/store/status.js';
import { emptyPods } from '../../src/kube/pods/pods.js';
import { nodeCounts, reachabilityLine } from '../../src/store/selectors.js';
import type { NodeSummary } from '../../src/kube/nodes/nodes.js';

const info = (name: string) => ({ name, cluster: name, user: 'u', server: `https://${name}` });
const node = (name: string, over: Partial<NodeSummary> = {}): NodeSummary => ({
  name,
  uid: `uid-${name}`,
  ready: true,
  unschedulable: false,
  roles: [],
  ...over,
});

describe('fleet store', () => {
  it('starts the Certificates view with --warn-days (30 without it)', () => {
    expect(createFleetStore([info('a')]).getState().certs.warnDays).toBe(30);
    expect(createFleetStore([info('a')], undefined, 7).getState().certs.warnDays).toBe(7);
  });

  it('a burst of 1,000 node updates is applied in one store update', () => {
    const store = createFleetStore([info('a')]);
    const batch = new UpdateBatcher(store, 1_000_000);
    let updates = 0;
    store.subscribe(() => updates++);
    batch.resetNodes('a', []);
    for (let i = 0; i < 1000; i++) batch.upsertNode('a', node(`n${i % 100}`, { ready: i % 3 !== 0 }));
    batch.patchContext('a', { reachability: 'reachable', latencyMs: 4 });
    expect(updates).toBe(0);
    batch.flush();
    expect(updates).toBe(1);
    const ctx = store.getState().status.contexts.a!;
    expect(Object.keys(ctx.nodes.items)).toHaveLength(100);
    expect(ctx.nodes.synced).toBe(true);
    expect(ctx.reachability).toBe('reachable');
    expect(ctx.latencyMs).toBe(4);
  });

  it('a full list is applied at the next turn, not after the interval that gathers watch events', async () => {
    const store = createFleetStore([info('a')]);
    const batch = new UpdateBatcher(store, 1_000_000);
    const nextTurn = () => new Promise((r) => setTimeout(r, 1));
    batch.upsertNode('a', node('watched'));
    await nextTurn();
    expect(store.getState().status.contexts.a!.nodes.items.watched).toBeUndefined();
    batch.resetNodes('a', [node('listed')]);
    await nextTurn();
    expect(Object.keys(store.getState().status.contexts.a!.nodes.items)).toEqual(['listed']);
    batch.setSlice('a', 'pods', { ...emptyPods(), synced: true, total: 7 });
    await nextTurn();
    expect(store.getState().status.contexts.a!.pods.total).toBe(0);
    batch.soon();
    await nextTurn();
    expect(store.getState().status.contexts.a!.pods.total).toBe(7);
    batch.dispose();
  });

  it('a node heartbeat that changes nothing shown causes no store update (no render)', () => {
    const store = createFleetStore([info('a')]);
    const batch = new UpdateBatcher(store, -1);
    batch.resetNodes('a', [node('x', { roles: ['worker'] })]);
    batch.patchContext('a', { reachability: 'reachable' });
    batch.flush();
    let updates = 0;
    store.subscribe(() => updates++);
    batch.upsertNode('a', node('x', { roles: ['worker'] }));
    batch.patchContext('a', { reachability: 'reachable' });
    batch.deleteNode('a', 'never-there');
    batch.flush();
    expect(updates).toBe(0);
    batch.upsertNode('a', node('x', { roles: ['worker'], unschedulable: true }));
    batch.flush();
    expect(updates).toBe(1);
    expect(store.getState().status.contexts.a!.nodes.items.x?.unschedulable).toBe(true);
  });

  it('a heartbeat that changes nothing kept arms no flush; a change undone before the flush still wins', () => {
    vi.useFakeTimers();
    try {
      const store = createFleetStore([info('a')]);
      const batch = new UpdateBatcher(store, 50);
      batch.resetNodes('a', [node('x', { ready: true })]);
      batch.flush();
      batch.upsertNode('a', node('x', { ready: true }));
      expect(vi.getTimerCount()).toBe(0);
      batch.upsertNode('a', node('x', { ready: false }));
      expect(vi.getTimerCount()).toBe(1);
      batch.upsertNode('a', node('x', { ready: true }));
      vi.advanceTimersByTime(50);
      expect(store.getState().status.contexts.a!.nodes.items.x?.ready).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a slice given as a function is computed once per flush, with the latest state', () => {
    const store = createFleetStore([info('a')]);
    const batch = new UpdateBatcher(store, -1);
    let calls = 0;
    let total = 0;
    for (let i = 0; i < 100; i++) {
      total++;
      batch.setSlice('a', 'pods', () => {
        calls++;
        return { ...emptyPods(), synced: true, total };
      });
    }
    batch.flush();
    expect(calls).toBe(1);
    expect(store.getState().status.contexts.a!.pods.total).toBe(100);
  });

  it('applies upserts and deletions in arrival order after a reset', () => {
    const store = createFleetStore([info('a')]);
    const batch = new UpdateBatcher(store, -1);
    batch.resetNodes('a', [node('x'), node('y')]);
    batch.deleteNode('a', 'x');
    batch.upsertNode('a', node('z'));
    batch.deleteNode('a', 'z');
    batch.upsertNode('a', node('z', { ready: false }));
    batch.flush();
    const items = store.getState().status.contexts.a!.nodes.items;
    expect(Object.keys(items).sort()).toEqual(['y', 'z']);
    expect(items.z?.ready).toBe(false);
  });

  it('keeps the last known nodes when a context becomes unreachable (stale, not lost)', () => {
    const store = createFleetStore([info('a')]);
    const batch = new UpdateBatcher(store, -1);
    batch.resetNodes('a', [node('x')]);
    batch.flush();
    batch.patchContext('a', {
      reachability: 'unreachable',
      lastError: 'connection refused',
      unreachableSince: new Date(2026, 0, 1, 10, 42, 7).getTime(),
    });
    batch.flush();
    const ctx = store.getState().status.contexts.a!;
    expect(Object.keys(ctx.nodes.items)).toEqual(['x']);
    expect(reachabilityLine(ctx)).toBe('unreachable since 10:42:07 (connection refused)');
  });

  it('updates for unknown contexts are ignored; setContexts keeps existing state', () => {
    const store = createFleetStore([info('a')]);
    const batch = new UpdateBatcher(store, -1);
    batch.patchContext('ghost', { latencyMs: 1 });
    batch.patchContext('a', { latencyMs: 9 });
    batch.flush();
    expect(Object.keys(store.getState().status.contexts)).toEqual(['a']);
    setContexts(store, [info('b'), info('a')]);
    expect(store.getState().status.order).toEqual(['b', 'a']);
    expect(store.getState().status.contexts.a?.latencyMs).toBe(9);
    expect(store.getState().status.contexts.b?.reachability).toBe('unknown');
  });
});

describe('node counts', () => {
  it('counts ready, cordoned, NotReady with reasons, and per zone', () => {
    const store = createFleetStore([info('a')]);
    const batch = new UpdateBatcher(store, -1);
    batch.resetNodes('a', [
      node('n1', { zone: 'z1' }),
      node('n2', { zone: 'z1', unschedulable: true }),
      node('n3', { zone: 'z2', ready: false, notReadyReason: 'NodeStatusUnknown: Kubelet stopped posting node status.' }),
      node('n4'),
    ]);
    batch.flush();
    const c = nodeCounts(store.getState().status.contexts.a!);
    expect(c).toEqual({
      ready: 3,
      total: 4,
      cordoned: 1,
      notReady: [{ name: 'n3', reason: 'NodeStatusUnknown: Kubelet stopped posting node status.' }],
      byZone: { z1: { ready: 2, total: 2 }, z2: { ready: 0, total: 1 }, '(no zone)': { ready: 1, total: 1 } },
    });
  });
});
