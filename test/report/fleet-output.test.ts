import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fleetRows, formatFleetRows } from '../../src/report/fleet-output.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { UpdateBatcher } from '../../src/store/status.js';
import { info, node, pods, problem } from '../helpers/screens/fleets.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const CREATED = '2026-11-24T11:00:00.000Z';

function fleet() {
  const store = createFleetStore([info('one'), info('two'), info('down')]);
  const b = new UpdateBatcher(store, -1);
  b.patchContext('one', { reachability: 'reachable' });
  b.patchContext('two', { reachability: 'reachable' });
  b.patchContext('down', { reachability: 'unreachable', lastError: 'timeout' });
  b.resetNodes('one', [node('one-cp', { roles: ['control-plane'], zone: 'z1', createdAt: Date.parse(CREATED), unschedulable: true })]);
  b.resetNodes('two', [node('two-w', { ready: false, notReadyReason: 'KubeletNotReady' })]);
  b.setSlice('one', 'pods', pods({ problemCount: 1, problems: [problem('p', 'Error', { phase: 'Failed', node: 'one-cp', restarts: 2 })] }));
  b.flush();
  return store.getState();
}

describe('get output', () => {
  it('text: the dashboard columns as a kubectl-like table, of the contexts read only', () => {
    const text = formatFleetRows('nodes', fleetRows('nodes', fleet()), 'text', NOW);
    expect(text.split('\n')).toEqual([
      'CONTEXT   NAME     ROLE            ZONE   STATUS     CORDONED   KUBELET   AGE',
      'one       one-cp   control-plane   z1     Ready      yes        v1.31.0   2d',
      'two       two-w    -               -      NotReady   no         v1.31.0   -',
    ]);
  });

  it('json and yaml: one array of objects of the same shape', () => {
    const rows = fleetRows('nodes', fleet());
    const json = JSON.parse(formatFleetRows('nodes', rows, 'json', NOW));
    expect(json).toEqual([
      {
        context: 'one',
        name: 'one-cp',
        roles: ['control-plane'],
        zone: 'z1',
        status: 'Ready',
        notReadyReason: null,
        cordoned: true,
        kubeletVersion: 'v1.31.0',
        createdAt: CREATED,
        age: '2d',
      },
      {
        context: 'two',
        name: 'two-w',
        roles: [],
        zone: null,
        status: 'NotReady',
        notReadyReason: 'KubeletNotReady',
        cordoned: false,
        kubeletVersion: 'v1.31.0',
        createdAt: null,
        age: null,
      },
    ]);
    expect(parse(formatFleetRows('nodes', rows, 'yaml', NOW))).toEqual(json);
  });

  it('pods: the pods needing attention with their phase and node', () => {
    const json = JSON.parse(formatFleetRows('pods', fleetRows('pods', fleet()), 'json', NOW));
    expect(json).toEqual([
      {
        context: 'one',
        namespace: 'default',
        name: 'p',
        phase: 'Failed',
        reason: 'Error',
        restarts: 2,
        node: 'one-cp',
        createdAt: null,
        age: null,
      },
    ]);
  });
});
