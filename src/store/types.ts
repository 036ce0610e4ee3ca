import type { ContextInfo } from '../kube/config/kubeconfig.js';
import type { NodeSummary } from '../kube/nodes/nodes.js';
import type { ContextProbe, ContextSlices } from '../kube/fleet/sink.js';
/** Plain data the store holds. Summaries only: never whole API objects. */

/** One context as the Status screen shows it: who it is, the probe, its nodes, its summaries. */
export interface ContextState extends ContextInfo, ContextProbe, ContextSlices {
  nodes: {
    /** The first full list has arrived. */
    synced: boolean;
    /** Set when listing nodes is forbidden: what permission is missing. */
    forbidden?: string;
    items: Record<string, NodeSummary>;
  };
}

export interface NodeCounts {
  ready: number;
  total: number;
  cordoned: number;
  notReady: { name: string; reason: string }[];
  byZone: Record<string, { ready: number; total: number }>;
}

/**
 * Where a tab's feed stands: not started (its tab not shown yet), loading its modules, on, or
 * why it could not start (one line).
 */
export type FeedStatus = 'off' | 'loading' | 'on' | { error: string };
