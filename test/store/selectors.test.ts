import { describe, expect, it } from 'vitest';
import { emptyContext } from '../../src/store/status.js';
import { kubeletSkew } from '../../src/store/selectors.js';
import type { ContextState } from '../../src/store/types.js';

function ctx(server: string | undefined, kubelets: Record<string, string | undefined>): ContextState {
  const c = emptyContext({ name: 'c', cluster: 'c', user: 'u', server: 'https://c' });
  if (server) c.version = server;
  for (const [name, v] of Object.entries(kubelets)) {
    c.nodes.items[name] = { name, uid: name, ready: true, unschedulable: false, roles: [], ...(v ? { kubeletVersion: v } : {}) };
  }
  return c;
}

describe('kubeletSkew', () => {
  it('accepts kubelets at most 2 minor versions older before 1.28, flags the rest and any newer one', () => {
    const c = ctx('v1.27.4', { a: 'v1.27.1', b: 'v1.25.9', c: 'v1.24.0-gke.1', d: 'v1.28.0', e: 'v1.27.9' });
    expect(kubeletSkew(c)).toEqual([
      {
        node: 'c',
        kubelet: 'v1.24.0-gke.1',
        server: 'v1.27.4',
        problem: 'kubelet v1.24.0-gke.1 is 3 minor versions older than the API server v1.27.4 (at most 2 supported)',
      },
      { node: 'd', kubelet: 'v1.28.0', server: 'v1.27.4', problem: 'kubelet v1.28.0 is newer than the API server v1.27.4' },
    ]);
  });

  it('allows 3 minor versions from 1.28 on', () => {
    const c = ctx('v1.30.2', { a: 'v1.27.0', b: 'v1.26.5' });
    expect(kubeletSkew(c).map((s) => [s.node, s.problem])).toEqual([
      ['b', 'kubelet v1.26.5 is 4 minor versions older than the API server v1.30.2 (at most 3 supported)'],
    ]);
    expect(kubeletSkew(ctx('v1.28.0', { a: 'v1.25.0', b: 'v1.24.9' })).map((s) => s.node)).toEqual(['b']);
  });

  it('a newer patch of the same minor is fine; a different major is flagged', () => {
    expect(kubeletSkew(ctx('v1.20.2', { a: 'v1.20.15' }))).toEqual([]);
    expect(kubeletSkew(ctx('v1.20.2', { a: 'v2.0.0' }))[0]?.problem).toMatch(/differ in major version/);
  });

  it('says nothing without a server version, and skips unknown kubelet versions', () => {
    expect(kubeletSkew(ctx(undefined, { a: 'v1.10.0' }))).toEqual([]);
    expect(kubeletSkew(ctx('v1.20.2', { a: undefined, b: 'weird' }))).toEqual([]);
  });
});
