/**
 * The API server as its clients meet it through its address: whether it answers (GET /version
 * with the context's credentials) and which serving certificate it presents (a fresh TLS
 * handshake each time, so that every replica behind a load balancer gets its turn).
 */
import type https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { type KubeConfig, VersionApi } from '@kubernetes/client-node';
import { describeError, makeClient } from '../transport/client.js';

/** True when GET /version answers within `timeoutMs`; else the one-line reason. */
export async function apiAnswers(kc: KubeConfig, timeoutMs = 5_000): Promise<true | string> {
  try {
    await makeClient(kc, VersionApi, timeoutMs).getCode();
    return true;
  } catch (err) {
    return describeError(err);
  }
}

/** The serving certificate seen on one new TLS connection: its serial (upper-case hex) and SHA-256 fingerprint. */
export interface PresentedCert {
  serial: string;
  fingerprint256: string;
}

/** Opens one TLS connection to the context's server (its CA trusted, not required) and reads the certificate it presents. */
export async function presentedCert(kc: KubeConfig, timeoutMs = 5_000): Promise<PresentedCert> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the context has no server');
  const u = new URL(server);
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const opts: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(opts);
  return new Promise((resolve, reject) => {
    const sock = tls.connect({
      host,
      port: Number(u.port || 443),
      ...(net.isIP(host) ? {} : { servername: host }),
      ...(opts.ca ? { ca: opts.ca } : {}),
      rejectUnauthorized: false,
    });
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`TLS handshake with ${host} timed out`));
    }, timeoutMs);
    sock.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(describeError(err)));
    });
    sock.once('secureConnect', () => {
      clearTimeout(timer);
      const c = sock.getPeerCertificate();
      sock.destroy();
      resolve({ serial: String(c.serialNumber ?? '').toUpperCase(), fingerprint256: c.fingerprint256 ?? '' });
    });
  });
}
