import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../../src/kube/api/apply.js';
import {
  agentOrder,
  componentOf,
  imageChanges,
  mainImage,
  novaLine,
  removedObjects,
  skewChecks,
  tagVersion,
} from '../../../src/day2/upgrade/rules.js';

const deployment = (name: string, containers: { name: string; image: string }[], ns = 'elotl'): Manifest => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: { template: { spec: { containers } } },
});
const configMap = (name: string): Manifest => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'elotl' } });

describe('componentOf', () => {
  it('names the component whose workload the object is, nothing for other objects', () => {
    expect(componentOf(deployment('apiserver', []))).toBe('apiserver');
    expect(componentOf(deployment('nova-scheduler', []))).toBe('scheduler');
    expect(componentOf({ ...deployment('etcd', []), kind: 'StatefulSet' })).toBe('etcd');
    expect(componentOf({ ...deployment('etcd', []), kind: 'Service' })).toBeUndefined();
    expect(componentOf(configMap('apiserver'))).toBeUndefined();
  });
});

describe('imageChanges', () => {
  it('lists each container whose image changes, old → new, and new or removed containers', () => {
    const before = [
      deployment('apiserver', [
        { name: 'kube-apiserver', image: 'k/kube-apiserver:v1.28.4' },
        { name: 'old', image: 'x:1' },
      ]),
    ];
    const after = [
      deployment('apiserver', [
        { name: 'kube-apiserver', image: 'k/kube-apiserver:v1.28.5' },
        { name: 'sidecar', image: 's:1' },
      ]),
      deployment('fresh', [{ name: 'c', image: 'c:1' }]),
    ];
    expect(imageChanges('hosting', before, after)).toEqual([
      {
        context: 'hosting',
        workload: 'Deployment elotl/apiserver',
        container: 'kube-apiserver',
        from: 'k/kube-apiserver:v1.28.4',
        to: 'k/kube-apiserver:v1.28.5',
      },
      { context: 'hosting', workload: 'Deployment elotl/apiserver', container: 'sidecar', to: 's:1' },
      { context: 'hosting', workload: 'Deployment elotl/apiserver', container: 'old', from: 'x:1' },
      { context: 'hosting', workload: 'Deployment elotl/fresh', container: 'c', to: 'c:1' },
    ]);
  });

  it('is empty when no image changes', () => {
    const d = deployment('apiserver', [{ name: 'a', image: 'a:1' }]);
    expect(imageChanges('h', [d], [structuredClone(d)])).toEqual([]);
    expect(mainImage(d)).toBe('a:1');
    expect(mainImage(configMap('x'))).toBeUndefined();
  });
});

describe('removedObjects', () => {
  it('keeps the objects of the previous bundle the next one does not have (by group, kind, namespace and name)', () => {
    const prev = [configMap('a'), configMap('b'), deployment('x', [])];
    const next = [configMap('a'), deployment('x', []), { ...deployment('b', []), apiVersion: 'extensions/v1beta1' }];
    expect(removedObjects(prev, next).map((o) => o.metadata.name)).toEqual(['b']);
  });
});

describe('tagVersion and novaLine', () => {
  it('reads major.minor from a tag, registry ports and digests aside', () => {
    expect(tagVersion('registry.k8s.io/kube-apiserver:v1.28.4')).toEqual({ major: 1, minor: 28 });
    expect(tagVersion('registry:5000/etcd:3.5.9-0@sha256:abc')).toEqual({ major: 3, minor: 5 });
    expect(tagVersion('registry:5000/etcd')).toBeUndefined();
    expect(tagVersion('x:latest')).toBeUndefined();
    expect(novaLine('elotl/nova-agent:v0.7.1')).toBe('v0.7');
  });
});

describe('skewChecks', () => {
  const img = (name: string, v: string) => `registry.k8s.io/${name}:${v}`;
  it('passes a patch upgrade of every component', () => {
    const checks = skewChecks({
      etcd: { from: img('etcd', '3.5.9-0'), to: img('etcd', '3.5.10-0') },
      apiserver: { from: img('kube-apiserver', 'v1.28.4'), to: img('kube-apiserver', 'v1.28.5') },
      'controller-manager': { from: img('kube-controller-manager', 'v1.28.4'), to: img('kube-controller-manager', 'v1.28.5') },
      scheduler: { to: img('kube-scheduler', 'v1.27.0') },
    });
    expect(checks.map((c) => c.state)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('refuses skipping an API server minor version, a controller newer than the API server, and an etcd downgrade', () => {
    const checks = skewChecks({
      etcd: { from: img('etcd', '3.5.9-0'), to: img('etcd', '3.4.13-0') },
      apiserver: { from: img('kube-apiserver', 'v1.26.0'), to: img('kube-apiserver', 'v1.28.0') },
      'controller-manager': { to: img('kube-controller-manager', 'v1.29.0') },
      scheduler: { to: img('kube-scheduler', 'v1.26.0') },
    });
    expect(checks.map((c) => [c.rule, c.state])).toEqual([
      ['kube-apiserver one minor at a time', 'fail'],
      ["kube-controller-manager within kube-apiserver's version", 'fail'],
      ["scheduler within kube-apiserver's version", 'fail'],
      ['etcd never downgraded', 'fail'],
    ]);
    expect(checks[0]?.detail).toContain('1.26 → 1.28');
  });

  it('warns on an API server downgrade of one minor and on tags that name no version', () => {
    const checks = skewChecks({
      apiserver: { from: img('kube-apiserver', 'v1.28.0'), to: img('kube-apiserver', 'v1.27.3') },
      scheduler: { to: 'example/scheduler:latest' },
    });
    expect(checks.map((c) => c.state)).toEqual(['warn', 'warn']);
  });
});

describe('agentOrder', () => {
  it('starts with the canary, else the first cluster', () => {
    expect(agentOrder(['a', 'b', 'c'], 'b')).toEqual(['b', 'a', 'c']);
    expect(agentOrder(['a', 'b'])).toEqual(['a', 'b']);
    expect(agentOrder([])).toEqual([]);
  });
});
