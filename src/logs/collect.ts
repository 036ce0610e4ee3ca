/**
 * `fleetdeck logs` without -f: every source read to its end, then printed merged by the
 * runtime's timestamps (each source's order kept), so the output is the same every run.
 */
import { streamPodLog, type LogEntry } from '../kube/pods/pod-logs.js';
import type { LogSource } from './format.js';
import { mergeByTime } from './merge.js';
import { firstRead, streamError, type LogRequest } from './request.js';
import type { ResolvedScope } from './scope.js';

export interface LogSink {
  line: (source: LogSource, entry: LogEntry) => void;
  /** A line for stderr (without the `fleetdeck: ` prefix). */
  warn: (text: string) => void;
}

/** Reads the sources (at most `parallel` at once); 0 when all could be read, 1 otherwise. */
export async function collectLogs(
  sources: readonly LogSource[],
  scopes: readonly ResolvedScope[],
  req: LogRequest,
  sink: LogSink,
  signal: AbortSignal,
  parallel = 5,
): Promise<number> {
  const kcOf = new Map(scopes.map((s) => [s.context, s.kc]));
  const read: (LogEntry & { source: LogSource })[][] = sources.map(() => []);
  let failed = false;
  let next = 0;
  const worker = async () => {
    while (next < sources.length && !signal.aborted) {
      const i = next++;
      const source = sources[i]!;
      try {
        await streamPodLog(
          kcOf.get(source.context)!,
          source.namespace,
          source.pod,
          { ...firstRead(req, source.container), follow: false },
          (e) => read[i]!.push({ ...e, source }),
          signal,
        );
      } catch (err) {
        if (signal.aborted) return;
        failed = true;
        sink.warn(streamError(source, err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, sources.length) }, worker));
  for (const e of mergeByTime(read)) sink.line(e.source, e);
  return failed ? 1 : 0;
}
