import type { KubeConfig } from '@kubernetes/client-node';
import { UpdateBatcher, createFleetStore, type FleetStore } from '../store/fleet-store.js';
import type { ContextInfo, FleetConfig } from '../store/types.js';
import { watchControlPlane } from './control-plane.js';
import { watchWarningEvents } from './events.js';
import { watchFleetNamespace } from './fleet-namespace.js';
import { configForContext } from './kubeconfig.js';
import { ContextMonitor, type MonitorOptions, type WatcherFactory } from './monitor.js';
import { watchPods } from './pods.js';

export interface FleetWatcher {
  store: FleetStore;
  monitors: ContextMonitor[];
  /** Apply pending updates now (tests, one-shot reports). */
  flush(): void;
  stop(): Promise<void>;
}

/** What to watch in a context: pods and events everywhere, more for the fleet's roles. */
export function watchersFor(context: string, fleet: FleetConfig | undefined): WatcherFactory[] {
  const factories: WatcherFactory[] = [watchPods, watchWarningEvents];
  if (!fleet) return factories;
  if (context === fleet.hostingContext) factories.push(watchFleetNamespace(fleet.namespace, 'hosting'));
  else if (fleet.workloads.some((w) => w.context === context)) factories.push(watchFleetNamespace(fleet.namespace, 'workload'));
  if (context === fleet.controlPlaneContext) factories.push(watchControlPlane);
  return factories;
}

/** Starts one monitor per context, all feeding one store through one batcher. */
export function watchFleet(
  kc: KubeConfig,
  contexts: ContextInfo[],
  opts: MonitorOptions & { store?: FleetStore; batchIntervalMs?: number; fleet?: FleetConfig } = {},
): FleetWatcher {
  const store = opts.store ?? createFleetStore(contexts, opts.fleet);
  const batch = new UpdateBatcher(store, opts.batchIntervalMs ?? 50);
  const monitors = contexts.map(
    (c) => new ContextMonitor(c, configForContext(kc, c.name), batch, opts, watchersFor(c.name, opts.fleet)),
  );
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
