import { describe, expect, it } from 'vitest';
import {
  contextNodeRows,
  filterFleetRows,
  FLEET_NODE_COLUMNS,
  FLEET_POD_COLUMNS,
  fleetRowsSelector,
  podsLeftOut,
  sortFleetRows,
  sortedHeader,
  unreadable,
  type FleetNodeRow,
} from '../../src/report/fleet-rows.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../src/store/status.js';
import { info, node, pods, problem } from '../helpers/screens/fleets.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const HOUR = 3_600_000;

/** Two reachable contexts (b before a in the kubeconfig), one unreachable, one whose nodes are forbidden. */
function fleet() {
  const store = createFleetStore([info('ctx-b'), info('ctx-a'), info('down'), info('denied')]);
  const b = new UpdateBatcher(store, -1);
  for (const c of ['ctx-a', 'ctx-b', 'denied']) b.patchContext(c, { reachability: 'reachable', version: 'v1.31.0' });
  b.patchContext('down', { reachability: 'unreachable', lastError: 'connect ECONNREFUSED' });
  b.resetNodes('ctx-a', [
    node('a-2', { roles: ['worker', 'infra'], zone: 'z1', createdAt: NOW - 2 * HOUR }),
    node('a-1', { roles: ['control-plane'], zone: 'z2', createdAt: NOW - 50 * HOUR, unschedulable: true }),
  ]);
  b.resetNodes('ctx-b', [node('b-1', { ready: false, notReadyReason: 'KubeletNotReady: PLEG', kubeletVersion: 'v1.30.1' })]);
  b.nodesForbidden('denied', 'nodes is forbidden: User "viewer" cannot list resource "nodes"');
  b.setSlice(
    'ctx-a',
    'pods',
    pods({
      problemCount: 3,
      problems: [
        problem('crash', 'CrashLoopBackOff', { namespace: 'web', phase: 'Running', restarts: 12, createdAt: NOW - HOUR }),
        problem('pull', 'ImagePullBackOff', { namespace: 'api', createdAt: NOW - 3 * HOUR }),
      ],
    }),
  );
  b.setSlice('ctx-b', 'pods', pods({ problemCount: 1, problems: [problem('wait', 'Unschedulable', { namespace: 'batch', restarts: 1 })] }));
  b.flush();
  return store;
}

const cells = (row: FleetNodeRow) => FLEET_NODE_COLUMNS.map((c) => c.text(row, NOW));

describe('fleet node rows', () => {
  it('derive ROLE, ZONE, STATUS, CORDONED, KUBELET and AGE from the node summary, by context order then name', () => {
    const rows = fleetRowsSelector('nodes')(fleet().getState());
    expect(rows.map(cells)).toEqual([
      ['ctx-b', 'b-1', '-', '-', 'NotReady', 'no', 'v1.30.1', '-'],
      ['ctx-a', 'a-1', 'control-plane', 'z2', 'Ready', 'yes', 'v1.31.0', '2d'],
      ['ctx-a', 'a-2', 'worker,infra', 'z1', 'Ready', 'no', 'v1.31.0', '2h'],
    ]);
  });

  it('are made once per summary: the selector gives the same array back until a context’s nodes change', () => {
    const store = fleet();
    const select = fleetRowsSelector('nodes');
    const first = select(store.getState());
    const b = new UpdateBatcher(store, -1);
    // A probe's latency and a pod update change other parts of the contexts.
    b.patchContext('ctx-a', { latencyMs: 42 });
    b.setSlice('ctx-b', 'pods', pods());
    b.flush();
    expect(select(store.getState())).toBe(first);
    const unchanged = contextNodeRows(store.getState().status.contexts['ctx-b']!);

    b.upsertNode('ctx-a', node('a-3'));
    b.flush();
    const next = select(store.getState());
    expect(next).not.toBe(first);
    expect(next.map((r) => r.name)).toEqual(['b-1', 'a-1', 'a-2', 'a-3']);
    // The other context's rows were not made again.
    expect(contextNodeRows(store.getState().status.contexts['ctx-b']!)).toBe(unchanged);
  });

  it('filter on any cell and on the NotReady reason, ignoring case', () => {
    const rows = fleetRowsSelector('nodes')(fleet().getState());
    expect(filterFleetRows('nodes', rows, 'CONTROL').map((r) => r.name)).toEqual(['a-1']);
    expect(filterFleetRows('nodes', rows, 'pleg').map((r) => r.name)).toEqual(['b-1']);
    expect(filterFleetRows('nodes', rows, 'ctx-a').map((r) => r.name)).toEqual(['a-1', 'a-2']);
    expect(filterFleetRows('nodes', rows, 'cordoned').map((r) => r.name)).toEqual(['a-1']);
    expect(filterFleetRows('nodes', rows, '  ')).toBe(rows);
    expect(filterFleetRows('nodes', rows, 'nothing-like-it')).toEqual([]);
  });

  it('sort by any column either way, ties by context', () => {
    const rows = fleetRowsSelector('nodes')(fleet().getState());
    const col = (key: string) => FLEET_NODE_COLUMNS.findIndex((c) => c.key === key);
    const names = (column: string, desc = false) => sortFleetRows('nodes', rows, { column: col(column), desc }).map((r) => r.name);
    expect(names('context')).toEqual(['a-1', 'a-2', 'b-1']);
    expect(names('context', true)).toEqual(['b-1', 'a-1', 'a-2']);
    expect(names('name', true)).toEqual(['b-1', 'a-2', 'a-1']);
    expect(names('status')).toEqual(['b-1', 'a-1', 'a-2']);
    expect(names('cordoned')).toEqual(['a-1', 'a-2', 'b-1']);
    // Youngest first; a node of unknown age last.
    expect(names('age')).toEqual(['a-2', 'a-1', 'b-1']);
    expect(names('age', true)).toEqual(['b-1', 'a-1', 'a-2']);
    // The input is left as it was.
    expect(rows.map((r) => r.name)).toEqual(['b-1', 'a-1', 'a-2']);
  });

  it('the sorted column’s header carries the arrow', () => {
    expect(sortedHeader('AGE', true, false, false)).toBe('AGE▲');
    expect(sortedHeader('AGE', true, true, false)).toBe('AGE▼');
    expect(sortedHeader('AGE', true, true, true)).toBe('AGEv');
    expect(sortedHeader('AGE', false, true, false)).toBe('AGE');
  });
});

describe('fleet pod rows', () => {
  it('list each context’s pods needing attention worst first, with NAMESPACE, POD, REASON, RESTARTS, AGE', () => {
    const rows = fleetRowsSelector('pods')(fleet().getState());
    expect(rows.map((r) => FLEET_POD_COLUMNS.map((c) => c.text(r, NOW)))).toEqual([
      ['ctx-b', 'batch', 'wait', 'Unschedulable', '1', '-'],
      ['ctx-a', 'web', 'crash', 'CrashLoopBackOff', '12', '1h'],
      ['ctx-a', 'api', 'pull', 'ImagePullBackOff', '0', '3h'],
    ]);
    const col = FLEET_POD_COLUMNS.findIndex((c) => c.key === 'restarts');
    expect(sortFleetRows('pods', rows, { column: col, desc: false }).map((r) => r.name)).toEqual(['crash', 'wait', 'pull']);
    expect(filterFleetRows('pods', rows, 'web/crash').map((r) => r.name)).toEqual(['crash']);
  });

  it('say what a context’s summary leaves out', () => {
    const state = fleet().getState();
    expect(podsLeftOut(state.status.contexts['ctx-a']!)).toBe(1);
    expect(podsLeftOut(state.status.contexts['ctx-b']!)).toBe(0);
  });
});

describe('unreadable', () => {
  it('says why a context’s rows are missing, and nothing for one that was read', () => {
    const { contexts } = fleet().getState().status;
    expect(unreadable(contexts['ctx-a']!, 'nodes')).toBeUndefined();
    expect(unreadable(contexts['ctx-a']!, 'pods')).toBeUndefined();
    expect(unreadable(contexts.down!, 'nodes')).toBe('unreachable (connect ECONNREFUSED)');
    expect(unreadable(contexts.denied!, 'nodes')).toContain('cannot list resource "nodes"');
    expect(unreadable(contexts.denied!, 'pods')).toBe('pods not listed yet');
  });
});
