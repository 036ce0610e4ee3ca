import { createHash } from 'node:crypto';
import type { RequestOptions } from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Configuration, KubeConfig, RequestContext, ResponseContext, SecurityAuthentication } from '@kubernetes/client-node';
import { PromiseMiddlewareWrapper } from '@kubernetes/client-node/dist/gen/middleware.js';
import { ApiException, createConfiguration, HttpMethod, ServerConfiguration } from './client-node.js';
import { compressionDisabled } from './compression.js';
import { gateOf } from './gate.js';
import { readListBody } from '../watch/list-items.js';
import { newPool } from './pool.js';
import { type ProtoListMeta, ProtoListReader } from '../protobuf/list-reader.js';
import { decodeStatus } from '../protobuf/status.js';
import { dispatcherHttpLibrary, nodeBody, setRequestDeadline, TransportTimeout } from './transport.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * client-node's configuration for one context: its server, its authentication on pooled
 * connections, and fleetdeck's transport (src/kube/transport/transport.ts: the Dispatcher API with
 * connect and first-byte deadlines) instead of client-node's fetch.
 */
export function configurationFor(kc: KubeConfig, middleware: PromiseMiddlewareWrapper[] = []): Configuration {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  return createConfiguration({
    baseServer: new ServerConfiguration(cluster.server, {}),
    httpApi: dispatcherHttpLibrary,
    authMethods: { default: pooledAuth(kc) },
    middleware: [writeGate(kc), ...middleware],
  });
}

/**
 * Every request passes the write gate of its KubeConfig first (its session's: refused under
 * --read-only when it would change something). A KubeConfig of no session has none.
 */
const writeGate = (kc: KubeConfig) =>
  new PromiseMiddlewareWrapper({
    pre: async (ctx: RequestContext) => {
      gateOf(kc)?.check(ctx.getHttpMethod(), ctx.getUrl());
      return ctx;
    },
    post: async (res: ResponseContext) => res,
  });

/**
 * Like KubeConfig.makeApiClient, but every request carries a whole-request deadline (replaced by
 * `--request-timeout`), on top of the transport's connect and first-byte deadlines.
 */
export function makeClient<T>(kc: KubeConfig, Api: new (config: Configuration) => T, timeoutMs = DEFAULT_TIMEOUT_MS): T {
  const timeout = new PromiseMiddlewareWrapper({
    pre: async (ctx: RequestContext) => {
      setRequestDeadline(ctx, timeoutMs);
      return ctx;
    },
    post: async (res: ResponseContext) => res,
  });
  return new Api(configurationFor(kc, [timeout]));
}

/** One of client-node's generated API classes, e.g. CoreV1Api. */
export type ApiClass<T> = new (config: Configuration) => T;

/**
 * Like makeClient, but the API class (client-node's generated code, ~2.4 MB with its models) is
 * loaded on the first call of one of its methods, which all return promises anyway. Modules on
 * the road of a one-shot `status` use this, so that it never loads that code: `load` is
 * `async () => (await import('./api-classes.js')).CoreV1Api`.
 */
export function lazyClient<T extends object>(kc: KubeConfig, load: () => Promise<ApiClass<T>>, timeoutMs = DEFAULT_TIMEOUT_MS): T {
  let client: Promise<T> | undefined;
  const real = () => {
    client ??= load().then((Api) => makeClient(kc, Api, timeoutMs));
    return client;
  };
  return new Proxy({} as T, {
    // Not a thenable: `await`ing the client itself must not call a `then` method.
    get: (_target, name) =>
      name === 'then'
        ? undefined
        : (...args: unknown[]) => real().then((c) => (c[name as keyof T] as (...a: unknown[]) => unknown).apply(c, args)),
  });
}

/** GETs of API paths answered as plain parsed JSON. */
export interface JsonClient {
  get<T>(path: string, query?: Record<string, string | number | undefined>): Promise<T>;
  /** A GET whose answer is text, whatever its status (health endpoints such as /readyz). */
  getText(path: string): Promise<{ status: number; text: string }>;
  /**
   * A GET of a list read as it streams in: `onItem` gets each item as soon as it arrived (see
   * list-items.ts); resolves with the list's own fields (its metadata) once the body ended.
   */
  getList<T, L>(path: string, query: Record<string, string | number | undefined>, onItem: (item: T) => void): Promise<L>;
  /**
   * A list of a built-in kind asked for in protobuf (protobuf/list-reader.ts): `onProto` gets each
   * item's bytes as they arrive. A server that answers in JSON anyway has each item go to
   * `onJson`. Resolves with the list's resourceVersion and continue token.
   */
  getProtoList<T>(
    path: string,
    query: Record<string, string | number | undefined>,
    onProto: (buf: Buffer, start: number, end: number) => void,
    onJson: (item: T) => void,
  ): Promise<ProtoListMeta>;
}

/**
 * GETs through client-node's own request pipeline (its authentication, fleetdeck's transport,
 * the context's pooled connections and a deadline), returning the parsed JSON as the server sent it.
 * The generated API classes instead build a typed copy of every object through their model
 * serializer: for the large initial lists (50,000 pods) that copy is most of the time and
 * memory of a list, and the trackers keep a few fields of each object anyway. Timestamps stay
 * RFC 3339 strings, as watch events deliver them. Errors are client-node's ApiException.
 */
export function makeJsonClient(kc: KubeConfig, timeoutMs = DEFAULT_TIMEOUT_MS): JsonClient {
  const config = configurationFor(kc);
  // A list read as it streams in has no whole deadline of its own (--request-timeout still sets
  // one): every item is progress, and the transport's first-byte and pause deadlines catch a
  // server that stops. 50,000 pods from a busy server may well take longer than a page would.
  const send = async (path: string, query: Record<string, string | number | undefined>, whole = true, accept = 'application/json') => {
    const ctx = config.baseServer.makeRequestContext(path, HttpMethod.GET);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) ctx.setQueryParam(k, String(v));
    ctx.setHeaderParam('Accept', accept);
    if (whole) setRequestDeadline(ctx, timeoutMs);
    await config.authMethods.default?.applySecurityAuthentication(ctx);
    const res = await config.httpApi.send(ctx).toPromise();
    if (res.httpStatusCode < 200 || res.httpStatusCode > 299) {
      // A request that asked for protobuf gets its error Status in protobuf too.
      const status = res.headers['content-type']?.startsWith(PROTOBUF) ? decodeStatus(await res.body.binary()) : undefined;
      if (status) throw new ApiException(res.httpStatusCode, `HTTP-Code: ${res.httpStatusCode}`, status, res.headers);
      const text = await res.body.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the text is the message
      }
      throw new ApiException(res.httpStatusCode, `HTTP-Code: ${res.httpStatusCode}`, body, res.headers);
    }
    return res;
  };
  return {
    async get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
      const res = await send(path, query);
      return JSON.parse(await res.body.text()) as T;
    },
    async getList<T, L>(path: string, query: Record<string, string | number | undefined>, onItem: (item: T) => void): Promise<L> {
      const body = bodyOf(path, await send(path, query, false));
      body.setEncoding('utf8');
      try {
        return await readListBody<T, L>(body as AsyncIterable<string>, onItem);
      } finally {
        body.destroy();
      }
    },
    async getProtoList<T>(
      path: string,
      query: Record<string, string | number | undefined>,
      onProto: (buf: Buffer, start: number, end: number) => void,
      onJson: (item: T) => void,
    ): Promise<ProtoListMeta> {
      const res = await send(path, query, false, PROTOBUF_FIRST);
      const body = bodyOf(path, res);
      try {
        if (!res.headers['content-type']?.startsWith(PROTOBUF)) {
          body.setEncoding('utf8');
          const list = await readListBody<T, { metadata?: ProtoListMeta }>(body as AsyncIterable<string>, onJson);
          return list.metadata ?? {};
        }
        const reader = new ProtoListReader(onProto);
        for await (const chunk of body as AsyncIterable<Buffer>) reader.push(chunk);
        return reader.end();
      } finally {
        body.destroy();
      }
    },
    async getText(path: string): Promise<{ status: number; text: string }> {
      const ctx = config.baseServer.makeRequestContext(path, HttpMethod.GET);
      // The transport's deadline (its timer cleared when the answer is in), not AbortSignal.timeout,
      // whose timer runs out later anyway and builds a DOMException each time.
      setRequestDeadline(ctx, timeoutMs);
      await config.authMethods.default?.applySecurityAuthentication(ctx);
      const res = await config.httpApi.send(ctx).toPromise();
      return { status: res.httpStatusCode, text: await res.body.text() };
    },
  };
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** Protobuf for the built-in kinds; JSON from a server or resource that has none (custom resources). */
const PROTOBUF_FIRST = `${PROTOBUF}, application/json`;

/** The answer's body as a Node stream (the transport's own, else client-node's web stream). */
function bodyOf(path: string, res: ResponseContext): Readable {
  const direct = nodeBody(res);
  const web = direct ? undefined : res.body.stream();
  const body = direct ?? (web ? Readable.fromWeb(web as WebReadableStream<Uint8Array>) : undefined);
  if (!body) throw new Error(`${path}: the answer had no body`);
  return body;
}

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

/** Per KubeConfig (one per context): its TLS identity and the connection pool made for it. */
const pools = new WeakMap<KubeConfig, { key: string; dispatcher: Dispatcher }>();

/** What the connections carry (CA, client certificate and key, verification) and its fingerprint. */
async function tlsIdentity(kc: KubeConfig): Promise<{ key: string; https: RequestOptions }> {
  const https: RequestOptions = {};
  await kc.applyToHTTPSOptions(https);
  const h = createHash('sha256');
  for (const part of [https.ca, https.cert, https.key, https.rejectUnauthorized, https.servername]) h.update(`${String(part ?? '')}\0`);
  return { key: h.digest('hex'), https };
}

/**
 * client-node's own authentication, but requests of one context share one connection pool
 * (src/kube/transport/pool.ts): by itself it makes a new pool (a new TCP and TLS handshake) for every
 * request. A new TLS identity (e.g. an exec plugin handing out a fresh client certificate)
 * gets a new pool.
 */
function pooledAuth(kc: KubeConfig): SecurityAuthentication {
  return {
    getName: () => 'pooled',
    applySecurityAuthentication: async (ctx: RequestContext) => {
      await kc.applySecurityAuthentication(ctx);
      // The transport asks for gzip unless the request says otherwise.
      if (compressionDisabled(kc)) ctx.setHeaderParam('accept-encoding', 'identity');
      const { key, https } = await tlsIdentity(kc);
      const pool = pools.get(kc);
      if (pool?.key === key) {
        ctx.setDispatcher(pool.dispatcher);
        return;
      }
      if (pool) void pool.dispatcher.close().catch(() => {});
      const dispatcher = newPool(kc, https) ?? ctx.getDispatcher();
      if (!dispatcher) throw new Error('no connection pool for this context');
      pools.set(kc, { key, dispatcher });
      ctx.setDispatcher(dispatcher);
    },
  };
}

/**
 * A failure whose message already says what failed and why (e.g. which list, and the permission it
 * needs); its HTTP status kept, for callers that branch on it, and the original as its cause.
 */
export class DescribedError extends Error {
  override name = 'DescribedError';
  constructor(
    message: string,
    readonly statusCode: number | undefined,
    cause: unknown,
  ) {
    super(message, { cause });
  }
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
  UND_ERR_BODY_TIMEOUT: 'the server stopped sending',
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
  if (err instanceof TransportTimeout || err instanceof DescribedError) return err.message;
  if (err instanceof DOMException || (err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError') {
    return 'timed out';
  }
  // Network errors carry a code, sometimes on a cause (fetch: TypeError('fetch failed', { cause })).
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
