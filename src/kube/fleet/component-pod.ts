import type { PodPhase } from '../pods/pods.js';
import type { V1Pod } from '@kubernetes/client-node';
import { podState } from '../pods/pods.js';

/** The summary kept for a pod of the fleet namespace. */
export function summarizeComponentPod(pod: V1Pod): ComponentPod {
  // The same wording as the cluster-wide pod summaries (kubectl's STATUS column).
  const { phase, problem } = podState(pod);
  const ready =
    phase === 'Running' &&
    !pod.metadata?.deletionTimestamp &&
    (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  const summary: ComponentPod = { name: pod.metadata?.name ?? '', labels: { ...(pod.metadata?.labels ?? {}) }, phase, ready };
  if (problem) summary.reason = problem.reason;
  if (pod.spec?.nodeName) summary.node = pod.spec.nodeName;
  return summary;
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
