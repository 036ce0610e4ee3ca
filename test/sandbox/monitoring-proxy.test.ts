import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PodProxy } from '../../src/sandbox/monitoring-proxy.js';

/** A pod's process: serves /metrics on 127.0.0.1. */
let server: http.Server;
let port = 0;
/** A port where nothing listens (taken and released). */
let closedPort = 0;
const proxy = new PodProxy((podIP) => (podIP === '10.245.0.7' ? '127.0.0.1' : undefined));
let proxyUrl = '';

/** GET through the proxy, as Prometheus scrapes with a proxy_url: the absolute URL as the request's path. */
function viaProxy(url: string): Promise<{ status: number; body: string }> {
  const p = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: p.hostname, port: Number(p.port), path: url, headers: { host: new URL(url).host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

beforeAll(async () => {
  server = http.createServer((req, res) => res.end(`up_total{path="${req.url}"} 1\n`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as net.AddressInfo).port;
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  closedPort = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  proxyUrl = await proxy.start();
});

afterAll(async () => {
  await proxy.stop();
  await new Promise((r) => server.close(r));
});

describe('the pod proxy', () => {
  it('takes a request for a pod IP to the loopback address where its process listens, path and query kept', async () => {
    expect(await viaProxy(`http://10.245.0.7:${port}/metrics?x=1`)).toEqual({ status: 200, body: 'up_total{path="/metrics?x=1"} 1\n' });
  });

  it('answers 502 at once for a pod IP no process has, and for a port nothing listens on', async () => {
    const none = await viaProxy(`http://10.245.0.8:${port}/metrics`);
    expect(none.status).toBe(502);
    expect(none.body).toContain('no process of the sandbox has that pod IP');
    expect((await viaProxy(`http://10.245.0.7:${closedPort}/metrics`)).status).toBe(502);
  });

  it('reaches a loopback address as it is, and tunnels CONNECT to a pod IP', async () => {
    expect((await viaProxy(`http://127.0.0.1:${port}/m`)).body).toBe('up_total{path="/m"} 1\n');
    const p = new URL(proxyUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(p.port), p.hostname, () => {
        socket.write(`CONNECT 10.245.0.7:${port} HTTP/1.1\r\nhost: 10.245.0.7:${port}\r\n\r\n`);
      });
      let got = '';
      let sent = false;
      socket.on('data', (d: Buffer) => {
        got += d.toString();
        // The tunnel is open once the proxy's answer ends: then a request through it.
        if (!sent && got.includes('\r\n\r\n')) {
          sent = true;
          socket.write('GET /tunnel HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
        }
      });
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 Connection Established/);
    expect(answer).toContain('up_total{path="/tunnel"} 1');
  });
});
