import { describe, expect, it } from 'vitest';
import { summarizeNode } from '../../../src/kube/nodes/nodes.js';

describe('summarizeNode', () => {
  it('keeps what the dashboard shows: readiness, zone, roles, cordon, kubelet version', () => {
    const s = summarizeNode({
      metadata: {
        name: 'w1',
        uid: 'u1',
        labels: {
          'topology.kubernetes.io/zone': 'zone-a',
          'node-role.kubernetes.io/worker': '',
          'node-role.kubernetes.io/control-plane': '',
        },
      },
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.20.2' } as never },
    });
    expect(s).toEqual({
      name: 'w1',
      uid: 'u1',
      ready: true,
      unschedulable: true,
      zone: 'zone-a',
      roles: ['control-plane', 'worker'],
      kubeletVersion: 'v1.20.2',
    });
  });

  it('explains why a node is not Ready, and falls back to the legacy zone label', () => {
    const s = summarizeNode({
      metadata: { name: 'w2', labels: { 'failure-domain.beta.kubernetes.io/zone': 'old' } },
      status: {
        conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }],
      },
    });
    expect(s.ready).toBe(false);
    expect(s.zone).toBe('old');
    expect(s.notReadyReason).toBe('NodeStatusUnknown: Kubelet stopped posting node status.');
    expect(summarizeNode({ metadata: { name: 'w3' } }).notReadyReason).toMatch(/never reported/);
  });
});
