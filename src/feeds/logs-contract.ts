/** The log view feed's contract: what it calls (LogsWork, bound to the session in logs-work.ts), its options, what it offers. */
import type { HeldActions } from './feed.js';
import type { ObjectEvent } from '../kube/events/object-events.js';
import type { LogEntry, PodLogOptions } from '../kube/pods/pod-logs.js';
import type { LogPod, PodWatchHandlers } from '../kube/pods/workloads.js';

/** What the feed calls, by context name (logs-work.ts binds it to the session; tests and the bench pass their own). */
export interface LogsWork {
  findPods(context: string, namespace: string, target: { pods?: string[]; selector?: string }): Promise<LogPod[]>;
  /** Watches the target's pods as findPods selects them: `onList` with the pods of a (re-)list, `onEvent` for each change. Returns what stops the watch. */
  watchPods?(
    context: string,
    namespace: string,
    target: { pods?: string[]; selector?: string },
    handlers: PodWatchHandlers,
  ): { stop(): void | Promise<void> };
  events(context: string, namespace: string, kind: string, name: string): Promise<ObjectEvent[]>;
  /** Resolves when the log ends (or `signal` aborted it); rejects with one line. */
  stream(
    context: string,
    namespace: string,
    pod: string,
    opts: PodLogOptions,
    onEntry: (e: LogEntry) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

export interface LogsFeedOptions {
  flushMs?: number;
  tailLines?: number;
  eventsEveryMs?: number;
  /** Where `s` saves (default: the working directory). */
  dir?: string;
  now?: () => Date;
}

/** The view's actions and held-session calls (restart: the open view reads again with the new session's KubeConfigs), with what tests read. */
export type HeldLogActions = HeldActions<'logs'> & {
  /** Streams open now (0 once the view closed and they ended). */
  openStreams(): number;
};
