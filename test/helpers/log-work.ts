import type { LogsWork } from '../../src/feeds/logs-contract.js';
import type { LogEntry, PodLogOptions } from '../../src/kube/pods/pod-logs.js';

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
