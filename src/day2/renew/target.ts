/** Where a renewal works: the hosting cluster, the control plane through its load balancer, the workload clusters, the install's kubeconfig. */
import type { Target, WorkloadTarget } from '../../install/plan.js';

export interface RenewTarget {
  /** The hosting cluster: the certificate Secrets, the control plane's pods, the renewal record. */
  hosting: Target;
  /** The control plane's own API, through its load balancer (the install's context, default `nova`). */
  controlPlane: Target;
  namespace: string;
  workloads: WorkloadTarget[];
  /** The kubeconfig the install wrote (`<config>/fleetdeck/<context>.kubeconfig`). */
  kubeconfigPath: string;
  /** Validity of the new certificates in days (default 3650; never beyond their CA). */
  validityDays?: number;
}
