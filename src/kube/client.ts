import {
  ApiException,
  createConfiguration,
  ServerConfiguration,
  type Configuration,
  type KubeConfig,
  type RequestContext,
  type ResponseContext,
} from '@kubernetes/client-node';
import { PromiseMiddlewareWrapper } from '@kubernetes/client-node/dist/gen/middleware.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Like KubeConfig.makeApiClient, but every request carries a timeout: a server that accepts
 * the connection and never answers must not hang a screen.
 */
export function makeClient<T>(
  kc: KubeConfig,
  Api: new (config: Configuration) => T,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): T {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const timeout = new PromiseMiddlewareWrapper({
    pre: async (ctx: RequestContext) => {
      ctx.setSignal(AbortSignal.timeout(timeoutMs));
      return ctx;
    },
    post: async (res: ResponseContext) => res,
  });
  const config = createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    authMethods: { default: kc },
    middleware: [timeout],
  });
  return new Api(config);
}

/** HTTP status of an API error, if it has one. */
export function statusCode(err: unknown): number | undefined {
  if (err instanceof ApiException) return err.code;
  const e = err as { statusCode?: unknown; code?: unknown };
  if (typeof e?.statusCode === 'number') return e.statusCode;
  return undefined;
}

/** The Kubernetes Status message inside an ApiException body, if any. */
function statusMessage(err: ApiException<unknown>): string | undefined {
  let body: unknown = err.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      return (body as string).trim() || undefined;
    }
  }
  const msg = (body as { message?: unknown } | undefined)?.message;
  return typeof msg === 'string' ? msg : undefined;
}

const NET_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: self-signed certificate not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: self-signed certificate in chain not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: certificate signed by an unknown authority',
  CERT_HAS_EXPIRED: 'TLS: certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: certificate is not valid for this host name',
};

/** The line shown when a list is forbidden: what failed and which permission is missing. */
export function forbiddenMessage(resource: string, message: string, scope = ''): string {
  return `cannot list ${resource}${scope}: ${message} (needs list and watch on ${resource})`;
}

/** One short line for any error a request can produce; never a stack. */
export function describeError(err: unknown): string {
  if (err instanceof ApiException) {
    const msg = statusMessage(err);
    return msg ? `HTTP ${err.code}: ${msg}` : `HTTP ${err.code}`;
  }
  if (err instanceof DOMException || (err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError') {
    return 'timed out';
  }
  // fetch wraps network errors: TypeError('fetch failed', { cause }).
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NET_CODES[code]) return NET_CODES[code];
    if ((e as Error).name === 'TimeoutError') return 'timed out';
    e = (e as { cause?: unknown }).cause;
  }
  const code = statusCode(err);
  if (code) return `HTTP ${code}: ${(err as Error).message}`;
  const message = err instanceof Error ? err.message : String(err);
  const cause = (err as { cause?: { message?: string } })?.cause?.message;
  return (cause && message === 'fetch failed' ? cause : message).split('\n')[0] ?? 'unknown error';
}
