import { describe, expect, it } from 'vitest';
import { kubeConfigFromString, configForContext } from '../../../src/kube/config/kubeconfig.js';
import { FanOutSink, groupContexts, viewKey } from '../../../src/kube/config/shared-contexts.js';
import type { PodsSummary } from '../../../src/kube/pods/pods.js';
import { emptyPods } from '../../../src/kube/pods/pods.js';
import { createFleetStore } from '../../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../../src/store/status.js';
import { stringify } from 'yaml';

const kc = kubeConfigFromString(
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'c1', cluster: { server: 'https://one:6443' } },
      { name: 'c1-again', cluster: { server: 'https://one:6443' } },
      { name: 'c2', cluster: { server: 'https://two:6443' } },
    ],
    users: [
      { name: 'admin', user: { token: 'a' } },
      { name: 'admin-copy', user: { token: 'a' } },
      { name: 'viewer', user: { token: 'v' } },
    ],
    contexts: [
      { name: 'one', context: { cluster: 'c1', user: 'admin' } },
      { name: 'one-ns', context: { cluster: 'c1', user: 'admin', namespace: 'team' } },
      { name: 'one-copy', context: { cluster: 'c1-again', user: 'admin-copy' } },
      { name: 'one-viewer', context: { cluster: 'c1', user: 'viewer' } },
      { name: 'two', context: { cluster: 'c2', user: 'admin' } },
    ],
    'current-context': 'one',
  }),
);
const key = (name: string) => viewKey(configForContext(kc, name));

describe('viewKey', () => {
  it('is the same for contexts reaching one server as one user, whatever the entries are called', () => {
    expect(key('one-ns')).toBe(key('one'));
    expect(key('one-copy')).toBe(key('one'));
  });
  it('differs for another user or another server', () => {
    expect(key('one-viewer')).not.toBe(key('one'));
    expect(key('two')).not.toBe(key('one'));
  });
});

describe('groupContexts', () => {
  it('groups by key in first-seen order and leaves unique names alone', () => {
    const names = ['one', 'two', 'one-ns', 'one-viewer', 'one-copy'];
    expect(groupContexts(names, key, () => false)).toEqual([['one', 'one-ns', 'one-copy'], ['two'], ['one-viewer']]);
    expect(groupContexts(names, key, (n) => n === 'one-ns')).toEqual([['one', 'one-copy'], ['two'], ['one-ns'], ['one-viewer']]);
  });
});

describe('FanOutSink', () => {
  const infos = ['a', 'b', 'c'].map((name) => ({ name, cluster: 'c', user: 'u', server: 'https://x' }));

  it('writes every update to each context of the group, a summary computed once and shared', () => {
    const store = createFleetStore(infos);
    const batch = new UpdateBatcher(store, -1);
    const sink = new FanOutSink(batch, ['a', 'b']);
    let computed = 0;
    const summary: PodsSummary = { ...emptyPods(), synced: true, total: 7 };
    sink.patchContext('a', { reachability: 'reachable', latencyMs: 12 });
    sink.resetNodes('a', [{ name: 'n1', uid: 'u1', ready: true, unschedulable: false, roles: [] } as never]);
    sink.setSlice('a', 'pods', () => {
      computed++;
      return summary;
    });
    batch.flush();
    const s = store.getState().status.contexts;
    expect(computed).toBe(1);
    for (const n of ['a', 'b']) {
      expect(s[n]!.reachability).toBe('reachable');
      expect(s[n]!.latencyMs).toBe(12);
      expect(Object.keys(s[n]!.nodes.items)).toEqual(['n1']);
      expect(s[n]!.pods).toBe(summary);
    }
    expect(s.c!.reachability).toBe('unknown');
    expect(s.c!.nodes.synced).toBe(false);

    sink.deleteNode('b', 'n1');
    sink.nodesForbidden('b', 'cannot list nodes');
    batch.flush();
    const t = store.getState().status.contexts;
    for (const n of ['a', 'b']) {
      expect(t[n]!.nodes.items).toEqual({});
      expect(t[n]!.nodes.forbidden).toBe('cannot list nodes');
    }
  });
});
