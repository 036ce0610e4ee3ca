import fs from 'node:fs';
import http2 from 'node:http2';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJsonClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';
import { oneContextKubeconfig } from '../../helpers/kubeconfig/one-context-kubeconfig.js';

/**
 * The HTTP/2 flow-control windows fleetdeck announces: what a server may send before it must wait
 * for the client (as the server sees them).
 */
describe('connection pool: HTTP/2 windows', () => {
  let server: http2.Http2SecureServer;
  let file = '';
  const sessions: http2.ServerHttp2Session[] = [];

  beforeAll(async () => {
    const ca = await createAuthority('pool-ca', 1);
    const leaf = await issueCertificate(ca, { commonName: 'api', hosts: ['127.0.0.1'], usage: 'server', days: 1 });
    server = http2.createSecureServer({ cert: leaf.certPem, key: leaf.keyPem });
    server.on('session', (s) => sessions.push(s));
    server.on('stream', (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      stream.end('{"major":"1","minor":"33","gitVersion":"v1.33.0"}');
    });
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
    file = oneContextKubeconfig(fs.mkdtempSync(path.join(os.tmpdir(), 'fd-pool-')), `https://127.0.0.1:${port}`, ca.certPem);
  });
  afterAll(async () => {
    for (const s of sessions) s.destroy();
    await new Promise((r) => server.close(r));
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('4 MiB a stream and 16 MiB a connection, as Go’s HTTP/2 client allows at least', async () => {
    const { config } = loadKubeconfig({ kubeconfig: file });
    await makeJsonClient(configForContext(config, 'c')).get('/version');
    const session = sessions.at(-1)!;
    expect(session.remoteSettings.initialWindowSize).toBe(4 * 1024 * 1024);
    expect(session.state.remoteWindowSize).toBeGreaterThanOrEqual(16 * 1024 * 1024 - 1024);
  });
});
