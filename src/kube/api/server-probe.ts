/**
 * The API server as a node about to join sees it: TCP connect and TLS handshake times (node:net,
 * node:tls), the certificate verified with the context's CA, and the server's clock from the Date
 * header of GET /version (through client-node's request pipeline with the context's credentials) or,
 * for a bare URL, of a HEAD without credentials.
 */
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { HttpMethod, type KubeConfig } from '@kubernetes/client-node';
import { configurationFor, describeError } from '../transport/client.js';
import { setRequestDeadline } from '../transport/transport.js';

/** The API server to probe: a URL, and the context's KubeConfig when it comes from one. */
export interface ApiTarget {
  url: string;
  source: string;
  kc?: KubeConfig;
}

export interface ApiServerFact {
  url: string;
  /** "--server", or "context NAME". */
  source: string;
  /** TCP connect time. */
  tcpMs?: number;
  /** TLS handshake time after the TCP connect. */
  tlsMs?: number;
  /** The certificate verified against the CA at hand (the kubeconfig's, else the system's). */
  certVerified?: boolean;
  certError?: string;
  /** The first failure: "connection refused", "TLS: …". */
  error?: string;
  /** From the Date header of the HTTP answer, and the local time half-way through the request. */
  clock?: { serverDate: number; localMidpoint: number; via: string };
  clockError?: string;
}

/** Why the server was not probed. */
export interface NotProbed {
  unknown: string;
}

/** TCP connect, then a TLS handshake on that socket; times in ms. */
async function handshake(
  target: ApiTarget,
  timeoutMs: number,
): Promise<Pick<ApiServerFact, 'tcpMs' | 'tlsMs' | 'certVerified' | 'certError' | 'error'>> {
  const u = new URL(target.url);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(u.port || 443);
  const opts: https.RequestOptions & { skipTLSVerify?: boolean } = {};
  let skipVerify = false;
  if (target.kc) {
    await target.kc.applyToHTTPSOptions(opts);
    skipVerify = target.kc.getCurrentCluster()?.skipTLSVerify === true;
  }
  return new Promise((resolve) => {
    const t0 = performance.now();
    let tcpMs: number | undefined;
    let done = false;
    const finish = (v: Awaited<ReturnType<typeof handshake>>, ...sockets: (net.Socket | undefined)[]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const s of sockets) s?.destroy();
      resolve(v);
    };
    const sock = net.connect({ host, port });
    let secure: tls.TLSSocket | undefined;
    const timer = setTimeout(
      () =>
        finish(
          { tcpMs, error: tcpMs === undefined ? `TCP connect to ${host}:${port} timed out` : 'TLS handshake timed out' },
          sock,
          secure,
        ),
      timeoutMs,
    );
    sock.once('error', (err) => finish({ tcpMs, error: describeError(err) }, sock));
    sock.once('connect', () => {
      tcpMs = Math.round(performance.now() - t0);
      const t1 = performance.now();
      secure = tls.connect({
        socket: sock,
        ...(net.isIP(host) ? {} : { servername: host }),
        ...(opts.ca ? { ca: opts.ca } : {}),
        ...(opts.cert ? { cert: opts.cert, key: opts.key } : {}),
        rejectUnauthorized: false,
      });
      secure.once('error', (err) => finish({ tcpMs, error: `TLS: ${describeError(err).replace(/^TLS: /, '')}` }, secure, sock));
      secure.once('secureConnect', () => {
        const tlsMs = Math.round(performance.now() - t1);
        const verified = skipVerify ? undefined : secure!.authorized;
        const certError = secure!.authorizationError ? String(secure!.authorizationError) : undefined;
        finish(
          { tcpMs, tlsMs, ...(verified === undefined ? {} : { certVerified: verified }), ...(certError ? { certError } : {}) },
          secure,
          sock,
        );
      });
    });
  });
}

/** The server's Date header, from GET /version through client-node (a context) or HEAD (a bare URL). */
async function serverClock(target: ApiTarget, timeoutMs: number): Promise<Pick<ApiServerFact, 'clock' | 'clockError'>> {
  const t0 = Date.now();
  try {
    let date: string | undefined;
    let via: string;
    if (target.kc) {
      // The context's own server, credentials and pooled connections, through fleetdeck's transport.
      const config = configurationFor(target.kc);
      const ctx = config.baseServer.makeRequestContext('/version', HttpMethod.GET);
      ctx.setHeaderParam('Accept', 'application/json');
      setRequestDeadline(ctx, timeoutMs);
      await config.authMethods.default?.applySecurityAuthentication(ctx);
      const res = await config.httpApi.send(ctx).toPromise();
      await res.body.text();
      date = res.headers.date ?? res.headers.Date;
      via = 'GET /version';
    } else {
      via = 'HEAD /version';
      date = await new Promise<string | undefined>((resolve, reject) => {
        const req = https.request(
          new URL('/version', target.url),
          { method: 'HEAD', rejectUnauthorized: false, timeout: timeoutMs },
          (res) => {
            res.resume();
            resolve(res.headers.date);
          },
        );
        req.once('timeout', () => req.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' })));
        req.once('error', reject);
        req.end();
      });
    }
    const t1 = Date.now();
    const serverDate = date ? Date.parse(date) : NaN;
    if (Number.isNaN(serverDate)) return { clockError: `no Date header in the answer to ${via}` };
    return { clock: { serverDate, localMidpoint: (t0 + t1) / 2, via } };
  } catch (err) {
    return { clockError: describeError(err) };
  }
}

export async function probeApiServer(target: ApiTarget, timeoutMs = 5_000): Promise<ApiServerFact | NotProbed> {
  let u: URL;
  try {
    u = new URL(target.url);
  } catch {
    return { unknown: `"${target.url}" (${target.source}) is not a URL` };
  }
  if (u.protocol !== 'https:') return { unknown: `${target.url} (${target.source}) is not an https URL` };
  const hs = await handshake(target, timeoutMs);
  const fact: ApiServerFact = { url: target.url, source: target.source, ...hs };
  if (hs.error) return fact;
  return { ...fact, ...(await serverClock(target, timeoutMs)) };
}
