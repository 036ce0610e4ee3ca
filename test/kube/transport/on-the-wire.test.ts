import fs from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJsonClient } from '../../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { requestsOnTheWire } from '../../../src/kube/transport/on-the-wire.js';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';
import { oneContextKubeconfig } from '../../helpers/kubeconfig/one-context-kubeconfig.js';

const clientOf = (file: string) => makeJsonClient(configForContext(loadKubeconfig({ kubeconfig: file }).config, 'c'), 60_000);

describe('requests on the wire (what the dashboard waits for before loading its screens)', () => {
  let dir = '';
  let caPem = '';
  let api: http2.Http2SecureServer;
  let apiUrl = '';
  /** Accepts TCP connections and never answers: no TLS handshake. */
  let silent: net.Server;
  let silentUrl = '';
  const silentSockets: net.Socket[] = [];
  let helloBytes = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-wire-'));
    const ca = await createAuthority('wire-ca', 1);
    caPem = ca.certPem;
    const leaf = await issueCertificate(ca, { commonName: 'api', hosts: ['127.0.0.1'], usage: 'server', days: 1 });
    api = http2.createSecureServer({ cert: leaf.certPem, key: leaf.keyPem });
    api.on('stream', (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/json' });
      stream.end('{"major":"1","minor":"33","gitVersion":"v1.33.0"}');
    });
    silent = net.createServer((s) => {
      silentSockets.push(s);
      s.on('data', (d: Buffer) => (helloBytes += d.length));
    });
    const listen = (s: net.Server) =>
      new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as net.AddressInfo).port)));
    apiUrl = `https://127.0.0.1:${await listen(api)}`;
    silentUrl = `https://127.0.0.1:${await listen(silent)}`;
  });
  afterAll(async () => {
    for (const s of silentSockets) s.destroy();
    await Promise.all([new Promise((r) => api.close(r)), new Promise((r) => silent.close(r))]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('with no request in flight: at once', async () => {
    expect(await wireThisTurn()).toBe('resolved');
  });

  it('a request to a server that answers: once it has its connection', async () => {
    const answer = clientOf(oneContextKubeconfig(dir, apiUrl, caPem)).get('/version');
    await requestsOnTheWire(60_000);
    expect(await answer).toMatchObject({ gitVersion: 'v1.33.0' });
  });

  it('waits while a request has no connection (its TLS handshake unanswered), and lets go when it fails', async () => {
    const answer = clientOf(oneContextKubeconfig(dir, silentUrl, caPem))
      .get('/version')
      .then(
        () => 'answered',
        () => 'failed',
      );
    const wire = requestsOnTheWire(60_000).then(() => 'resolved');
    // The client's hello has reached the server, which will never answer it.
    await eventually(() => helloBytes > 0);
    const first = await Promise.race([wire, new Promise((r) => setImmediate(() => r('waiting')))]);
    expect(first).toBe('waiting');
    for (const s of silentSockets.splice(0)) s.destroy();
    expect(await answer).toBe('failed');
    expect(await wire).toBe('resolved');
  });

  it('a server slow to accept: no longer than the bound', async () => {
    let settled = false;
    const answer = clientOf(oneContextKubeconfig(dir, silentUrl, caPem))
      .get('/version')
      .then(
        () => 'answered',
        () => 'failed',
      )
      .finally(() => (settled = true));
    await requestsOnTheWire(50);
    expect(settled).toBe(false);
    for (const s of silentSockets.splice(0)) s.destroy();
    expect(await answer).toBe('failed');
    // Failed: nothing is left in flight (a count left behind would hold this for a minute).
    expect(await wireThisTurn()).toBe('resolved');
  });
});

/** 'resolved' if `requestsOnTheWire` (bound a minute) resolves in the turn of the event loop it is called in, else 'waiting'. */
async function wireThisTurn(): Promise<string> {
  const wire = requestsOnTheWire(60_000).then(() => 'resolved');
  return Promise.race([wire, new Promise<string>((r) => setImmediate(() => r('waiting')))]);
}

/** Resolves once `cond()` holds (checked every few ms). */
async function eventually(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}
