/**
 * The agent's rescheduling trigger, as Nova's agent does it (`--rescheduling-enabled`): a copy of
 * a policy-placed Deployment, StatefulSet or ReplicaSet short of ready replicas whose pods stay
 * Pending (Unschedulable) for RESCHEDULE_AFTER_MS gets its cluster recorded on the control
 * plane's object (RESCHEDULE_ANNOTATION, with a hash of the object's spec) and a Warning
 * `ReschedulingTriggered` there; the scheduler then places it elsewhere (semantics.ts).
 */
import { type CoreV1Api, type KubernetesObject, type KubernetesObjectApi, PatchStrategy, type V1Pod } from '@kubernetes/client-node';
import type { ApiObject } from '../../../kube/api/api-resources.js';
import type { EventRecorder } from '../../../kube/events/event-recorder.js';
import { CLUSTER_ANNOTATION, RESCHEDULE_AFTER_MS, RESCHEDULE_ANNOTATION } from '../../../placement/semantics.js';
import { rescheduledFrom } from '../../../placement/targets.js';
import { specHash, workloadView } from '../../../placement/views.js';

/** A pod the scheduler has found no node for since at least `ms` ago. */
export function stuckPending(p: V1Pod, now: number, ms = RESCHEDULE_AFTER_MS): boolean {
  return (p.status?.conditions ?? []).some(
    (c) =>
      c.type === 'PodScheduled' &&
      c.status === 'False' &&
      c.reason === 'Unschedulable' &&
      now - new Date(c.lastTransitionTime as never).getTime() >= ms,
  );
}

export async function triggerRescheduling(
  deps: { core: CoreV1Api; cp: KubernetesObjectApi; events: EventRecorder; cluster: string },
  src: ApiObject,
  copy: ApiObject | undefined,
): Promise<void> {
  const annotations = (src.metadata.annotations as Record<string, string> | undefined) ?? {};
  if (!copy || annotations[CLUSTER_ANNOTATION] || !copy.metadata.namespace) return;
  const spec = copy.spec as { replicas?: number; selector?: { matchLabels?: Record<string, string> } } | undefined;
  const ready = (copy.status as { readyReplicas?: number } | undefined)?.readyReplicas ?? 0;
  const match = spec?.selector?.matchLabels;
  if (!match || (spec?.replicas ?? 1) <= ready || rescheduledFrom(workloadView(src)).includes(deps.cluster)) return;
  const labelSelector = Object.entries(match)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const pods = await deps.core.listNamespacedPod({ namespace: copy.metadata.namespace, labelSelector });
  if (!pods.items.some((p) => stuckPending(p, Date.now()))) return;
  let recorded: Record<string, string> = {};
  try {
    recorded = JSON.parse(annotations[RESCHEDULE_ANNOTATION] ?? '{}') as Record<string, string>;
  } catch {}
  const value = JSON.stringify({ ...recorded, [deps.cluster]: specHash(src.spec) });
  const body = {
    apiVersion: src.apiVersion,
    kind: src.kind,
    metadata: { name: src.metadata.name, namespace: src.metadata.namespace, annotations: { [RESCHEDULE_ANNOTATION]: value } },
  };
  await deps.cp.patch(body as KubernetesObject, undefined, undefined, 'nova-agent', undefined, PatchStrategy.MergePatch);
  const ref = { apiVersion: src.apiVersion, kind: src.kind, name: src.metadata.name, namespace: src.metadata.namespace };
  deps.events.record(
    ref,
    'Warning',
    'ReschedulingTriggered',
    `${src.kind.toLowerCase()} ${src.metadata.namespace}/${src.metadata.name} does not have minimum replicas available`,
  );
}
