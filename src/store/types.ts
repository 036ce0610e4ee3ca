/** Plain data the store holds. Summaries only: never whole API objects. */

export type Reachability = 'unknown' | 'reachable' | 'unreachable';

/** Which eviction API a server offers (kubectl's drain discovers the same). */
export type EvictionVersion = 'policy/v1' | 'policy/v1beta1' | 'none';

export interface NodeSummary {
  name: string;
  uid: string;
  ready: boolean;
  /** Reason (and message) of the Ready condition when not Ready. */
  notReadyReason?: string;
  unschedulable: boolean;
  zone?: string;
  roles: string[];
  kubeletVersion?: string;
}

export interface ContextInfo {
  name: string;
  cluster: string;
  user: string;
  server: string;
  namespace?: string;
}

export interface ContextState extends ContextInfo {
  reachability: Reachability;
  /** Round trip of the last successful probe. */
  latencyMs?: number;
  /** Server gitVersion, e.g. v1.20.2. */
  version?: string;
  evictionVersion?: EvictionVersion;
  apiGroups?: string[];
  /** The last error, one line; kept while unreachable. */
  lastError?: string;
  /** Epoch ms of the last successful request. */
  lastSuccessAt?: number;
  /** Epoch ms when it became unreachable (undefined while reachable). */
  unreachableSince?: number;
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
