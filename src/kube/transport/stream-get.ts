/**
 * One streamed GET through client-node's request pipeline (the context's authentication and
 * pooled connections, fleetdeck's transport), its body read line by line: what watches and
 * followed container logs share.
 */
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { KubeConfig, ResponseContext } from '@kubernetes/client-node';
import { ApiException, HttpMethod } from './client-node.js';
import { configurationFor } from './client.js';
import { nodeBody } from './transport.js';

/**
 * Sends GET `path` and calls `onLine` for every line of the answer until the server ends it
 * (resolves) or it fails (rejects: an ApiException for an HTTP error, with the server's Status
 * as body when it sent one; the transport's error otherwise). `signal` ends it early; it then
 * resolves. `accept`: what the answer may be (a watch's events are JSON; a log is text).
 */
export async function streamLines(
  kc: KubeConfig,
  path: string,
  query: Record<string, string | undefined>,
  onLine: (line: string) => void,
  signal: AbortSignal,
  accept = 'application/json',
): Promise<void> {
  const config = configurationFor(kc);
  const ctx = config.baseServer.makeRequestContext(path, HttpMethod.GET);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) ctx.setQueryParam(k, v);
  ctx.setHeaderParam('Accept', accept);
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
  // The transport's own Node stream when there is one (no web stream in between).
  const own = nodeBody(res);
  const web = own ? undefined : res.body.stream();
  const body = own ?? (web ? Readable.fromWeb(web as WebReadableStream<Uint8Array>) : undefined);
  if (!body) return;
  body.setEncoding('utf8');
  let rest = '';
  body.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    try {
      for (const line of lines) onLine(line);
    } catch (err) {
      body.destroy(err instanceof Error ? err : new Error(String(err)));
    }
  });
  try {
    await finished(body);
    if (rest) onLine(rest);
  } catch (err) {
    if (signal.aborted) return;
    throw err;
  } finally {
    body.destroy();
  }
}
