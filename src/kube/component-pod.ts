import type { V1Pod } from '@kubernetes/client-node';
import type { ComponentPod } from '../store/types.js';
import { podState } from './pods.js';

/** The summary kept for a pod of the fleet namespace. */
export function summarizeComponentPod(pod: V1Pod): ComponentPod {
  // The same wording as the cluster-wide pod summaries (kubectl's STATUS column).
  const { phase, problem } = podState(pod);
  const ready =
    phase === 'Running' && !pod.metadata?.deletionTimestamp && (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  const summary: ComponentPod = { name: pod.metadata?.name ?? '', labels: { ...(pod.metadata?.labels ?? {}) }, phase, ready };
  if (problem) summary.reason = problem.reason;
  if (pod.spec?.nodeName) summary.node = pod.spec.nodeName;
  return summary;
}
