/**
 * The Status tab's feed: one monitor per context (src/kube) writing through the store's
 * batcher into the contexts slice. The dashboard, `fleetdeck status` and `status --watch` all
 * read the store this feed fills. Its per-context helper is watchFleet (src/kube/fleet/fleet.ts),
 * not PerContext: contexts that reach the same API server as the same user share one monitor,
 * and the fleet's round trips publish on one timer (see feed.ts).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { watchFleet, type FleetConfig } from '../kube/fleet/fleet.js';
import { configForContext, type ContextInfo } from '../kube/config/kubeconfig.js';
import type { ContextMonitor, MonitorOptions } from '../kube/fleet/monitor.js';
import type { Session } from '../session/session.js';
import { createFleetStore, setBanner, setContexts, type FleetState, type FleetStore } from '../store/fleet-store.js';
import { UpdateBatcher } from '../store/status.js';
import { settled } from '../store/selectors.js';
import { type FeedFactory, heldSession } from './feed.js';

/** The watches of a set of contexts into a store (the Status feed's, `status --watch`'s, `status`'s one read). */
export interface StatusWatch {
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
): StatusWatch {
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

/** What the watches start with: the session's, read when the restart was asked (they start once the old ones stopped). */
type Watched = { kc: Session['kc']; contexts: ContextInfo[]; fleet: FleetConfig | undefined };

/** The Status tab's feed: the session's contexts watched into the status slice; a new session's contexts replace them. */
export function statusFeed(o: Omit<StatusFeedOptions, 'store' | 'fleet'> = {}): FeedFactory {
  return ({ store }) =>
    heldSession((session) => {
      let running: StatusWatch | undefined;
      const watch = ({ kc, contexts, fleet }: Watched) => {
        running = contexts.length ? startStatusFeed(kc, contexts, { ...o, store, fleet }) : undefined;
      };
      let stopping: Promise<void> = Promise.resolve();
      return {
        start: () => watch({ kc: session.kc, contexts: session.contexts, fleet: session.fleet }),
        restart() {
          const next: Watched = { kc: session.kc, contexts: session.contexts, fleet: session.fleet };
          setContexts(store, next.contexts, next.fleet, session.files);
          // The new session's watches start once the old ones stopped (their last writes are of the old
          // contexts); a restart after this one stops what this one starts.
          stopping = stopping
            .then(async () => {
              await running?.stop();
              running = undefined;
              watch(next);
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
    });
}
