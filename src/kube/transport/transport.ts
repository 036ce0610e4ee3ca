/**
 * The HTTP library under client-node: every request goes through the context's undici
 * dispatcher with the Dispatcher API (`dispatcher.request`), not through `fetch`. WHATWG fetch
 * refuses "bad ports" (6000, 6665–6669, 10080, …) where an API server may well listen; the
 * Dispatcher API has no such list. client-node's API classes, authentication and models stay.
 *
 * Every request has short, separate deadlines for the connection and for the first byte of the
 * answer, so a server that accepts connections and never answers fails in seconds and says
 * which of the two it was. The whole request has the deadline its caller gives it, or the one
 * of `--request-timeout` (0: none). Watches have no whole-request deadline.
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { HttpLibrary, RequestContext } from '@kubernetes/client-node';
import { ResponseContext, wrapHttpLibrary } from './client-node.js';
import type { Dispatcher } from 'undici';
import { formatDuration } from '../../duration.js';
import { connecting } from './on-the-wire.js';
import { tlsPending } from './pool.js';
import { requestTimeout } from './request-timeout.js';

/** Deadlines of one request (ms; undefined: none). */
export interface Deadlines {
  connectMs: number;
  firstByteMs: number;
  totalMs: number | undefined;
  /** Longest pause between two chunks of the body (0: none). */
  bodyIdleMs: number;
}

/**
 * Connection (TCP and TLS) and first byte of the answer. Lists and writes may take longer to
 * answer: a large list is assembled before the server answers, and a write waits for etcd and
 * for admission webhooks (which may take up to 30 s each).
 */
export const CONNECT_MS = 5_000;
export const FIRST_BYTE_MS = 5_000;
export const LONG_FIRST_BYTE_MS = 30_000;
export const BODY_IDLE_MS = 30_000;
/** A watch without a server-side timeout still ends after this long without a byte. */
const WATCH_IDLE_MS = 5 * 60_000;

const callerDeadlines = new WeakMap<RequestContext, number>();

/** The whole-request deadline this caller wants unless `--request-timeout` says otherwise. */
export function setRequestDeadline(ctx: RequestContext, ms: number): void {
  callerDeadlines.set(ctx, ms);
}

/** A deadline of the transport ran out: the message says which one. */
export class TransportTimeout extends Error {
  override name = 'TransportTimeout';
}

/** A collection path (a list, or a watch of it): /api/v1/pods, /apis/apps/v1/namespaces/x/deployments. */
export function isCollectionPath(pathname: string): boolean {
  const segs = pathname.split('/').filter(Boolean);
  let rest: string[];
  if (segs[0] === 'api') rest = segs.slice(2);
  else if (segs[0] === 'apis') rest = segs.slice(3);
  else return false;
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  return rest.length === 1;
}

/** `…/pods/NAME/log?follow=true`. */
export function isFollowedLog(url: URL): boolean {
  return url.pathname.endsWith('/log') && url.searchParams.get('follow') === 'true';
}

/** The deadlines of a request: watches have no whole deadline; a longer --request-timeout stretches the others. */
export function deadlinesFor(method: string, url: URL, callerMs: number | undefined, flagMs = requestTimeout()): Deadlines {
  // A followed container log is quiet for as long as the container is: no whole or idle deadline.
  const stretch = (ms: number) => Math.max(ms, flagMs ?? 0);
  if (isFollowedLog(url)) return { connectMs: stretch(CONNECT_MS), firstByteMs: stretch(FIRST_BYTE_MS), totalMs: undefined, bodyIdleMs: 0 };
  const watch = url.searchParams.get('watch') === 'true';
  const read = method === 'GET' || method === 'HEAD';
  const slow = !watch && (!read || isCollectionPath(url.pathname));
  const serverSeconds = Number(url.searchParams.get('timeoutSeconds'));
  const watchIdle = serverSeconds > 0 ? (serverSeconds + 30) * 1000 : WATCH_IDLE_MS;
  return {
    connectMs: stretch(CONNECT_MS),
    firstByteMs: stretch(slow ? LONG_FIRST_BYTE_MS : FIRST_BYTE_MS),
    totalMs: watch ? undefined : flagMs !== undefined ? flagMs || undefined : callerMs,
    bodyIdleMs: watch ? watchIdle : stretch(BODY_IDLE_MS),
  };
}

type Phase = 'connecting' | 'waiting' | 'receiving' | 'done';

function timeoutMessage(phase: Phase, ms: number, pool: Dispatcher): string {
  if (phase === 'connecting') {
    if (tlsPending(pool)) return `no TLS handshake within ${formatDuration(ms, 'deadline')} (TCP connect ok)`;
    return `connect timed out after ${formatDuration(ms, 'deadline')}`;
  }
  if (phase === 'waiting') return `no response from the server within ${formatDuration(ms, 'deadline')} (connect ok)`;
  return `the response did not finish within ${formatDuration(ms, 'deadline')}`;
}

/** Forwards every callback of a request, noting when it was sent (connected) and answered. */
class PhaseHandler implements Dispatcher.DispatchHandler {
  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly onPhase: (phase: Phase) => void,
  ) {}
  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.onPhase('waiting');
    this.inner.onRequestStart?.(controller, context);
  }
  onRequestUpgrade(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>): void {
    this.inner.onRequestUpgrade?.(...args);
  }
  onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>): void {
    if (args[1] >= 200) this.onPhase('receiving');
    this.inner.onResponseStart?.(...args);
  }
  onResponseData(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseData']>>): void {
    this.inner.onResponseData?.(...args);
  }
  onResponseEnd(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>>): void {
    this.onPhase('done');
    this.inner.onResponseEnd?.(...args);
  }
  onResponseError(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseError']>>): void {
    this.onPhase('done');
    this.inner.onResponseError?.(...args);
  }
}

/** The deadline timers of one request; `abort` receives the first that runs out. */
function deadlineTimers(d: Deadlines, pool: Dispatcher, abort: (err: Error) => void) {
  let phase: Phase = 'connecting';
  const timers: NodeJS.Timeout[] = [];
  const after = (ms: number, fire: () => void) => {
    const t = setTimeout(fire, ms);
    t.unref();
    timers.push(t);
  };
  const clear = () => {
    for (const t of timers) clearTimeout(t);
  };
  after(d.connectMs, () => phase === 'connecting' && abort(new TransportTimeout(timeoutMessage('connecting', d.connectMs, pool))));
  if (d.totalMs !== undefined)
    after(d.totalMs, () => phase !== 'done' && abort(new TransportTimeout(timeoutMessage(phase, d.totalMs!, pool))));
  return {
    clear,
    onPhase(next: Phase) {
      phase = next;
      if (next === 'waiting') {
        after(d.firstByteMs, () => phase === 'waiting' && abort(new TransportTimeout(timeoutMessage('waiting', d.firstByteMs, pool))));
      }
      if (next === 'done') clear();
    },
  };
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/**
 * The body as sent, or decompressed when the server gzipped it. Inflated 64 KiB at a time, not
 * zlib's 16 KiB: a list of 2,000 pods is 4 MB inflated, and each chunk is a round trip to zlib's
 * thread and a callback (about half the CPU of inflating it, measured).
 */
const INFLATE_CHUNK = 64 * 1024;

function decoded(body: Readable, encoding: string | string[] | undefined): Readable {
  if (encoding !== 'gzip') return body;
  return pipeline(body, createGunzip({ chunkSize: INFLATE_CHUNK }), () => {});
}

async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Rejects as soon as `signal` aborts: undici defers an abort until the request has a connection. */
function abortion(signal: AbortSignal): Promise<never> {
  const p = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  p.catch(() => {});
  return p;
}

/** The body of each answer as the Node stream it is (the ResponseContext offers it as a web stream only). */
const nodeBodies = new WeakMap<ResponseContext, Readable>();

/**
 * The body of an answer of this transport as a Node stream (decompressed): a large list read
 * through `stream()` would pass every chunk through a web stream and back, a cost per chunk
 * as large as the reading itself. Undefined for an answer from elsewhere.
 */
export function nodeBody(res: ResponseContext): Readable | undefined {
  return nodeBodies.get(res);
}

/** One request through `dispatcher` with the deadlines above; gzip answers are decompressed. */
async function send(ctx: RequestContext): Promise<ResponseContext> {
  const dispatcher = ctx.getDispatcher() as Dispatcher | undefined;
  if (!dispatcher) throw new Error('no connection pool for this context');
  const url = new URL(ctx.getUrl());
  const method = ctx.getHttpMethod().toString();
  const d = deadlinesFor(method, url, callerDeadlines.get(ctx));
  const ours = new AbortController();
  const timers = deadlineTimers(d, dispatcher, (err) => ours.abort(err));
  // Counted until it has a connection or fails (on-the-wire.ts).
  const connected = connecting();
  const onPhase = (phase: Phase) => {
    connected();
    timers.onPhase(phase);
  };
  const caller = ctx.getSignal();
  const signal = caller ? AbortSignal.any([ours.signal, caller]) : ours.signal;
  const tracked = dispatcher.compose((dispatch) => (opts, handler) => dispatch(opts, new PhaseHandler(handler, onPhase)));
  const requestHeaders = { 'accept-encoding': 'gzip', ...ctx.getHeaders() };
  let res: Dispatcher.ResponseData;
  try {
    const request = tracked.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: method as Dispatcher.HttpMethod,
      headers: requestHeaders,
      body: ctx.getBody() as string | undefined,
      signal,
      headersTimeout: 0,
      bodyTimeout: d.bodyIdleMs,
    });
    res = await Promise.race([request, abortion(signal)]);
  } catch (err) {
    connected();
    timers.clear();
    throw err;
  }
  res.body.once('close', timers.clear);
  const body = decoded(res.body, res.headers['content-encoding']);
  const headers = flatHeaders(res.headers);
  if (body !== res.body) {
    delete headers['content-encoding'];
    delete headers['content-length'];
  }
  const answer = new ResponseContext(res.statusCode, headers, {
    text: async () => (await collect(body)).toString('utf8'),
    binary: () => collect(body),
    stream: () => Readable.toWeb(body) as ReadableStream<Uint8Array>,
  });
  nodeBodies.set(answer, body);
  return answer;
}

/** The transport every client-node Configuration of fleetdeck uses. */
export const dispatcherHttpLibrary: HttpLibrary = wrapHttpLibrary({ send });
