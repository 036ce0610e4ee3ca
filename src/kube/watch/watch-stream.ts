/**
 * One watch request through client-node's request pipeline (the context's authentication and
 * pooled connections, fleetdeck's transport), its body streamed and parsed line by line.
 * Replaces client-node's Watch, which sends with `fetch` and so cannot reach an API server on
 * a port fetch calls "bad".
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { streamLines } from '../transport/stream-get.js';
import type { UnchangedLines } from './unchanged-lines.js';

export type WatchCallback = (type: string, object: unknown) => void;

/**
 * Watches `path` until the server ends the stream (resolves) or it fails (rejects: an
 * ApiException for an HTTP error, the transport's error otherwise). `signal` ends it early;
 * it then resolves.
 */
export function streamWatch(
  kc: KubeConfig,
  path: string,
  query: Record<string, string | undefined>,
  onEvent: WatchCallback,
  signal: AbortSignal,
  unchanged?: { lines: UnchangedLines; onSkip: (resourceVersion: string) => void },
): Promise<void> {
  const onLine = unchanged
    ? (line: string) => {
        const rv = unchanged.lines.skippable(line);
        if (rv === undefined) deliver(line, onEvent);
        else unchanged.onSkip(rv);
      }
    : (line: string) => deliver(line, onEvent);
  return streamLines(kc, path, { watch: 'true', ...query }, onLine, signal);
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
