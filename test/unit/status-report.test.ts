import { describe, expect, it } from 'vitest';
import { contextCheck, statusChecks, statusJson } from '../../src/report/status.js';
import { formatChecklist } from '../../src/store/checklist.js';
import { UpdateBatcher, createFleetStore } from '../../src/store/fleet-store.js';
import type { NodeSummary } from '../../src/store/types.js';

const info = (name: string) => ({ name, cluster: `${name}-cluster`, user: 'admin', server: `https://${name}:6443` });
const node = (name: string, ready = true, zone = 'zone-a'): NodeSummary => ({
  name,
  uid: name,
  ready,
  unschedulable: false,
  roles: ['worker'],
  zone,
  ...(ready ? {} : { notReadyReason: 'KubeletNotReady' }),
});

function fleet() {
  const store = createFleetStore([info('kind-cp'), info('kind-workload-1'), info('kind-workload-2')]);
  const b = new UpdateBatcher(store, -1);
  b.patchContext('kind-cp', { reachability: 'reachable', version: 'v1.20.2', latencyMs: 3, evictionVersion: 'policy/v1beta1', lastSuccessAt: 0 });
  b.resetNodes('kind-cp', [node('a'), node('b', true, 'zone-b')]);
  b.patchContext('kind-workload-1', { reachability: 'reachable', version: 'v1.20.2', latencyMs: 5 });
  b.resetNodes('kind-workload-1', [node('c'), node('d', false)]);
  b.patchContext('kind-workload-2', { reachability: 'unreachable', lastError: 'connection refused', unreachableSince: Date.UTC(2026, 0, 1) });
  b.flush();
  return store.getState();
}

describe('status report', () => {
  it('JSON has the documented shape', () => {
    const json = statusJson(fleet());
    expect(json.contexts.map((c) => c.name)).toEqual(['kind-cp', 'kind-workload-1', 'kind-workload-2']);
    expect(json.contexts[0]).toEqual({
      name: 'kind-cp',
      cluster: 'kind-cp-cluster',
      server: 'https://kind-cp:6443',
      reachable: true,
      version: 'v1.20.2',
      latencyMs: 3,
      error: null,
      lastSuccessAt: '1970-01-01T00:00:00.000Z',
      unreachableSince: null,
      evictionVersion: 'policy/v1beta1',
      nodes: { ready: 2, total: 2, cordoned: 0, notReady: [], byZone: { 'zone-a': { ready: 1, total: 1 }, 'zone-b': { ready: 1, total: 1 } }, forbidden: null },
    });
    expect(json.contexts[2]).toMatchObject({ reachable: false, error: 'connection refused', unreachableSince: '2026-01-01T00:00:00.000Z', nodes: null });
  });

  it('text reads like the Nova status checklist', () => {
    const text = formatChecklist(statusChecks(fleet()), { ascii: false });
    const lines = text.split('\n');
    expect(lines[0]).toBe('Checking contexts');
    expect(lines[1]).toBe('* Context kind-cp... reachable, v1.20.2, 3 ms, 2/2 nodes Ready √');
    expect(lines[2]).toBe('* Context kind-workload-1... reachable, v1.20.2, 5 ms, 1/2 nodes Ready ‼');
    expect(lines[3]).toBe('  NotReady: d (KubeletNotReady)');
    expect(lines[4]).toMatch(/^\* Context kind-workload-2 \(https:\/\/kind-workload-2:6443\)\.\.\. unreachable since \d\d:\d\d:\d\d \(connection refused\) ✗$/);
    expect(lines.at(-1)).toMatch(/^2 of 3 contexts reachable at \d\d:\d\d:\d\d ✗$/);
  });

  it('a forbidden node list is a warning that names the missing permission', () => {
    const store = createFleetStore([info('ro')]);
    const b = new UpdateBatcher(store, -1);
    b.patchContext('ro', { reachability: 'reachable', version: 'v1.20.2', latencyMs: 1 });
    b.nodesForbidden('ro', 'cannot list nodes: HTTP 403: forbidden (needs get/list/watch on nodes)');
    b.flush();
    const item = contextCheck(store.getState().contexts.ro!);
    expect(item.state).toBe('warn');
    expect(item.hint).toContain('needs get/list/watch on nodes');
  });
});
