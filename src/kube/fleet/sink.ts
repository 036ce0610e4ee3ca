/**
 * Where the context watchers write what they see: summaries only, never API objects. The
 * store's batcher implements it; src/kube knows nothing above this interface.
 */
import type { ControlPlaneSummary } from './control-plane.js';
import type { EvictionVersion } from '../api/discovery.js';
import type { EventsSummary } from '../events/events.js';
import type { FleetNamespaceSummary } from './fleet-namespace.js';
import type { NodeSummary } from '../nodes/nodes.js';
import type { PodsSummary } from '../pods/pods.js';

/**
 * `credentials`: the context's user cannot be loaded (a missing token or certificate file, an
 * expired certificate, an exec plugin that is not installed…): nothing is sent, `lastError`
 * says what failed.
 */
export type Reachability = 'unknown' | 'reachable' | 'unreachable' | 'credentials';

/** What the probe of a context reports. */
export interface ContextProbe {
  reachability: Reachability;
  /** Round trip of the last successful probe. */
  latencyMs?: number;
  /** Server gitVersion, e.g. v1.20.2. */
  version?: string;
  evictionVersion?: EvictionVersion;
  apiGroups?: string[];
  /** The last error, one line; kept while unreachable or while the credentials cannot be loaded. */
  lastError?: string;
  /** What to do about `lastError` when it says more than the reachability does (an exec plugin to install). */
  hint?: string;
  /** Epoch ms of the last successful request. */
  lastSuccessAt?: number;
  /** Epoch ms when it became unreachable (undefined while reachable). */
  unreachableSince?: number;
  /**
   * Reachable, but the API server says it cannot serve (its /readyz failed, e.g. etcd is down):
   * why, one line ("etcd failed"); undefined while it is ready.
   */
  notReady?: string;
  /** Epoch ms since when it is not ready. */
  notReadySince?: number;
}

/** Summaries a watcher replaces whole (it keeps its own working state). */
export interface ContextSlices {
  pods: PodsSummary;
  events: EventsSummary;
  /** Present when the context hosts the control plane or runs an agent. */
  fleetNamespace?: FleetNamespaceSummary;
  /** Present when the context is the control plane's own. */
  controlPlane?: ControlPlaneSummary;
}

export type SliceKey = keyof ContextSlices;

export type ContextPatch = { [K in keyof ContextProbe]?: ContextProbe[K] | undefined };

export interface ContextSink {
  patchContext(ctx: string, patch: ContextPatch): void;
  upsertNode(ctx: string, node: NodeSummary): void;
  deleteNode(ctx: string, name: string): void;
  /** A full list arrived: it replaces whatever was there. */
  resetNodes(ctx: string, nodes: NodeSummary[]): void;
  nodesForbidden(ctx: string, message: string): void;
  /** Replace one slice with a summary, or a function computing it once when the sink applies it. */
  setSlice<K extends SliceKey>(ctx: string, key: K, value: NonNullable<ContextSlices[K]> | (() => NonNullable<ContextSlices[K]>)): void;
  /**
   * A full list arrived: what is pending is worth showing now, not after the interval that
   * gathers a burst of watch events (there is no burst to wait for).
   */
  soon?(): void;
}
