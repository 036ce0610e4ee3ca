import type { KubeConfig } from '@kubernetes/client-node';
import { streamLines } from '../transport/stream-get.js';

/** What to read of one container's log (the `pods/log` subresource's query). */
export interface PodLogOptions {
  container: string;
  /** Keep the stream open and deliver lines as the container writes them. */
  follow?: boolean;
  /** The previous (terminated) instance of the container. */
  previous?: boolean;
  sinceSeconds?: number;
  /** RFC 3339; wins over sinceSeconds. */
  sinceTime?: string;
  tailLines?: number;
  limitBytes?: number;
}

/** One log line: the time the runtime stamped it with (RFC 3339, '' when none) and its text. */
export interface LogEntry {
  time: string;
  text: string;
}

const STAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})) (.*)$/s;

/** A line of a log read with `timestamps=true`: the stamp split off (kept whole when there is none). */
export function splitTimestamp(line: string): LogEntry {
  const m = STAMP.exec(line);
  return m ? { time: m[1]!, text: m[2]! } : { time: '', text: line };
}

/**
 * Reads a container's log through the API server (which asks the node's kubelet), always with
 * the runtime's timestamps so lines of several sources can be merged and shown with or without
 * them. Resolves when the server ends the stream (for a follow: the container ended); `signal`
 * ends it early and it then resolves. Rejects with client-node's ApiException (the API's Status,
 * e.g. `container "x" in pod "y" is waiting to start`) or a transport error.
 */
export function streamPodLog(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  opts: PodLogOptions,
  onEntry: (entry: LogEntry) => void,
  signal: AbortSignal,
): Promise<void> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/log`;
  const query: Record<string, string | undefined> = {
    container: opts.container,
    timestamps: 'true',
    follow: opts.follow ? 'true' : undefined,
    previous: opts.previous ? 'true' : undefined,
    sinceTime: opts.sinceTime,
    sinceSeconds: opts.sinceTime || opts.sinceSeconds === undefined ? undefined : String(opts.sinceSeconds),
    tailLines: opts.tailLines === undefined ? undefined : String(opts.tailLines),
    limitBytes: opts.limitBytes === undefined ? undefined : String(opts.limitBytes),
  };
  return streamLines(kc, path, query, (line) => onEntry(splitTimestamp(line)), signal, 'application/json, */*');
}
