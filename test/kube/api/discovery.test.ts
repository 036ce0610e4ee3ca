import { describe, expect, it } from 'vitest';
import { evictionVersionFrom, parseKubeVersion, readyzVerdict } from '../../../src/kube/api/discovery.js';

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

describe('parseKubeVersion', () => {
  it('reads vX.Y.Z with build suffixes', () => {
    expect(parseKubeVersion('v1.20.2')).toEqual({ major: 1, minor: 20 });
    expect(parseKubeVersion('v1.27.3-eks-a5565ad')).toEqual({ major: 1, minor: 27 });
    expect(parseKubeVersion('v1.28.1+k3s1')).toEqual({ major: 1, minor: 28 });
    expect(parseKubeVersion('1.29')).toEqual({ major: 1, minor: 29 });
    expect(parseKubeVersion('unknown')).toBeUndefined();
  });

  it('reads provider-suffixed versions by major and minor', () => {
    expect(parseKubeVersion('v1.28.3-gke.1286000')).toEqual({ major: 1, minor: 28 });
    expect(parseKubeVersion('v1.27.4+k3s1')).toEqual({ major: 1, minor: 27 });
    expect(parseKubeVersion(' v1.26.10-eks-e71965b ')).toEqual({ major: 1, minor: 26 });
    expect(parseKubeVersion('1.25')).toEqual({ major: 1, minor: 25 });
    expect(parseKubeVersion('banana')).toBeUndefined();
  });
});

describe('readiness from /readyz', () => {
  const failed =
    '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[+]informer-sync ok\n[-]shutdown failed: reason withheld\nreadyz check failed';
  it('names the failed checks of a 500, one line', () => {
    expect(readyzVerdict(500, failed)).toBe('etcd failed, shutdown failed');
  });
  it('ready, or cannot tell (no /readyz, not allowed): undefined', () => {
    for (const status of [200, 401, 403, 404]) expect(readyzVerdict(status, 'ok')).toBeUndefined();
  });
  it('another answer without checks says its status', () => {
    expect(readyzVerdict(503, 'Service Unavailable')).toBe('/readyz answered HTTP 503');
  });
});
