import net from 'node:net';
import tls from 'node:tls';
import { KubeConfig, VersionApi } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { describeError, makeClient, makeJsonClient } from '../../../src/kube/transport/client.js';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';
import { setRequestTimeout } from '../../../src/kube/transport/request-timeout.js';
import {
  BODY_IDLE_MS,
  CONNECT_MS,
  deadlinesFor,
  FIRST_BYTE_MS,
  isCollectionPath,
  LONG_FIRST_BYTE_MS,
} from '../../../src/kube/transport/transport.js';

describe('collections (lists and watches) by path', () => {
  it.each([
    ['/api/v1/pods', true],
    ['/api/v1/namespaces', true],
    ['/api/v1/namespaces/elotl/pods', true],
    ['/apis/apps/v1/namespaces/elotl/deployments', true],
    ['/apis/cluster.elotl.co/v1alpha1/clusters', true],
    ['/api/v1/namespaces/elotl', false],
    ['/api/v1/namespaces/elotl/pods/p-1', false],
    ['/api/v1/nodes/n-1/status', false],
    ['/apis/apps/v1', false],
    ['/api', false],
    ['/version', false],
  ])('%s → %s', (path, collection) => {
    expect(isCollectionPath(path)).toBe(collection);
  });
});

describe('deadlines of a request', () => {
  const url = (s: string) => new URL(`https://example:6443${s}`);

  it('a single request: short connect and first byte, the caller’s whole deadline', () => {
    expect(deadlinesFor('GET', url('/version'), 3_000, undefined)).toEqual({
      connectMs: CONNECT_MS,
      firstByteMs: FIRST_BYTE_MS,
      totalMs: 3_000,
      bodyIdleMs: BODY_IDLE_MS,
    });
  });

  it('lists and writes wait longer for their first byte', () => {
    expect(deadlinesFor('GET', url('/api/v1/pods?limit=500'), 10_000, undefined).firstByteMs).toBe(LONG_FIRST_BYTE_MS);
    expect(deadlinesFor('POST', url('/api/v1/namespaces/x/pods/p/eviction'), 30_000, undefined).firstByteMs).toBe(LONG_FIRST_BYTE_MS);
    expect(deadlinesFor('PATCH', url('/api/v1/nodes/n-1'), 10_000, undefined).firstByteMs).toBe(LONG_FIRST_BYTE_MS);
    expect(deadlinesFor('GET', url('/api/v1/nodes/n-1'), 10_000, undefined).firstByteMs).toBe(FIRST_BYTE_MS);
  });

  it('a watch has no whole deadline and may stay quiet until its server-side timeout has passed', () => {
    const d = deadlinesFor('GET', url('/api/v1/nodes?watch=true&timeoutSeconds=240'), 10_000, 20_000);
    expect(d.totalMs).toBeUndefined();
    expect(d.firstByteMs).toBe(20_000);
    expect(d.bodyIdleMs).toBe(270_000);
  });

  it('--request-timeout replaces the caller’s whole deadline; 0 means none', () => {
    expect(deadlinesFor('GET', url('/version'), 3_000, 60_000).totalMs).toBe(60_000);
    expect(deadlinesFor('GET', url('/version'), 3_000, 1_000).totalMs).toBe(1_000);
    expect(deadlinesFor('GET', url('/version'), 3_000, 0).totalMs).toBeUndefined();
  });

  it('a longer --request-timeout stretches the connect and first-byte deadlines; a shorter one leaves them', () => {
    expect(deadlinesFor('GET', url('/version'), undefined, 60_000)).toMatchObject({ connectMs: 60_000, firstByteMs: 60_000 });
    expect(deadlinesFor('GET', url('/version'), undefined, 1_000)).toMatchObject({ connectMs: CONNECT_MS, firstByteMs: FIRST_BYTE_MS });
  });
});

/** A KubeConfig whose one context points at `server`. */
function kubeconfigFor(server: string, caPem?: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, ...(caPem ? { caData: Buffer.from(caPem).toString('base64') } : { skipTLSVerify: false }) }],
    users: [{ name: 'u', token: 'not-a-secret' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

/** Network faults, not API servers: one accepts TCP and says nothing, one completes TLS and says nothing. */
describe('a server that accepts connections and never answers', () => {
  const sockets = new Set<net.Socket>();
  const hold = (s: net.Socket) => {
    sockets.add(s);
    s.on('error', () => {});
  };
  const silentTcp = net.createServer(hold);
  let silentTls: tls.Server;
  let tcpPort = 0;
  let tlsPort = 0;
  let caPem = '';

  beforeAll(async () => {
    const ca = await createAuthority('silent-ca', 1);
    const leaf = await issueCertificate(ca, { commonName: 'silent', hosts: ['127.0.0.1'], usage: 'server', days: 1 });
    caPem = ca.certPem;
    silentTls = tls.createServer({ cert: leaf.certPem, key: leaf.keyPem }, hold);
    tcpPort = await listen(silentTcp);
    tlsPort = await listen(silentTls);
  });
  afterEach(() => setRequestTimeout(undefined));
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await Promise.all([new Promise((r) => silentTcp.close(r)), new Promise((r) => silentTls.close(r))]);
  });

  it('no TLS handshake: the request fails saying TCP connected and TLS did not', async () => {
    setRequestTimeout(1_000);
    const err = await makeClient(kubeconfigFor(`https://127.0.0.1:${tcpPort}`), VersionApi)
      .getCode()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(describeError(err)).toBe('no TLS handshake within 1s (TCP connect ok)');
  });

  it('connected, no answer: the request fails saying the server did not respond', async () => {
    setRequestTimeout(1_000);
    const err = await makeJsonClient(kubeconfigFor(`https://127.0.0.1:${tlsPort}`, caPem))
      .get('/version')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(describeError(err)).toBe('no response from the server within 1s (connect ok)');
  });
});

describe('a port with nothing listening', () => {
  it('says connection refused', async () => {
    const free = net.createServer();
    const port = await listen(free);
    await new Promise((r) => free.close(r));
    const err = await makeClient(kubeconfigFor(`https://127.0.0.1:${port}`), VersionApi)
      .getCode()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(describeError(err)).toBe('connection refused');
  });
});

describe('deadlinesFor a followed container log', () => {
  it('has no whole or idle deadline, but still the connect and first-byte ones', () => {
    const d = deadlinesFor('GET', new URL('https://h/api/v1/namespaces/a/pods/p/log?container=c&follow=true'), 10_000, undefined);
    expect(d.totalMs).toBeUndefined();
    expect(d.bodyIdleMs).toBe(0);
    expect(d.connectMs).toBeGreaterThan(0);
    const once = deadlinesFor('GET', new URL('https://h/api/v1/namespaces/a/pods/p/log?container=c'), 10_000, undefined);
    expect(once.totalMs).toBe(10_000);
    expect(once.bodyIdleMs).toBeGreaterThan(0);
  });
});
