import type { RolloutGuards, RolloutHold } from './guards/types.js';

/**
 * A rollout: which nodes to replace and how (the spec), and how far it got (the state), as
 * plain data. The state is what the rollout's ConfigMap holds (`rollout.json`), so a second
 * fleetdeck shows the same progress and a killed one resumes.
 */

export type ReplaceMode = 'wait' | 'delete-node' | 'uncordon';

export interface RolloutSpec {
  /** DNS label, e.g. rollout-20261122-0530 (generated when not given). */
  name: string;
  context: string;
  /** Label selector strings (kubectl syntax: `a=b,c!=d,e in (x,y),!f,g`), each with a priority. */
  nodeSelectors: { selector: string; priority: number }[];
  nodeNames: { name: string; priority: number }[];
  /** Nodes worked on at once, within one priority (default 1). */
  maxUnavailable: number;
  /** What happens to a drained node (default 'wait'). */
  replace: ReplaceMode;
  /** kubectl drain's flags and the per-node timeout (default 15 min, as Navarchos). */
  drain: { force: boolean; deleteEmptyDirData: boolean; timeoutMs: number };
  /** The gate between batches: every node Ready and no Pending pod, `passes` times in a row, `intervalMs` apart, within `timeoutMs`. */
  health: { passes: number; intervalMs: number; timeoutMs: number };
  /** Windows, budget, gates, soak, deadlines, notifications (src/rollout/guards); absent in specs written before them: none. */
  guards?: RolloutGuards;
}

/** `skipped`: its drain timed out and the spec says to skip it (uncordoned, left as it was). */
export type NodePhase = 'waiting' | 'cordoned' | 'draining' | 'replacing' | 'validating' | 'done' | 'skipped' | 'failed';

/** Phases in which a node is finished with: done, or skipped. */
export const FINISHED_PHASES: readonly NodePhase[] = ['done', 'skipped'];

export interface NodeStatus {
  name: string;
  priority: number;
  phase: NodePhase;
  /** Pods on the node when its drain started (ignored ones included). */
  total: number;
  evicted: number;
  /** DaemonSet and mirror pods, which stay. */
  ignored: number;
  failed: number;
  /** The PodDisruptionBudget that refused the latest eviction, while a pod still waits for it. */
  blockingPdb?: {
    namespace: string;
    name: string;
    disruptionsAllowed: number /** The pod (namespace/name) whose eviction it refused. */;
    pod?: string;
  };
  /** True when this rollout cordoned the node: abort uncordons only these (and only if not done). */
  cordonedByUs: boolean;
  startedAt?: string;
  completedAt?: string;
  error?: string;
  /** The new node's name (wait mode). */
  replacement?: string;
  /**
   * The Node's UID when the rollout took it (recorded with the cordon): wait mode tells the
   * old node from a replacement registered under the same name. Optional (an addition to the
   * first version of this type; absent in states written before it).
   */
  uid?: string;
  /**
   * The API server's time when the rollout recorded the cordon (from its write of the state):
   * wait mode takes as replacement only a node created after it. Optional, like `uid`.
   */
  replaceAfter?: string;
  /** Wait mode, while replacing: since when this run waits for the replacement, and until when. */
  replaceWait?: { since: string; until: string };
}

/** Phases of a node that is being worked on (or must be again: a failed node is retried). */
export const ACTIVE_PHASES: readonly NodePhase[] = ['cordoned', 'draining', 'replacing', 'validating', 'failed'];

/** An ISO time as epoch ms (NaN when absent). */
export const isoMs = (iso: string | undefined) => (iso ? Date.parse(iso) : Number.NaN);

export type RolloutPhase = 'Pending' | 'Running' | 'Paused' | 'Completed' | 'Aborted' | 'Failed';

/**
 * Who runs the rollout, for information: whether it still does is its Lease's to say
 * (src/rollout/ownership.ts). Records written before the Lease have host, pid and a heartbeat.
 */
export interface RolloutOwner {
  /** The Lease's holderIdentity: `host/pid`, or `pod/NAME` in a pod (absent in records written before the Lease). */
  holder?: string;
  host?: string;
  pid?: number;
  /** When it took the rollout. */
  since?: string;
  /** Records written before the Lease: ISO time of the owner's last heartbeat. */
  heartbeat?: string;
}

/** The owner's holder identity (`host/pid` for records written before the Lease). */
export const ownerIdentity = (o: RolloutOwner): string => o.holder ?? `${o.host ?? '?'}/${o.pid ?? '?'}`;

export interface RolloutLogLine {
  time: string;
  message: string;
}

export interface RolloutState {
  spec: RolloutSpec;
  phase: RolloutPhase;
  /** In execution order (priority descending, ties by name). */
  nodes: NodeStatus[];
  /** Why Paused or Failed (or Aborted), one line. */
  message?: string;
  /** The last LOG_LINES lines. */
  log: RolloutLogLine[];
  updatedAt: string;
  /** The fleetdeck driving the rollout; absent when nobody does. */
  owner?: RolloutOwner;
  /** Set when the rollout runs in the cluster: the Job of its latest run. */
  runner?: RolloutRunner;
  /** What holds the running rollout before its next node (a window, the budget, a gate, a soak, another rollout). */
  hold?: RolloutHold;
  /** The next batch starts no earlier than this (the soak after the last one). */
  soakUntil?: string;
  /** When the rollout deadline started counting: its start, or its latest resume after a pause. */
  deadlineFrom?: string;
}

/** Where an in-cluster rollout's runner is: a Job in the rollout's cluster. */
export interface RolloutRunner {
  namespace: string;
  job: string;
  image: string;
}

/** A node as the plan reads it (from the cluster's Node objects). */
export interface PlanNode {
  name: string;
  labels: Record<string, string>;
  unschedulable: boolean;
  ready: boolean;
}

export const DEFAULT_MAX_UNAVAILABLE = 1;
export const DEFAULT_REPLACE: ReplaceMode = 'wait';
/** Navarchos' per-node drain timeout. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 15 * 60_000;
export const DEFAULT_HEALTH = { passes: 3, intervalMs: 5_000, timeoutMs: 10 * 60_000 } as const;
/** How long `wait` waits for the old node to go and a new one to join before pausing. */
export const DEFAULT_REPLACE_TIMEOUT_MS = 30 * 60_000;

/** Lines of the rollout's log kept in its state. */
export const LOG_LINES = 200;
/** The runner renews its Lease this often. */
export const RENEW_MS = 10_000;
/** The Lease's leaseDurationSeconds, in ms: a holder that has not renewed for this long has lost it (and an old record's heartbeat this old is stale). */
export const OWNER_STALE_MS = 30_000;

/** Where the state lives. */
export const ROLLOUT_NAMESPACE = 'kube-system';
export const ROLLOUT_LABEL = 'fleetdeck.io/rollout';
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const STATE_KEY = 'rollout.json';
export const configMapName = (rollout: string) => `fleetdeck-rollout-${rollout}`;

/** Phases in which the rollout is over: nothing resumes it. */
export const FINAL_PHASES: readonly RolloutPhase[] = ['Completed', 'Aborted'];

export const REPLACE_MODES: readonly ReplaceMode[] = ['wait', 'delete-node', 'uncordon'];
