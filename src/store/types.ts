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
  pods: PodsSummary;
  events: EventsSummary;
  /** Present when the context hosts the control plane or runs an agent. */
  fleetNamespace?: FleetNamespaceSummary;
  /** Present when the context is the control plane's own. */
  controlPlane?: ControlPlaneSummary;
}

export interface NodeCounts {
  ready: number;
  total: number;
  cordoned: number;
  notReady: { name: string; reason: string }[];
  byZone: Record<string, { ready: number; total: number }>;
}

/** A collection fleetdeck lists and watches: loaded yet, or forbidden (naming the missing permission). */
export interface Sync {
  synced: boolean;
  /** e.g. "cannot list pods: HTTP 403: … (needs list/watch on pods)". */
  forbidden?: string;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

/** A pod that is not Running and Ready (and not Succeeded): what an operator must look at. */
export interface PodProblem {
  namespace: string;
  name: string;
  phase: PodPhase;
  /** Pending/Unschedulable: <message>, CrashLoopBackOff, ImagePullBackOff, NotReady (1/2 ready), Terminating… */
  reason: string;
  node?: string;
  restarts: number;
  /** Epoch ms of the pod's creation. */
  createdAt?: number;
}

/** Cluster-wide pod counts: cheap with 50,000 pods (counts and a capped problem list, no objects). */
export interface PodsSummary extends Sync {
  total: number;
  byPhase: Record<PodPhase, number>;
  /** Pods that need attention; at most PROBLEM_LIMIT of them, worst first. */
  problems: PodProblem[];
  /** How many pods need attention in all (may exceed problems.length). */
  problemCount: number;
}

export interface WarningEvent {
  reason: string;
  message: string;
  /** "Pod elotl/etcd-0" */
  object: string;
  namespace?: string;
  count: number;
  /** Epoch ms of the last occurrence. */
  lastSeen: number;
}

/** Recent Warning events, deduplicated by reason and object, newest first, at most 20. */
export interface EventsSummary extends Sync {
  warnings: WarningEvent[];
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

export interface WorkloadSummary {
  kind: 'Deployment' | 'StatefulSet';
  name: string;
  desired: number;
  ready: number;
  /** Labels of its pod template (how components are recognised). */
  labels: Record<string, string>;
}

export interface ComponentPod {
  name: string;
  labels: Record<string, string>;
  phase: PodPhase;
  ready: boolean;
  /** Why it is not Running/Ready (same wording as PodProblem.reason). */
  reason?: string;
  node?: string;
}

export interface ServiceSummary {
  name: string;
  type: string;
  /** LoadBalancer ingress IPs or hostnames assigned. */
  ingress: string[];
}

/** A certificate found in a Secret of the fleet namespace (the data itself is never kept). */
export interface CertSummary {
  secret: string;
  key: string;
  subject: string;
  /** Epoch ms. */
  notAfter: number;
}

/** The fleet namespace in a hosting or workload context. */
export interface FleetNamespaceSummary extends Sync {
  namespace: string;
  exists: boolean;
  workloads: WorkloadSummary[];
  pods: ComponentPod[];
  services: ServiceSummary[];
  certs: CertSummary[];
  /** Set when Secrets cannot be read (certificates unknown). */
  secretsForbidden?: string;
}

export interface NovaCluster {
  name: string;
  k8sVersion?: string;
  k8sCluster?: string;
  region?: string;
  zone?: string;
  /** Condition statuses as printed: "True", "False", "Unknown" or undefined. */
  ready?: string;
  idle?: string;
  standby?: string;
}

/** What the control plane's own API serves: the Nova CRDs and their objects. */
export interface ControlPlaneSummary extends Sync {
  crds: { cluster: boolean; schedulePolicy: boolean; scheduleGroup: boolean };
  clusters: NovaCluster[];
  schedulePolicies: number;
}
