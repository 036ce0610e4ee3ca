import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { renderHosts, serviceHostEntries, type PodAddress } from '../../../src/sandbox/sim/hosts.js';

describe('names as inside a cluster', () => {
  const pod = (name: string, ip: string, ready: boolean, extra: Partial<PodAddress> = {}): PodAddress => ({
    uid: name,
    namespace: 'elotl',
    name,
    labels: { app: 'etcd' },
    ip,
    ready,
    ports: [],
    ...extra,
  });
  const svc = (name: string, spec: V1Service['spec']): V1Service => ({ metadata: { name, namespace: 'elotl', uid: name }, spec });

  it('resolves a headless Service to its pods, each pod by name, and other Services to their virtual address', () => {
    const pods = [
      pod('etcd-0', '127.4.0.1', true, { hostname: 'etcd-0', subdomain: 'etcd' }),
      pod('etcd-1', '127.4.0.2', false, { hostname: 'etcd-1', subdomain: 'etcd' }),
      pod('apiserver-x', '127.4.0.3', true, { labels: { component: 'apiserver' } }),
      pod('elsewhere', '127.4.0.9', true, { namespace: 'other' }),
    ];
    const services = [
      svc('etcd', { clusterIP: 'None', publishNotReadyAddresses: true, selector: { app: 'etcd' } }),
      svc('etcd-ready', { clusterIP: 'None', selector: { app: 'etcd' } }),
      svc('apiserver', { type: 'LoadBalancer', selector: { component: 'apiserver' }, ports: [{ port: 443 }] }),
      svc('no-vip', { selector: { app: 'none' } }),
    ];
    const entries = serviceHostEntries(services, pods, new Map([['elotl/apiserver', '127.5.0.1']]));
    const text = renderHosts(entries, 'test');
    expect(text.split('\n').slice(0, 3)).toEqual(['# test', '127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback']);
    expect(text).toContain(
      '127.4.0.1\tetcd.elotl.svc etcd.elotl.svc.cluster.local etcd-0.etcd.elotl.svc etcd-0.etcd.elotl.svc.cluster.local\n',
    );
    expect(text).toContain(
      '127.4.0.2\tetcd.elotl.svc etcd.elotl.svc.cluster.local etcd-1.etcd.elotl.svc etcd-1.etcd.elotl.svc.cluster.local\n',
    );
    // Without publishNotReadyAddresses only Ready pods; a pod without a matching subdomain by its name.
    expect(text).toContain(
      '127.4.0.1\tetcd-ready.elotl.svc etcd-ready.elotl.svc.cluster.local etcd-0.etcd-ready.elotl.svc etcd-0.etcd-ready.elotl.svc.cluster.local\n',
    );
    expect(text).not.toContain('127.4.0.2\tetcd-ready');
    expect(text).toContain('127.5.0.1\tapiserver.elotl.svc apiserver.elotl.svc.cluster.local\n');
    expect(text).not.toContain('no-vip');
    expect(text).not.toContain('127.4.0.9');
  });

  it('renders a stable file whatever the order of its entries', () => {
    const a = { ip: '127.4.0.2', names: ['b.ns.svc'] };
    const b = { ip: '127.4.0.1', names: ['a.ns.svc'] };
    expect(renderHosts([a, b, a], 't')).toBe(renderHosts([b, a], 't'));
  });
});
