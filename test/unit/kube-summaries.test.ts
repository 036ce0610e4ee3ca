import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { describeError, statusCode } from '../../src/kube/client.js';
import { evictionVersionFrom } from '../../src/kube/discovery.js';
import { summarizeNode } from '../../src/kube/nodes.js';

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
    expect(s).toEqual({ name: 'w1', uid: 'u1', ready: true, unschedulable: true, zone: 'zone-a', roles: ['control-plane', 'worker'], kubeletVersion: 'v1.20.2' });
  });

  it('explains why a node is not Ready, and falls back to the legacy zone label', () => {
    const s = summarizeNode({
      metadata: { name: 'w2', labels: { 'failure-domain.beta.kubernetes.io/zone': 'old' } },
      status: { conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' }] },
    });
    expect(s.ready).toBe(false);
    expect(s.zone).toBe('old');
    expect(s.notReadyReason).toBe('NodeStatusUnknown: Kubelet stopped posting node status.');
    expect(summarizeNode({ metadata: { name: 'w3' } }).notReadyReason).toMatch(/never reported/);
  });
});

describe('eviction version discovery', () => {
  const core = (group?: string, version?: string) => ({
    groupVersion: 'v1',
    resources: [
      { name: 'pods', kind: 'Pod', namespaced: true, singularName: 'pod', verbs: [] },
      { name: 'pods/eviction', kind: 'Eviction', namespaced: true, singularName: '', verbs: ['create'], group, version },
    ],
  });
  it('takes the group/version the pods/eviction subresource names (v1.20: policy/v1beta1)', () => {
    expect(evictionVersionFrom(core('policy', 'v1beta1'), ['v1beta1'])).toBe('policy/v1beta1');
    expect(evictionVersionFrom(core('policy', 'v1'), ['v1', 'v1beta1'])).toBe('policy/v1');
  });
  it('falls back to the policy group versions, and says none without the subresource', () => {
    expect(evictionVersionFrom(core(), ['v1', 'v1beta1'])).toBe('policy/v1');
    expect(evictionVersionFrom(core(), ['v1beta1'])).toBe('policy/v1beta1');
    expect(evictionVersionFrom({ groupVersion: 'v1', resources: [] }, ['v1'])).toBe('none');
  });
});

describe('describeError', () => {
  it('turns API errors into one line with the server message', () => {
    const err = new ApiException(403, 'Forbidden', JSON.stringify({ kind: 'Status', message: 'nodes is forbidden: User "x" cannot list resource "nodes"' }), {});
    expect(statusCode(err)).toBe(403);
    expect(describeError(err)).toBe('HTTP 403: nodes is forbidden: User "x" cannot list resource "nodes"');
  });
  it('names network failures the way operators say them', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    expect(describeError(refused)).toBe('connection refused');
    const tls = new TypeError('fetch failed', { cause: Object.assign(new Error('unable to verify'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }) });
    expect(describeError(tls)).toBe('TLS: certificate signed by an unknown authority');
    expect(describeError(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe('timed out');
    expect(describeError(new Error('first\nsecond'))).toBe('first');
  });
});
