/** What an upgrade works on, and what its plan says: the types the planner, the run and the command share. */
import type { BundleRecord } from '../../install/bundle-record.js';
import type { RenderedBundle } from '../../install/bundle-render.js';
import type { Target, WorkloadTarget } from '../../install/plan.js';
import type { ComponentId, ImageChange, SkewCheck } from './rules.js';

/** The fleet an upgrade works on: the hosting cluster, the control plane's own API, the workload clusters. */
export interface UpgradeTargets {
  hosting: Target;
  controlPlane: Target;
  workloads: WorkloadTarget[];
  namespace: string;
}

export type ObjectAction = 'create' | 'update' | 'unchanged' | 'remove';

export interface PlannedObject {
  context: string;
  ref: string;
  action: ObjectAction;
  /** The control-plane component it belongs to, or the cluster whose agent it is. */
  component?: ComponentId;
  cluster?: string;
}

export interface SupportRow {
  context: string;
  clusterName: string;
  /** The workload cluster's Kubernetes version, when it answered. */
  version?: string;
  state: 'ok' | 'warn';
  detail: string;
}

export interface PlannedComponent {
  id: ComponentId;
  label: string;
  /** Objects of it that change. */
  changes: number;
}

export interface PlannedAgent {
  cluster: string;
  context: string;
  canary: boolean;
  changes: number;
}

/** Everything the upgrade will do, decided before anything changes (read-only). */
export interface UpgradePlan {
  rollback: boolean;
  /** The bundle in place, as recorded in the hosting cluster (null: installed before bundles were recorded). */
  from: { source: string; recordedAt: string } | null;
  to: { source: string; recordedAt?: string };
  namespace: string;
  objects: PlannedObject[];
  images: ImageChange[];
  support: { nova: string | null; range: string | null; clusters: SupportRow[] };
  skew: SkewCheck[];
  /** In the order they are rolled. */
  components: PlannedComponent[];
  /** In the order they are upgraded (the canary first). */
  agents: PlannedAgent[];
  /** Why the upgrade cannot go ahead (empty: it can). */
  blocking: string[];
}

/** A plan with what the run needs besides it (the objects to apply, the record to write). */
export interface PreparedUpgrade {
  plan: UpgradePlan;
  targets: UpgradeTargets;
  next: RenderedBundle;
  record: BundleRecord;
  /** The rendering being replaced (what is removed is what it has and \`next\` has not). */
  replaced?: RenderedBundle;
  /** What `previous` becomes when nothing was recorded: the objects as they are in the clusters. */
  inPlace?: RenderedBundle;
}
