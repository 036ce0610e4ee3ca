import type { V1Node } from '@kubernetes/client-node';

export const ZONE_LABEL = 'topology.kubernetes.io/zone';
const LEGACY_ZONE_LABEL = 'failure-domain.beta.kubernetes.io/zone';
const ROLE_PREFIX = 'node-role.kubernetes.io/';

/** The small summary the store keeps for a Node. */
export function summarizeNode(node: V1Node): NodeSummary {
  const labels = node.metadata?.labels ?? {};
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const isReady = ready?.status === 'True';
  const roles = Object.keys(labels)
    .filter((l) => l.startsWith(ROLE_PREFIX))
    .map((l) => l.slice(ROLE_PREFIX.length))
    .filter((r) => r.length > 0)
    .sort();
  const summary: NodeSummary = {
    name: node.metadata?.name ?? '',
    uid: node.metadata?.uid ?? '',
    ready: isReady,
    unschedulable: node.spec?.unschedulable === true,
    roles,
  };
  const zone = labels[ZONE_LABEL] ?? labels[LEGACY_ZONE_LABEL];
  if (zone) summary.zone = zone;
  const kubelet = node.status?.nodeInfo?.kubeletVersion;
  if (kubelet) summary.kubeletVersion = kubelet;
  if (!isReady) {
    summary.notReadyReason = ready
      ? [ready.reason ?? `Ready=${ready.status}`, ready.message].filter(Boolean).join(': ')
      : 'no Ready condition (kubelet never reported)';
  }
  return summary;
}

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
