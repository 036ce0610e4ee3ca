import type { LogsWork } from '../../../src/feeds/logs-contract.js';
import type { ObjectEvent } from '../../../src/kube/events/object-events.js';
import type { LogEntry, PodLogOptions } from '../../../src/kube/pods/pod-logs.js';
import type { LogPod } from '../../../src/kube/pods/workloads.js';
import { logPod } from '../objects/log-pod.js';

/** A log stream the test drives: it writes lines, ends or fails it; its signal says whether it was aborted. */
export interface DrivenStream {
  pod: string;
  opts: PodLogOptions;
  emit: (text: string, time?: string) => void;
  end: () => void;
  fail: (message: string) => void;
  signal: AbortSignal;
}

/** LogsWork's stream, driven by the test: every stream opened is pushed to `opened`; it ends when the test says or on abort. */
export function drivenStream(opened: DrivenStream[]): LogsWork['stream'] {
  return (_c, _n, pod, opts, onEntry: (e: LogEntry) => void, signal) =>
    new Promise<void>((resolve, reject) => {
      signal.addEventListener('abort', () => resolve());
      opened.push({
        pod,
        opts,
        signal,
        emit: (text, time = '2026-01-01T00:00:00Z') => onEntry({ time, text }),
        end: resolve,
        fail: (m) => reject(new Error(m)),
      });
    });
}

export interface CannedLogs {
  /** The pods found for a target (default: each pod it names, running one container `app`). */
  pods?: (target: { pods?: string[]; selector?: string }) => LogPod[];
  events?: ObjectEvent[];
  /** The lines a stream delivers (each stamped 2026-01-01T10:00:00Z); following, it then waits for its abort. */
  lines: (opts: PodLogOptions, pod: string) => string[];
}

/** LogsWork over canned pods, Events and lines; every stream opened is recorded in `opened`. */
export function cannedLogsWork(canned: CannedLogs): { work: LogsWork; opened: PodLogOptions[] } {
  const opened: PodLogOptions[] = [];
  const pods = canned.pods ?? ((t) => (t.pods ?? []).map((name) => logPod(name, [{ name: 'app' }])));
  const work: LogsWork = {
    findPods: async (_c, _n, target) => pods(target),
    events: async () => canned.events ?? [],
    stream: async (_c, _n, pod, opts, onEntry, signal) => {
      opened.push(opts);
      for (const text of canned.lines(opts, pod)) onEntry({ time: '2026-01-01T10:00:00Z', text });
      if (opts.follow && !opts.previous) await new Promise<void>((r) => signal.addEventListener('abort', () => r()));
    },
  };
  return { work, opened };
}
