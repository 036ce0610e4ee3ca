/**
 * What placement reads: the Clusters (their labels, conditions and per-node room), the
 * SchedulePolicies, and the control plane's objects, each as plain data. The sandbox's
 * scheduler and the `workloads`/`explain` commands build these from the same API objects.
 */
import type { LabelSelector } from '../kube/api/selector.js';

export interface Taint {
  key: string;
  value?: string;
  effect: string;
}

export interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

/** CPU in millicores, memory in bytes. */
export interface Room {
  cpu: number;
  memory: number;
}

export interface NodeRoom {
  name: string;
  available: Room;
  taints: Taint[];
}

export interface ClusterView {
  name: string;
  labels: Record<string, string>;
  ready: boolean;
  standby: boolean;
  nodes: NodeRoom[];
}

export interface SpreadConstraints {
  topologyKey?: string;
  spreadMode?: 'Duplicate' | 'Divide' | string;
  percentageSplit?: { topologyValue: string; percentage: number }[];
  overrides?: { topologyValue: string; parameters?: { fieldPath: string; value?: { staticValue?: unknown } }[] }[];
}

export interface PolicyView {
  name: string;
  created: string;
  namespaceSelector?: LabelSelector | null;
  resourceSelectors?: { labelSelectors?: LabelSelector[] | null } | null;
  clusterSelector?: LabelSelector | null;
  orderedClusterSelector?: LabelSelector | null;
  groupBy?: { labelKey?: string } | null;
  spreadConstraints?: SpreadConstraints | null;
}

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

export interface WorkloadView {
  ref: ObjectRef;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** A hash of its spec: which spec a rescheduling was about (a Deployment's generation also moves with its annotations). */
  specHash?: string;
  /** Pod controllers only: the replicas asked for. */
  replicas?: number;
  /** Pod controllers only: what one pod requests. */
  podRequests?: Room;
  tolerations?: Toleration[];
}

export const refKey = (r: ObjectRef) => `${r.kind}/${r.namespace ? `${r.namespace}/` : ''}${r.name}`;

export const isPodController = (w: WorkloadView) => w.podRequests !== undefined;
