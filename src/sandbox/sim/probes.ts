import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { describeError } from '../../kube/transport/client.js';

/** True when a TCP connection to ip:port is accepted within `timeoutMs`. */
export function tcpCheck(ip: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: ip, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/**
 * A kubelet's HTTP(S) readiness check: GET `path`, success on 200–399 (the certificate is not
 * verified, as the kubelet does not). Resolves with undefined, or with why it failed.
 */
export function httpCheck(
  ip: string,
  port: number,
  scheme: 'HTTP' | 'HTTPS',
  path: string,
  timeoutMs: number,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const opts = { host: ip, port, path, method: 'GET', timeout: timeoutMs, headers: { 'User-Agent': 'kube-probe/1.20' } };
    const onResponse = (res: http.IncomingMessage) => {
      res.resume();
      const code = res.statusCode ?? 0;
      resolve(code >= 200 && code < 400 ? undefined : `HTTP probe failed with statuscode: ${code}`);
    };
    const req = scheme === 'HTTPS' ? https.request({ ...opts, rejectUnauthorized: false }, onResponse) : http.request(opts, onResponse);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve(`Get "${scheme.toLowerCase()}://${ip}:${port}${path}": ${describeError(err)}`));
    req.end();
  });
}
