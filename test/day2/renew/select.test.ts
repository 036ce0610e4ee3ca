import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { leafSpecs } from '../../../src/install/certs/specs.js';
import { placeOf, selectLeaves } from '../../../src/day2/renew/select.js';

const leaves = leafSpecs('elotl', { ip: '10.0.0.1' }, 3);
const ids = (names: string[]) => selectLeaves(names, leaves).map((l) => l.id);

describe('selectLeaves', () => {
  it('all (or nothing named) is every leaf in the install order', () => {
    expect(ids(['all'])).toEqual(leaves.map((l) => l.id));
    expect(ids([])).toHaveLength(13);
  });

  it('takes the names fleetdeck certs shows, init-kubeconfig meaning the bootstrap certificate, in the install order', () => {
    expect(ids(['admin', 'etcd-1-peer', 'init-kubeconfig', 'apiserver'])).toEqual(['apiserver', 'etcd-1-peer', 'admin', 'agent-bootstrap']);
  });

  it('refuses a CA (it needs --rotate-ca), the service-account key and unknown names with a usage error', () => {
    expect(() => ids(['cluster-ca'])).toThrow(UsageError);
    expect(() => ids(['cluster-ca'])).toThrow(/--rotate-ca/);
    expect(() => ids(['service-account-key'])).toThrow(/nothing to renew/);
    expect(() => ids(['etcd-3-server'])).toThrow(/no certificate named "etcd-3-server" \(renewable: all, apiserver,/);
  });
});

describe('placeOf', () => {
  it('names the Secret and who reloads each leaf', () => {
    expect(placeOf('etcd-2-server')).toMatchObject({ secret: 'nova-etcd-certs', consumer: { component: { id: 'etcd' } } });
    expect(placeOf('front-proxy-client')).toMatchObject({ secret: 'nova-apiserver-certs', consumer: { component: { id: 'apiserver' } } });
    expect(placeOf('scheduler')).toMatchObject({ secret: 'nova-scheduler', consumer: { component: { id: 'nova-scheduler' } } });
    expect(placeOf('admin')).toEqual({ secret: 'nova-admin', consumer: { kubeconfigs: 'admin' } });
    expect(placeOf('agent-bootstrap')).toEqual({ secret: 'nova-agent-bootstrap', consumer: { kubeconfigs: 'agent' } });
  });
});
