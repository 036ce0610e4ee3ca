import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { agentConditions } from '../../src/sandbox/sim/containers.js';
import { AddressPool, HostnameDirectory } from '../../src/sandbox/sim/context.js';
import { renderHosts, serviceHostEntries, type PodAddress } from '../../src/sandbox/sim/network.js';
import {
  containerEnv,
  containerKind,
  expandVars,
  flagValue,
  readinessCheck,
  readinessPort,
  rewriteListenArgs,
  rewriteMountPaths,
  sandboxDefaults,
} from '../../src/sandbox/sim/processes.js';

describe('which containers run for real', () => {
  it('matches kube-apiserver and etcd images from any registry and tag, and the agent', () => {
    expect(containerKind({ name: 'x', image: 'registry.k8s.io/kube-apiserver:v1.28.4' })).toBe('kube-apiserver');
    expect(containerKind({ name: 'x', image: 'my.registry:5000/mirror/kube-apiserver:v1.25.0@sha256:abc' })).toBe('kube-apiserver');
    expect(containerKind({ name: 'x', image: 'registry.k8s.io/etcd:3.5.9-0' })).toBe('etcd');
    expect(containerKind({ name: 'x', image: 'quay.io/coreos/etcd:v3.4.23' })).toBe('etcd');
    expect(containerKind({ name: 'nova-agent', image: 'anything:1' })).toBe('nova-agent');
    expect(containerKind({ name: 'agent', image: 'elotl/nova-agent:v0.7.0' })).toBe('nova-agent');
    for (const image of ['registry.k8s.io/kube-controller-manager:v1.28.4', 'registry.k8s.io/kube-scheduler:v1.28.4', 'registry.k8s.io/pause:3.9', 'etcd-operator:1']) {
      expect(containerKind({ name: 'x', image })).toBeUndefined();
    }
  });
});

describe('$(VAR) expansion', () => {
  const vars = { POD_NAME: 'etcd-0', POD_NAMESPACE: 'elotl', EMPTY: '' };

  it('replaces defined variables and keeps undefined ones as written', () => {
    expect(expandVars('--name=$(POD_NAME)', vars)).toBe('--name=etcd-0');
    expect(expandVars('https://$(POD_NAME).etcd.$(POD_NAMESPACE).svc:2380', vars)).toBe('https://etcd-0.etcd.elotl.svc:2380');
    expect(expandVars('$(MISSING)/x', vars)).toBe('$(MISSING)/x');
    expect(expandVars('a$(EMPTY)b', vars)).toBe('ab');
  });

  it('treats $$ as an escaped $ and leaves other dollars alone', () => {
    expect(expandVars('$$(POD_NAME)', vars)).toBe('$(POD_NAME)');
    expect(expandVars('cost: $5 $', vars)).toBe('cost: $5 $');
    expect(expandVars('$(unclosed', vars)).toBe('$(unclosed');
    expect(expandVars('$$$$', vars)).toBe('$$');
  });

  it('builds the environment from literals, fieldRefs, Secrets and earlier variables', async () => {
    const fields: Record<string, string> = { 'metadata.name': 'apiserver-1', 'metadata.namespace': 'elotl', 'status.podIP': '127.4.0.7' };
    const env = await containerEnv(
      {
        envFrom: [{ configMapRef: { name: 'cm' }, prefix: 'CM_' }],
        env: [
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
          { name: 'URL', value: 'https://$(POD_IP):6443/$(LATER)' },
          { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'token' } } },
          { name: 'LATER', value: 'x' },
        ],
      },
      {
        field: (f) => fields[f],
        secret: async (n) => (n === 's' ? { token: 'abc' } : undefined),
        configMap: async (n) => (n === 'cm' ? { mode: 'fast' } : undefined),
      },
    );
    expect(env).toEqual({ CM_mode: 'fast', POD_NAME: 'apiserver-1', POD_IP: '127.4.0.7', URL: 'https://127.4.0.7:6443/$(LATER)', TOKEN: 'abc', LATER: 'x' });
  });

  it('refuses a missing required Secret key or an unknown fieldRef', async () => {
    await expect(containerEnv({ env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] }, { field: () => undefined, secret: async () => undefined })).rejects.toThrow(/key "k" of secret "s" not found/);
    await expect(containerEnv({ env: [{ name: 'T', valueFrom: { fieldRef: { fieldPath: 'spec.nope' } } }] }, { field: () => undefined })).rejects.toThrow(/unsupported fieldRef/);
  });
});

describe('mount path rewriting', () => {
  const mounts = [
    { mountPath: '/etc/nova/pki', hostPath: '/sb/pods/p/volumes/pki' },
    { mountPath: '/etc/nova', hostPath: '/sb/pods/p/volumes/conf' },
    { mountPath: '/var/lib/etcd/', hostPath: '/sb/volumes/pvc-1' },
  ];

  it('rewrites whole paths and path prefixes, the longest mount first', () => {
    expect(rewriteMountPaths('--tls-cert-file=/etc/nova/pki/apiserver.crt', mounts)).toBe('--tls-cert-file=/sb/pods/p/volumes/pki/apiserver.crt');
    expect(rewriteMountPaths('--config=/etc/nova/config.yaml', mounts)).toBe('--config=/sb/pods/p/volumes/conf/config.yaml');
    expect(rewriteMountPaths('--data-dir=/var/lib/etcd', mounts)).toBe('--data-dir=/sb/volumes/pvc-1');
    expect(rewriteMountPaths('/etc/nova/pki/a.crt,/etc/nova/pki/b.crt', mounts)).toBe('/sb/pods/p/volumes/pki/a.crt,/sb/pods/p/volumes/pki/b.crt');
  });

  it('leaves paths that only share a prefix, and paths inside other paths, alone', () => {
    expect(rewriteMountPaths('--x=/etc/nova/pki2/a', mounts)).toBe('--x=/sb/pods/p/volumes/conf/pki2/a');
    expect(rewriteMountPaths('--x=/etc/novaX/a', mounts)).toBe('--x=/etc/novaX/a');
    expect(rewriteMountPaths('--x=/opt/etc/nova/a', mounts)).toBe('--x=/opt/etc/nova/a');
    expect(rewriteMountPaths('no paths here', mounts)).toBe('no paths here');
  });
});

describe('listen addresses', () => {
  it('points wildcard and loopback listen URLs at the pod address and drops duplicates', () => {
    expect(
      rewriteListenArgs(
        [
          '--listen-client-urls=https://0.0.0.0:2379,https://127.0.0.1:2379',
          '--listen-peer-urls',
          'https://[::]:2380',
          '--bind-address=0.0.0.0',
          '--listen-metrics-urls=http://localhost:2381',
          '--advertise-client-urls=https://etcd-0.etcd.elotl.svc:2379',
          '--etcd-servers=https://127.0.0.1:2379',
          '--cors=0.0.0.0/0',
          '--foo=0.0.0.0',
        ],
        '127.4.0.3',
      ),
    ).toEqual([
      '--listen-client-urls=https://127.4.0.3:2379',
      '--listen-peer-urls',
      'https://127.4.0.3:2380',
      '--bind-address=127.4.0.3',
      '--listen-metrics-urls=http://127.4.0.3:2381',
      '--advertise-client-urls=https://etcd-0.etcd.elotl.svc:2379',
      '--etcd-servers=https://127.0.0.1:2379',
      '--cors=0.0.0.0/0',
      '--foo=127.4.0.3',
    ]);
  });

  it('adds what keeps a binary on its address and in its directory when the args leave it at a default', () => {
    expect(sandboxDefaults('kube-apiserver', ['--secure-port=6443'], '127.4.0.2', '/sb/p')).toEqual([
      '--secure-port=6443',
      '--bind-address=127.4.0.2',
      '--advertise-address=127.4.0.2',
      '--cert-dir=/sb/p/apiserver-certs',
    ]);
    expect(sandboxDefaults('kube-apiserver', ['--bind-address=127.4.0.2', '--advertise-address', '127.4.0.2', '--cert-dir=/x'], '127.4.0.2', '/sb/p')).toHaveLength(4);
    expect(sandboxDefaults('etcd', ['--name=e'], '127.4.0.1', '/sb/p')).toEqual([
      '--name=e',
      '--listen-client-urls=http://127.4.0.1:2379',
      '--advertise-client-urls=http://127.4.0.1:2379',
      '--listen-peer-urls=http://127.4.0.1:2380',
      '--initial-advertise-peer-urls=http://127.4.0.1:2380',
      '--initial-cluster=e=http://127.4.0.1:2380',
      '--data-dir=/sb/p/etcd-data',
    ]);
  });

  it('reads flags in every form Go accepts, and finds the port to check readiness on', () => {
    const argv = ['--a=1', '-b', '2', '--c', '--secure-port=7443'];
    expect([flagValue(argv, 'a'), flagValue(argv, 'b'), flagValue(argv, 'c'), flagValue(argv, 'd')]).toEqual(['1', '2', 'true', undefined]);
    expect(readinessPort({}, 'kube-apiserver', argv)).toBe(7443);
    expect(readinessPort({ ports: [{ name: 'https', containerPort: 6443 }] }, 'kube-apiserver', argv)).toBe(6443);
    expect(readinessPort({ ports: [{ name: 'client', containerPort: 2379 }, { name: 'peer', containerPort: 2380 }], readinessProbe: { tcpSocket: { port: 'peer' } } }, 'etcd', [])).toBe(2380);
    expect(readinessPort({}, 'etcd', ['--listen-client-urls=https://127.4.0.1:12379'])).toBe(12379);
    expect(readinessCheck({ ports: [{ containerPort: 6443 }], readinessProbe: { httpGet: { path: '/readyz', port: 6443, scheme: 'HTTPS' }, periodSeconds: 5 } }, 'kube-apiserver', [])).toEqual({
      port: 6443,
      http: { scheme: 'HTTPS', path: '/readyz' },
      periodMs: 5000,
      failureThreshold: 3,
    });
    expect(readinessCheck({ ports: [{ containerPort: 2379 }] }, 'etcd', [])).toEqual({ port: 2379, periodMs: 10_000, failureThreshold: 3 });
  });
});

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
    expect(text).toContain('127.4.0.1\tetcd.elotl.svc etcd.elotl.svc.cluster.local etcd-0.etcd.elotl.svc etcd-0.etcd.elotl.svc.cluster.local\n');
    expect(text).toContain('127.4.0.2\tetcd.elotl.svc etcd.elotl.svc.cluster.local etcd-1.etcd.elotl.svc etcd-1.etcd.elotl.svc.cluster.local\n');
    // Without publishNotReadyAddresses only Ready pods; a pod without a matching subdomain by its name.
    expect(text).toContain('127.4.0.1\tetcd-ready.elotl.svc etcd-ready.elotl.svc.cluster.local etcd-0.etcd-ready.elotl.svc etcd-0.etcd-ready.elotl.svc.cluster.local\n');
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

  it('shares load-balancer hostnames between clusters', () => {
    const dir = new HostnameDirectory();
    let changes = 0;
    dir.onChange(() => changes++);
    dir.publish('cp', new Map([['apiserver.elotl.lb.sandbox.local', '127.5.0.1']]));
    dir.publish('cp', new Map([['apiserver.elotl.lb.sandbox.local', '127.5.0.1']]));
    expect(changes).toBe(1);
    expect(dir.lookup('APIServer.elotl.lb.sandbox.local.')).toBe('127.5.0.1');
    expect(dir.lookup('other.lb.sandbox.local')).toBeUndefined();
  });

  it('hands out addresses a check accepts, skipping the others', async () => {
    const pool = new AddressPool([127, 4, 0]);
    const taken = new Set(['127.4.0.1', '127.4.0.2']);
    expect(await pool.allocateUsable(async (ip) => !taken.has(ip))).toBe('127.4.0.3');
    expect(pool.isUsed('127.4.0.1')).toBe(false);
    expect(pool.isUsed('127.4.0.3')).toBe(true);
  });
});

describe('the agent’s Cluster conditions', () => {
  it('reports Ready, Idle and not Standby, keeping transition times while nothing changes', () => {
    const first = agentConditions(undefined, 't1');
    expect(first.map((c) => [c.type, c.status, c.lastTransitionTime, c.lastHeartbeatTime])).toEqual([
      ['Ready', 'True', 't1', 't1'],
      ['Idle', 'True', 't1', 't1'],
      ['Standby', 'False', 't1', 't1'],
    ]);
    const previous = [{ ...first[0]!, status: 'False' }, first[1]!, first[2]!];
    const next = agentConditions(previous, 't2');
    expect(next.map((c) => [c.type, c.lastTransitionTime, c.lastHeartbeatTime])).toEqual([
      ['Ready', 't2', 't2'],
      ['Idle', 't1', 't2'],
      ['Standby', 't1', 't2'],
    ]);
  });
});
