import { describe, expect, it } from 'vitest';
import { evictionVersionFrom } from '../../src/kube/discovery.js';

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
