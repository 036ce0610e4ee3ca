import type { KubeConfig } from '@kubernetes/client-node';
import type { ContextSink } from '../fleet/sink.js';

/** Something that watches one more kind of object in a context and feeds the store. */
export interface ContextWatcher {
  start(): void;
  stop(): Promise<void>;
  /** Skip any backoff wait (the API server is back). */
  retryNow(): void;
}

export interface WatcherEnv {
  /** Context name (the store key). */
  name: string;
  /** This context's own KubeConfig. */
  kc: KubeConfig;
  sink: ContextSink;
  requestTimeoutMs: number;
  /** Call when a watch dropped for a reason other than 403: the monitor probes at once. */
  onDisconnect: () => void;
  /** Call for each watch event: it proves the server answers, so the monitor need not probe it. */
  onActivity?: () => void;
  /** Only the initial lists, no watches: a one-shot report. */
  listOnly?: boolean | undefined;
}

export type WatcherFactory = (env: WatcherEnv) => ContextWatcher;
