import fs from 'node:fs';
import net from 'node:net';
import { CoreV1Api, VersionApi } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { describeError, makeClient, makeJsonClient, statusCode } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;

/** Socket inodes this process holds open. */
function ownSockets(): Set<string> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/self/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** Established TCP connections of this process to 127.0.0.1:<port>. */
function connectionsTo(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const mine = ownSockets();
  return fs
    .readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => {
      const f = l.trim().split(/\s+/);
      return f[2] === `0100007F:${hexPort}` && f[3] === '01' && mine.has(f[9] ?? '');
    }).length;
}

describe('connections', () => {
  it('requests of one context share one keep-alive connection (one TLS handshake)', async () => {
    const kc = configForContext(loadKubeconfig({ kubeconfig }).config, 'kind-workload-1');
    const port = Number(new URL(kc.getCurrentCluster()!.server).port);
    const version = makeClient(kc, VersionApi);
    const core = makeClient(kc, CoreV1Api);
    const json = makeJsonClient(kc);
    for (let i = 0; i < 5; i++) {
      await version.getCode();
      await core.listNode();
      await json.get('/api/v1/nodes', { limit: 1 });
    }
    // Fifteen sequential requests through three clients: one kept-alive connection, not fifteen.
    expect(connectionsTo(port)).toBe(1);
  });
});

describe('plain JSON reads (the initial lists)', () => {
  const config = () => loadKubeconfig({ kubeconfig }).config;

  it('return the objects as the server sent them, timestamps as strings', async () => {
    const kc = configForContext(config(), 'kind-workload-1');
    const typed = await makeClient(kc, CoreV1Api).listNode();
    const raw = await makeJsonClient(kc).get<{ kind: string; items: { metadata: { name: string; creationTimestamp: string } }[] }>(
      '/api/v1/nodes',
    );
    expect(raw.kind).toBe('NodeList');
    expect(raw.items.map((n) => n.metadata.name).sort()).toEqual(typed.items.map((n) => n.metadata!.name!).sort());
    expect(typeof raw.items[0]!.metadata.creationTimestamp).toBe('string');
  });

  it("fail with the status code and the server's message, as the typed clients do", async () => {
    const kc = configForContext(loadKubeconfig({ kubeconfig: sandbox().readOnlyKubeconfig }).config, 'kind-workload-1');
    const err = await makeJsonClient(kc)
      .get('/api/v1/secrets')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(statusCode(err)).toBe(403);
    expect(describeError(err)).toMatch(/^HTTP 403: secrets is forbidden: User "[^"]+" cannot list resource "secrets"/);
    const missing = await makeJsonClient(configForContext(config(), 'kind-workload-1'))
      .get('/apis/example.com/v1/nothings')
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(statusCode(missing)).toBe(404);
  });

  it('time out against a server that accepts the connection and never answers', async () => {
    const server = net.createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const kc = configForContext(config(), 'kind-workload-1');
      const port = (server.address() as net.AddressInfo).port;
      kc.clusters = kc.clusters.map((c) => ({ ...c, server: `https://127.0.0.1:${port}` }));
      const err = await makeJsonClient(kc, 300)
        .get('/api/v1/nodes')
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      // The caller's whole deadline ran out while the TLS handshake was pending.
      expect(describeError(err)).toBe('no TLS handshake within 300ms (TCP connect ok)');
    } finally {
      server.close();
    }
  });
});
