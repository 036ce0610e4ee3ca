/**
 * The connection pool of one context: an undici Agent with the context's TLS options (as
 * client-node derives them), whose connector notes sockets that have their TCP connection but
 * no TLS handshake yet, so that a connect deadline can say which of the two did not happen.
 * Contexts behind a proxy-url keep client-node's own dispatcher.
 */
import type { RequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { requestTimeout } from './request-timeout.js';

/** undici's default; a longer --request-timeout stretches it. */
const CONNECTOR_TIMEOUT_MS = 10_000;

/**
 * HTTP/2 flow control: how much of an answer the server may send before fleetdeck has read it.
 * undici's defaults (256 KiB a stream, 512 KiB a connection) make an API server stop every
 * 256 KiB of a large list until the client has decoded what came, so server and client take
 * turns instead of working at once: 50,000 pods are 2.5 MB gzipped, and with these windows they
 * arrive about a second sooner (`npm run bench -- --clusters`, figure 4). Go's HTTP/2 client, and
 * so kubectl, allows 4 MiB a stream. A window is a permission, not a buffer: memory is used only
 * for what arrives faster than it is read.
 */
const STREAM_WINDOW = 4 * 1024 * 1024;
const CONNECTION_WINDOW = 16 * 1024 * 1024;

/** Per pool: sockets connected over TCP whose TLS handshake has not finished. */
const handshaking = new WeakMap<Dispatcher, { count: number }>();

/** True when a connection of `pool` reached the server but its TLS handshake is still pending. */
export function tlsPending(pool: Dispatcher): boolean {
  return (handshaking.get(pool)?.count ?? 0) > 0;
}

type ConnectOptions = buildConnector.BuildOptions;

/** An Agent whose connector counts sockets between TCP connect and TLS handshake. */
function directAgent(options: ConnectOptions): Agent {
  const state = { count: 0 };
  const base = buildConnector({ ...options, timeout: Math.max(CONNECTOR_TIMEOUT_MS, requestTimeout() ?? 0) });
  const connect: buildConnector.connector = (opts, callback) => {
    // undici's connector returns the socket it made (its typings say void).
    const socket = base(opts, callback) as unknown as Socket | undefined;
    if (socket && opts.protocol === 'https:') {
      let counted = false;
      const done = () => {
        if (counted) state.count--;
        counted = false;
      };
      socket.once('connect', () => {
        counted = true;
        state.count++;
      });
      socket.once('secureConnect', done);
      socket.once('close', done);
    }
    return socket;
  };
  const agent = new Agent({ connect, initialWindowSize: STREAM_WINDOW, connectionWindowSize: CONNECTION_WINDOW });
  handshaking.set(agent, state);
  return agent;
}

/** The TLS material client-node would give its own dispatcher. */
function agentOptions(opts: RequestOptions) {
  return {
    ca: opts.ca,
    cert: opts.cert,
    key: opts.key,
    pfx: opts.pfx,
    passphrase: opts.passphrase,
    ...(opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: opts.rejectUnauthorized } : {}),
    ...(opts.servername !== undefined ? { servername: opts.servername } : {}),
  };
}

/**
 * A new pool for `kc` given its HTTPS options (from `applyToHTTPSOptions`), or undefined for
 * a proxy-url, where client-node's own dispatcher is used.
 */
export function newPool(kc: KubeConfig, https: RequestOptions): Dispatcher | undefined {
  const plan = kc.createDispatcherOptions(kc.getCurrentCluster(), agentOptions(https));
  if (plan.type === 'agent') return directAgent(plan.connect as ConnectOptions);
  if (plan.type === 'none') return directAgent({ keepAlive: true, keepAliveInitialDelay: 30_000 } as ConnectOptions);
  return undefined;
}
