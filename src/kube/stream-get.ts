/**
 * One streamed GET through client-node's request pipeline (the context's authentication and
 * pooled connections, fleetdeck's transport), its body read line by line: what watches and
 * followed container logs share.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ApiException, HttpMethod, type KubeConfig, type ResponseContext } from '@kubernetes/client-node';
import { configurationFor } from './client.js';

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
  const web = res.body.stream();
  if (!web) return;
  const body = Readable.fromWeb(web as WebReadableStream<Uint8Array>);
  body.setEncoding('utf8');
  let rest = '';
  try {
    for await (const chunk of body as AsyncIterable<string>) {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    }
    if (rest) onLine(rest);
  } catch (err) {
    if (signal.aborted) return;
    throw err;
  } finally {
    body.destroy();
  }
}
