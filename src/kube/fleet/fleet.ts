import type { KubeConfig } from '@kubernetes/client-node';
import { watchControlPlane } from './control-plane.js';
import { watchWarningEvents } from '../events/events.js';
import { watchFleetNamespace } from './fleet-namespace.js';
import type { ContextInfo } from '../config/kubeconfig.js';
import type { ContextSink } from './sink.js';
import { ContextMonitor, LATENCY_REFRESH_MS, type MonitorOptions } from './monitor.js';
import { FanOutSink, groupContexts, viewKey } from '../config/shared-contexts.js';
import type { WatcherFactory } from '../watch/watcher.js';
import { watchPods } from '../pods/pods-watch.js';

export interface FleetWatch {
  monitors: ContextMonitor[];
  stop(): Promise<void>;
}

/** The fleet's problems in one line (the first, and how many more, with its fix); undefined when it has none. */
export function fleetProblemLine(fleet: FleetConfig | undefined, only?: readonly string[]): string | undefined {
  const names = Object.keys(fleet?.problems ?? {}).filter((c) => !only || only.includes(c));
  const first = names[0] === undefined ? undefined : fleet!.problems![names[0]];
  if (!first) return undefined;
  const more = names.length - 1;
  return `${first.detail}${more ? ` (and ${more} more context${more > 1 ? 's' : ''})` : ''}; ${first.hint}`;
}

/**
 * Whether `context` plays its fleet role here: not when it is another cluster than the fleet file
 * recorded (or gone), and no context does when the hosting cluster is not the fleet's.
 */
function playsRole(context: string, fleet: FleetConfig): boolean {
  return !fleet.problems?.[context] && !fleet.problems?.[fleet.hostingContext];
}

/** What to watch in a context: pods and events everywhere, more for the fleet's roles (never against the wrong cluster). */
export function watchersFor(context: string, fleet: FleetConfig | undefined): WatcherFactory[] {
  const factories: WatcherFactory[] = [watchPods, watchWarningEvents];
  if (!fleet || !playsRole(context, fleet)) return factories;
  if (context === fleet.hostingContext) factories.push(watchFleetNamespace(fleet.namespace, 'hosting'));
  else if (fleet.workloads.some((w) => w.context === context)) factories.push(watchFleetNamespace(fleet.namespace, 'workload'));
  if (context === fleet.controlPlaneContext) factories.push(watchControlPlane);
  return factories;
}

/** A context with a role in the fleet watches more than its cluster's nodes, pods and events: never shared. */
function hasFleetRole(context: string, fleet: FleetConfig | undefined): boolean {
  if (!fleet || !playsRole(context, fleet)) return false;
  return context === fleet.hostingContext || context === fleet.controlPlaneContext || fleet.workloads.some((w) => w.context === context);
}

/**
 * Starts one monitor per context (each with its own KubeConfig), all writing to one sink.
 * Contexts reaching the same API server as the same user share one monitor
 * (shared-contexts.ts): 30 names for 3 servers cost 3 sets of watches, not 30.
 */
export function watchFleet(
  kcFor: (context: string) => KubeConfig,
  contexts: ContextInfo[],
  sink: ContextSink,
  opts: MonitorOptions & { fleet?: FleetConfig | undefined } = {},
): FleetWatch {
  const infos = new Map(contexts.map((c) => [c.name, c]));
  const configs = new Map(contexts.map((c) => [c.name, kcFor(c.name)]));
  const groups = groupContexts(
    contexts.map((c) => c.name),
    (n) => viewKey(configs.get(n)!),
    (n) => hasFleetRole(n, opts.fleet),
  );
  const monitors = groups.map((names) => {
    const first = names[0]!;
    const groupSink = names.length === 1 ? sink : new FanOutSink(sink, names);
    return new ContextMonitor(infos.get(first)!, configs.get(first)!, groupSink, opts, watchersFor(first, opts.fleet));
  });
  configs.clear();
  for (const m of monitors) m.start();
  // One timer for the whole fleet: new round trips reach the store together, in one frame.
  const latency = setInterval(() => {
    for (const m of monitors) m.publishLatency();
  }, LATENCY_REFRESH_MS);
  latency.unref?.();
  return {
    monitors,
    stop: async () => {
      clearInterval(latency);
      await Promise.all(monitors.map((m) => m.stop()));
    },
  };
}

/**
 * A fleet: the hosting context (runs the control plane in `namespace`), the control plane's own
 * context, and the workload contexts (agents in `namespace`, registered under `clusterName`).
 */
export interface FleetConfig {
  /** Its name in a fleet file that records several fleets (none in the one-fleet form). */
  name?: string;
  hostingContext: string;
  controlPlaneContext: string;
  namespace: string;
  workloads: { context: string; clusterName: string }[];
  /**
   * Contexts of the fleet that are not the cluster the fleet file recorded (another server or CA,
   * or gone): no check runs against them; their rows say this, and the fix.
   */
  problems?: Record<string, { detail: string; hint: string }>;
}
