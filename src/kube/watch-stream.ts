/**
 * One watch request through client-node's request pipeline (the context's authentication and
 * pooled connections, fleetdeck's transport), its body streamed and parsed line by line.
 * Replaces client-node's Watch, which sends with `fetch` and so cannot reach an API server on
 * a port fetch calls "bad".
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ApiException, HttpMethod, type KubeConfig, type ResponseContext } from '@kubernetes/client-node';
import { configurationFor } from './client.js';

export type WatchCallback = (type: string, object: unknown) => void;

/**
 * Watches `path` until the server ends the stream (resolves) or it fails (rejects: an
 * ApiException for an HTTP error, the transport's error otherwise). `signal` ends it early;
 * it then resolves.
 */
export async function streamWatch(
  kc: KubeConfig,
  path: string,
  query: Record<string, string | undefined>,
  onEvent: WatchCallback,
  signal: AbortSignal,
): Promise<void> {
  const config = configurationFor(kc);
  const ctx = config.baseServer.makeRequestContext(path, HttpMethod.GET);
  ctx.setQueryParam('watch', 'true');
  for (const [k, v] of Object.entries(query)) if (v !== undefined) ctx.setQueryParam(k, v);
  ctx.setHeaderParam('Accept', 'application/json');
  ctx.setSignal(signal);
  await config.authMethods.default?.applySecurityAuthentication(ctx);
  let res: ResponseContext;
  try {
    res = await config.httpApi.send(ctx).toPromise();
  } catch (err) {
    if (signal.aborted) return;
    throw err;
  }
  if (res.httpStatusCode !== 200) {
    const text = await res.body.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the text is the message
    }
    throw new ApiException(res.httpStatusCode, `HTTP-Code: ${res.httpStatusCode}`, body, res.headers);
  }
  const web = res.body.stream();
  if (!web) return;
  const body = Readable.fromWeb(web as WebReadableStream<Uint8Array>);
  body.setEncoding('utf8');
  let rest = '';
  try {
    for await (const chunk of body as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) deliver(line, onEvent);
    }
    deliver(rest, onEvent);
  } catch (err) {
    if (signal.aborted) return;
    throw err;
  } finally {
    body.destroy();
  }
}

/** One line of the stream: an event, or something else (skipped, as client-node's Watch does). */
function deliver(line: string, onEvent: WatchCallback): void {
  if (!line.trim()) return;
  let event: { type?: unknown; object?: unknown };
  try {
    event = JSON.parse(line);
  } catch {
    return;
  }
  if (typeof event.type === 'string') onEvent(event.type, event.object);
}
