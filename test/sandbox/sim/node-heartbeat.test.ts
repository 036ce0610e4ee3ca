import type { V1Node, V1NodeStatus } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { STATUS_REPORT_MS, statusToReport } from '../../../src/sandbox/sim/node-heartbeat.js';
import { newNodeState } from '../../../src/sandbox/sim/node-registration.js';
import { nodeStatus, remember } from '../../../src/sandbox/sim/node-status.js';

/** The Node as the API gives it back: JSON through the wire (times as strings, to the second, keys in another order). */
function asServed(status: V1NodeStatus, heartbeat: string): V1Node {
  const json = JSON.parse(JSON.stringify(status)) as V1NodeStatus;
  for (const c of json.conditions ?? []) {
    c.lastHeartbeatTime = heartbeat as unknown as Date;
    c.lastTransitionTime = `${String(c.lastTransitionTime).slice(0, 19)}Z` as unknown as Date;
  }
  const capacity = Object.fromEntries(Object.entries(json.capacity ?? {}).reverse());
  return { metadata: { name: 'n1', uid: 'u1' }, status: { ...json, capacity, images: [{ names: ['pause'] }] } };
}

describe('statusToReport (a kubelet since 1.17: status on change or every 5 minutes, the Lease is the heartbeat)', () => {
  const state = newNodeState('n1', 1, '10.0.0.1');
  const now = Date.now();

  it('posts the first status, and one the API does not have yet', () => {
    const desired = nodeStatus(state);
    expect(statusToReport(undefined, desired, now - 1000, now)).toBe(true);
    expect(statusToReport(asServed(desired, '2026-11-26T10:00:00Z'), desired, undefined, now)).toBe(true);
  });

  it('skips a status that differs only in heartbeat times, key order and sub-second times', () => {
    const served = asServed(nodeStatus(state), '2026-11-26T10:00:00Z');
    expect(statusToReport(served, nodeStatus(state), now - 10_000, now)).toBe(false);
  });

  it('posts an unchanged status again after nodeStatusReportFrequency', () => {
    const served = asServed(nodeStatus(state), '2026-11-26T10:00:00Z');
    expect(statusToReport(served, nodeStatus(state), now - STATUS_REPORT_MS, now)).toBe(true);
  });

  it('posts when the node controller set Ready to Unknown (the kubelet says True again)', () => {
    const served = asServed(nodeStatus(state), '2026-11-26T10:00:00Z');
    const ready = served.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready) Object.assign(ready, { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect(statusToReport(served, nodeStatus(state), now - 10_000, now)).toBe(true);
  });

  it('posts when the kubelet itself changed: not ready, another endpoint port', () => {
    const served = asServed(nodeStatus(state), '2026-11-26T10:00:00Z');
    expect(statusToReport(served, nodeStatus({ ...state, ready: false, readySince: new Date(now) }), now - 10_000, now)).toBe(true);
    expect(statusToReport(served, nodeStatus({ ...state, kubeletPort: 10251 }), now - 10_000, now)).toBe(true);
  });

  it('ignores conditions another component adds', () => {
    const served = asServed(nodeStatus(state), '2026-11-26T10:00:00Z');
    served.status?.conditions?.push({ type: 'NetworkUnavailable', status: 'False', reason: 'RouteCreated' });
    expect(statusToReport(served, nodeStatus(state), now - 10_000, now)).toBe(false);
  });
});

describe('remember (the kubelet’s view of its Node never goes back)', () => {
  const node = (uid: string, rv: string): V1Node => ({ metadata: { name: 'n1', uid, resourceVersion: rv } });

  it('keeps a later watch event over an earlier answer that arrives after it', () => {
    const state = newNodeState('n1', 1, '10.0.0.1');
    remember(state, node('u1', '101'));
    remember(state, node('u1', '100'));
    expect(state.last?.metadata?.resourceVersion).toBe('101');
    remember(state, node('u1', '102'));
    expect(state.last?.metadata?.resourceVersion).toBe('102');
  });

  it('takes a Node of another uid (re-registered) whatever its resourceVersion', () => {
    const state = newNodeState('n1', 1, '10.0.0.1');
    remember(state, node('u1', '500'));
    remember(state, node('u2', '20'));
    expect(state.last?.metadata?.uid).toBe('u2');
  });
});
