/** What the prerequisite checks take and give: the contexts to check and the checklist. */
import type { KubeConfig } from '@kubernetes/client-node';
import type { CheckItem, CheckState } from '../../checklist/checklist.js';
import type { Permission } from '../../kube/api/access-review.js';

export type { AccessResult, Permission } from '../../kube/api/access-review.js';
export type { IngressClassInfo } from '../../kube/api/ingress-classes.js';
export type { NodeInfo } from '../../kube/nodes/node-list.js';
export type { LoadBalancerEvidence } from '../../kube/api/service.js';
export type { StorageClassInfo } from '../../kube/storage/classes.js';

/** A kube context to check: its name and a KubeConfig holding only it (see configForContext). */
export interface PrecheckContext {
  name: string;
  kc: KubeConfig;
}

/** What to check. */
export interface PrecheckInput {
  hosting: PrecheckContext;
  workloads: PrecheckContext[];
  /** The install namespace (hosting and workload clusters). */
  namespace: string;
  /** Highly available control plane: 3 replicas spread over distinct `topologyKey` values. */
  ha: boolean;
  /** Node label the HA replicas are spread over, e.g. `topology.kubernetes.io/zone`. */
  topologyKey: string;
  /** Permissions the install needs in the hosting cluster and in each workload cluster. */
  permissions: { hosting: Permission[]; workload: Permission[] };
  /** Timeout of each request; default DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Stops starting new checks; runPrechecks then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The checklist and what it means for the install. */
export interface PrecheckResult {
  items: CheckItem[];
  /** Some item failed: the install must not start. */
  blocking: boolean;
  /** Some item warned: the install should ask before it starts. */
  warnings: boolean;
}

/** The outcome of one check, without its id and label. */
export interface Verdict {
  state: CheckState;
  detail?: string;
  hint?: string;
  children?: CheckItem[];
}
