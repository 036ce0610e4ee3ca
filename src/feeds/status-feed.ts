/**
 * The Status tab's feed: one monitor per context (src/kube) writing through the store's
 * batcher into the contexts slice. The dashboard, `fleetdeck status` and `status --watch` all
 * read the store this feed fills.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { watchFleet, type FleetConfig } from '../kube/fleet/fleet.js';
import { configForContext, type ContextInfo } from '../kube/config/kubeconfig.js';
import type { ContextMonitor, MonitorOptions } from '../kube/fleet/monitor.js';
import type { Session } from '../session/session.js';
import { createFleetStore, setBanner, setContexts, type FleetState, type FleetStore } from '../store/fleet-store.js';
import { UpdateBatcher } from '../store/status.js';
import { settled } from '../store/selectors.js';
import type { Feed, FeedFactory } from './feed.js';

export interface StatusFeed {
  store: FleetStore;
  monitors: ContextMonitor[];
  /** Apply pending updates now (tests, one-shot reports). */
  flush(): void;
  stop(): Promise<void>;
}

export interface StatusFeedOptions extends MonitorOptions {
  /** The store to fill (default: a new one for these contexts). */
  store?: FleetStore;
  batchIntervalMs?: number;
  fleet?: FleetConfig | undefined;
  /** --warn-days for the new store: certificates expiring within it are flagged. */
  warnDays?: number | undefined;
}

/** `kc` is one KubeConfig holding every context, or a function giving each context its own. */
export function startStatusFeed(
  kc: KubeConfig | ((context: string) => KubeConfig),
  contexts: ContextInfo[],
  opts: StatusFeedOptions = {},
): StatusFeed {
  const store = opts.store ?? createFleetStore(contexts, opts.fleet, opts.warnDays);
  const batch = new UpdateBatcher(store, opts.batchIntervalMs ?? 50);
  const kcFor = typeof kc === 'function' ? kc : (context: string) => configForContext(kc, context);
  const watch = watchFleet(kcFor, contexts, batch, opts);
  return {
    store,
    monitors: watch.monitors,
    flush: () => batch.flush(),
    stop: async () => {
      await watch.stop();
      batch.dispose();
    },
  };
}

/**
 * Watches every context until each has answered (or failed), then returns one snapshot: what
 * `fleetdeck status` prints. The same monitors the dashboard uses; `timeoutMs` bounds the wait.
 */
export async function collectStatus(
  kc: KubeConfig | ((context: string) => KubeConfig),
  contexts: ContextInfo[],
  timeoutMs = 15_000,
  fleetConfig?: FleetConfig,
): Promise<FleetState> {
  const feed = startStatusFeed(kc, contexts, {
    probeTimeoutMs: Math.min(5000, timeoutMs),
    // Each list's result reaches the store at once: the report waits for the last of them.
    batchIntervalMs: 0,
    // What it prints is read once: lists, no watches.
    listOnly: true,
    ...(fleetConfig ? { fleet: fleetConfig } : {}),
  });
  try {
    await new Promise<void>((resolve) => {
      const deadline = setTimeout(done, timeoutMs);
      const unsubscribe = feed.store.subscribe(check);
      function check() {
        const s = feed.store.getState();
        if (s.status.order.every((n) => s.status.contexts[n] && settled(s.status.contexts[n], fleetConfig))) done();
      }
      function done() {
        clearTimeout(deadline);
        unsubscribe();
        resolve();
      }
      check();
    });
    feed.flush();
    return feed.store.getState();
  } finally {
    await feed.stop();
  }
}

/** The Status tab's feed: the session's contexts watched into the status slice; a new session's contexts replace them. */
export function statusFeed(o: Omit<StatusFeedOptions, 'store' | 'fleet'> = {}): FeedFactory {
  return ({ store }): Feed => {
    let running: StatusFeed | undefined;
    const start = (s: Session) => {
      running = s.contexts.length ? startStatusFeed(s.kc, s.contexts, { ...o, store, fleet: s.fleet }) : undefined;
    };
    let stopping: Promise<void> = Promise.resolve();
    return {
      start,
      restart(s) {
        setContexts(store, s.contexts, s.fleet, s.files);
        // The new session's watches start once the old ones stopped (their last writes are of the old
        // contexts); a restart after this one stops what this one starts.
        stopping = stopping
          .then(async () => {
            await running?.stop();
            running = undefined;
            start(s);
          })
          // A session it cannot watch (a kubeconfig caught half-edited): said, and the next one still followed.
          .catch((err: unknown) =>
            setBanner(store, { kind: 'error', text: `status: ${err instanceof Error ? err.message : String(err)}` }),
          );
      },
      async stop() {
        await stopping;
        await running?.stop();
      },
    };
  };
}
