import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeConfig } from '@kubernetes/client-node';
import { createAuthority, issueCertificate } from '../../../src/kube/certs/pki.js';
import { probeApiServer, type ApiServerFact } from '../../../src/kube/api/server-probe.js';
import { checkApiServer, checkClockSkew } from '../../../src/preflight/check-network.js';

describe('probeApiServer against a local TLS server', () => {
  let server: https.Server;
  let url: string;
  let caPem: string;
  beforeAll(async () => {
    const ca = await createAuthority('preflight-test-ca', 1);
    const leaf = await issueCertificate(ca, { commonName: 'localhost', hosts: ['127.0.0.1', 'localhost'], usage: 'server', days: 1 });
    caPem = ca.certPem;
    server = https.createServer({ key: leaf.keyPem, cert: leaf.certPem }, (req, res) => {
      res.setHeader('Date', new Date(Date.now() + 10_000).toUTCString());
      res.setHeader('Content-Type', 'application/json');
      res.end(req.method === 'HEAD' ? undefined : '{"gitVersion":"v1.31.0"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  }, 60_000);
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('--server URL: TCP and TLS times, an unverified certificate, the skew from HEAD', async () => {
    const f = (await probeApiServer({ url, source: '--server' })) as ApiServerFact;
    expect(f.error).toBeUndefined();
    expect(f.tcpMs).toBeGreaterThanOrEqual(0);
    expect(f.tlsMs).toBeGreaterThanOrEqual(0);
    expect(f.certVerified).toBe(false);
    expect(f.clock?.via).toBe('HEAD /version');
    expect(checkApiServer(f).state).toBe('ok');
    expect(checkClockSkew(f)).toMatchObject({ state: 'warn' });
    expect(checkClockSkew(f).detail).toMatch(/^(9\.\d|10\.\d) s \(this host is behind/);
  });
  it('a kube context: verified with its CA, the Date of GET /version through client-node', async () => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: url, caData: Buffer.from(caPem).toString('base64'), skipTLSVerify: false }],
      users: [{ name: 'u', token: 'x' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    const f = (await probeApiServer({ url, source: 'context ctx', kc })) as ApiServerFact;
    expect(f.certVerified).toBe(true);
    expect(f.clock?.via).toBe('GET /version');
    expect(checkApiServer(f).state).toBe('ok');
  });
  it('refused and not https', async () => {
    const closed = (await probeApiServer({ url: 'https://127.0.0.1:1', source: '--server' })) as ApiServerFact;
    expect(checkApiServer(closed)).toMatchObject({ state: 'fail', detail: 'https://127.0.0.1:1 (--server): connection refused' });
    expect(await probeApiServer({ url: 'http://127.0.0.1:1', source: '--server' })).toEqual({
      unknown: 'http://127.0.0.1:1 (--server) is not an https URL',
    });
  });
});
