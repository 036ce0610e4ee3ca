import { describe, expect, it } from 'vitest';
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
} from '../../../src/sandbox/sim/processes.js';

describe('which containers run for real', () => {
  it('matches kube-apiserver and etcd images from any registry and tag, and the agent', () => {
    expect(containerKind({ name: 'x', image: 'registry.k8s.io/kube-apiserver:v1.28.4' })).toBe('kube-apiserver');
    expect(containerKind({ name: 'x', image: 'my.registry:5000/mirror/kube-apiserver:v1.25.0@sha256:abc' })).toBe('kube-apiserver');
    expect(containerKind({ name: 'x', image: 'registry.k8s.io/etcd:3.5.9-0' })).toBe('etcd');
    expect(containerKind({ name: 'x', image: 'quay.io/coreos/etcd:v3.4.23' })).toBe('etcd');
    expect(containerKind({ name: 'nova-agent', image: 'anything:1' })).toBe('nova-agent');
    expect(containerKind({ name: 'agent', image: 'elotl/nova-agent:v0.7.0' })).toBe('nova-agent');
    expect(containerKind({ name: 'x', image: 'ghcr.io/fleetdeck/fleetdeck:0.1.0' })).toBe('fleetdeck');
    expect(containerKind({ name: 'x', image: 'fleetdeck' })).toBe('fleetdeck');
    expect(containerKind({ name: 'x', image: 'localhost:5000/fleetdeck@sha256:abc' })).toBe('fleetdeck');
    for (const image of [
      'registry.k8s.io/kube-controller-manager:v1.28.4',
      'registry.k8s.io/kube-scheduler:v1.28.4',
      'registry.k8s.io/pause:3.9',
      'etcd-operator:1',
      'ghcr.io/fleetdeck/other:1',
      'fleetdeck-operator:1',
      'example.com/myfleetdeck:1',
    ]) {
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
    expect(env).toEqual({
      CM_mode: 'fast',
      POD_NAME: 'apiserver-1',
      POD_IP: '127.4.0.7',
      URL: 'https://127.4.0.7:6443/$(LATER)',
      TOKEN: 'abc',
      LATER: 'x',
    });
  });

  it('refuses a missing required Secret key or an unknown fieldRef', async () => {
    await expect(
      containerEnv(
        { env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] },
        { field: () => undefined, secret: async () => undefined },
      ),
    ).rejects.toThrow(/key "k" of secret "s" not found/);
    await expect(
      containerEnv({ env: [{ name: 'T', valueFrom: { fieldRef: { fieldPath: 'spec.nope' } } }] }, { field: () => undefined }),
    ).rejects.toThrow(/unsupported fieldRef/);
  });
});

describe('mount path rewriting', () => {
  const mounts = [
    { mountPath: '/etc/nova/pki', hostPath: '/sb/pods/p/volumes/pki' },
    { mountPath: '/etc/nova', hostPath: '/sb/pods/p/volumes/conf' },
    { mountPath: '/var/lib/etcd/', hostPath: '/sb/volumes/pvc-1' },
  ];

  it('rewrites whole paths and path prefixes, the longest mount first', () => {
    expect(rewriteMountPaths('--tls-cert-file=/etc/nova/pki/apiserver.crt', mounts)).toBe(
      '--tls-cert-file=/sb/pods/p/volumes/pki/apiserver.crt',
    );
    expect(rewriteMountPaths('--config=/etc/nova/config.yaml', mounts)).toBe('--config=/sb/pods/p/volumes/conf/config.yaml');
    expect(rewriteMountPaths('--data-dir=/var/lib/etcd', mounts)).toBe('--data-dir=/sb/volumes/pvc-1');
    expect(rewriteMountPaths('/etc/nova/pki/a.crt,/etc/nova/pki/b.crt', mounts)).toBe(
      '/sb/pods/p/volumes/pki/a.crt,/sb/pods/p/volumes/pki/b.crt',
    );
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
          '--metrics-listen',
          '0.0.0.0:9464',
          '--health-listen=:8081',
          '--listen-address=10.0.0.7:9000',
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
      '--metrics-listen',
      '127.4.0.3:9464',
      '--health-listen=127.4.0.3:8081',
      '--listen-address=10.0.0.7:9000',
    ]);
  });

  it('adds what keeps a binary on its address and in its directory when the args leave it at a default', () => {
    expect(sandboxDefaults('kube-apiserver', ['--secure-port=6443'], '127.4.0.2', '/sb/p')).toEqual([
      '--secure-port=6443',
      '--bind-address=127.4.0.2',
      '--advertise-address=127.4.0.2',
      '--cert-dir=/sb/p/apiserver-certs',
    ]);
    expect(
      sandboxDefaults(
        'kube-apiserver',
        ['--bind-address=127.4.0.2', '--advertise-address', '127.4.0.2', '--cert-dir=/x'],
        '127.4.0.2',
        '/sb/p',
      ),
    ).toHaveLength(4);
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
    expect(
      readinessPort(
        {
          ports: [
            { name: 'client', containerPort: 2379 },
            { name: 'peer', containerPort: 2380 },
          ],
          readinessProbe: { tcpSocket: { port: 'peer' } },
        },
        'etcd',
        [],
      ),
    ).toBe(2380);
    expect(readinessPort({}, 'etcd', ['--listen-client-urls=https://127.4.0.1:12379'])).toBe(12379);
    expect(
      readinessCheck(
        {
          ports: [{ containerPort: 6443 }],
          readinessProbe: { httpGet: { path: '/readyz', port: 6443, scheme: 'HTTPS' }, periodSeconds: 5 },
        },
        'kube-apiserver',
        [],
      ),
    ).toEqual({
      port: 6443,
      http: { scheme: 'HTTPS', path: '/readyz' },
      periodMs: 5000,
      failureThreshold: 3,
    });
    expect(readinessCheck({ ports: [{ containerPort: 2379 }] }, 'etcd', [])).toEqual({ port: 2379, periodMs: 10_000, failureThreshold: 3 });
  });
});
