import type { KubeConfig } from '@kubernetes/client-node';
import { UpdateBatcher, createFleetStore, type FleetStore } from '../store/fleet-store.js';
import type { ContextInfo } from '../store/types.js';
import { configForContext } from './kubeconfig.js';
import { ContextMonitor, type MonitorOptions } from './monitor.js';

export interface FleetWatcher {
  store: FleetStore;
  monitors: ContextMonitor[];
  /** Apply pending updates now (tests, one-shot reports). */
  flush(): void;
  stop(): Promise<void>;
}

/** Starts one monitor per context, all feeding one store through one batcher. */
export function watchFleet(
  kc: KubeConfig,
  contexts: ContextInfo[],
  opts: MonitorOptions & { store?: FleetStore; batchIntervalMs?: number } = {},
): FleetWatcher {
  const store = opts.store ?? createFleetStore(contexts);
  const batch = new UpdateBatcher(store, opts.batchIntervalMs ?? 50);
  const monitors = contexts.map((c) => new ContextMonitor(c, configForContext(kc, c.name), batch, opts));
  for (const m of monitors) m.start();
  return {
    store,
    monitors,
    flush: () => batch.flush(),
    stop: async () => {
      await Promise.all(monitors.map((m) => m.stop()));
      batch.dispose();
    },
  };
}
