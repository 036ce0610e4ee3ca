import type { KubeConfig } from '@kubernetes/client-node';
import { watchControlPlane } from './control-plane.js';
import { watchWarningEvents } from './events.js';
import { watchFleetNamespace } from './fleet-namespace.js';
import type { ContextInfo } from './kubeconfig.js';
import type { ContextSink } from './sink.js';
import { ContextMonitor, type MonitorOptions } from './monitor.js';
import type { WatcherFactory } from './watcher.js';
import { watchPods } from './pods.js';

export interface FleetWatch {
  monitors: ContextMonitor[];
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

/** Starts one monitor per context (each with its own KubeConfig), all writing to one sink. */
export function watchFleet(
  kcFor: (context: string) => KubeConfig,
  contexts: ContextInfo[],
  sink: ContextSink,
  opts: MonitorOptions & { fleet?: FleetConfig | undefined } = {},
): FleetWatch {
  const monitors = contexts.map((c) => new ContextMonitor(c, kcFor(c.name), sink, opts, watchersFor(c.name, opts.fleet)));
  for (const m of monitors) m.start();
  return {
    monitors,
    stop: async () => {
      await Promise.all(monitors.map((m) => m.stop()));
    },
  };
}

/**
 * A fleet: the hosting context (runs the control plane in `namespace`), the control plane's own
 * context, and the workload contexts (agents in `namespace`, registered under `clusterName`).
 */
export interface FleetConfig {
  hostingContext: string;
  controlPlaneContext: string;
  namespace: string;
  workloads: { context: string; clusterName: string }[];
}
