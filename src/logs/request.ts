/** What to read of each container, from the flags; and the one line for a stream that failed. */
import { describeError } from '../kube/transport/client.js';
import type { PodLogOptions } from '../kube/pods/pod-logs.js';
import { prefix, type LogSource } from './format.js';

export interface LogRequest {
  container?: string;
  allContainers?: boolean;
  follow: boolean;
  previous: boolean;
  sinceSeconds?: number;
  sinceTime?: string;
  /** -1 or undefined: all. */
  tailLines?: number;
  maxLogRequests: number;
}

/** The query of a source's first read (the user's --since/--tail/--previous). */
export function firstRead(req: LogRequest, container: string): PodLogOptions {
  const o: PodLogOptions = { container, follow: req.follow, previous: req.previous };
  if (req.sinceTime) o.sinceTime = req.sinceTime;
  else if (req.sinceSeconds !== undefined) o.sinceSeconds = req.sinceSeconds;
  if (req.tailLines !== undefined && req.tailLines >= 0) o.tailLines = req.tailLines;
  return o;
}

/** `ctx/pod/container: <the API's message>`: one line. */
export function streamError(source: LogSource, err: unknown): string {
  return `${prefix(source)}: ${describeError(err).replace(/^HTTP \d+: /, '')}`;
}
