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
  const agent = new Agent({ connect });
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
