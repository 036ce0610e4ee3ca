import type { V1Node, V1NodeCondition, V1NodeStatus } from '@kubernetes/client-node';
import { ZONE_LABEL } from '../../kube/nodes/nodes.js';

/** What a simulated node is and what it reports: its labels and the status a kubelet posts. */

export const SANDBOX_NODE_ANNOTATION = 'fleetdeck.io/sandbox-node';
export const NOT_READY_TAINT = 'node.kubernetes.io/not-ready';
export const REGION_LABEL = 'topology.kubernetes.io/region';
export const SANDBOX_ZONES = ['zone-a', 'zone-b', 'zone-c'] as const;
export const KUBELET_VERSION = 'v1.20.2';

/** One node the simulated kubelet runs. */
export interface NodeState {
  name: string;
  /** Position in the cluster: fixes the node's address and zone. */
  ordinal: number;
  ip: string;
  /** Set once the Node exists in the API (created or adopted). */
  uid?: string;
  ready: boolean;
  readySince: Date;
  registeredAt: Date;
  bootID: string;
  last?: V1Node;
  /** When this process last posted the node's status (Date.now()). */
  reportedAt?: number;
  /** Registered with these labels instead of those its ordinal gives (a replacement keeps its predecessor's). */
  labels?: Record<string, string>;
  /** More annotations to register with. */
  annotations?: Record<string, string>;
  /** The port its kubelet API listens on (advertised in daemonEndpoints); 10250 unless that was taken. */
  kubeletPort?: number;
}

/**
 * Keeps `node` as the state's view of its Node unless the view is already newer: an answer to
 * a request can arrive after a watch event of a later change, and going back to it would make
 * every change sent with its resourceVersion a conflict until the next status report.
 */
export function remember(state: NodeState, node: V1Node): void {
  const had = state.last?.metadata?.resourceVersion;
  const got = node.metadata?.resourceVersion;
  const older =
    state.last?.metadata?.uid === node.metadata?.uid && had && got && /^\d+$/.test(had) && /^\d+$/.test(got) && BigInt(got) < BigInt(had);
  if (!older) state.last = node;
}

export function hasNotReadyTaint(node: V1Node | undefined): boolean {
  return (node?.spec?.taints ?? []).some((t) => t.key === NOT_READY_TAINT);
}

export function isNodeReady(node: V1Node | undefined): boolean {
  return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

/** Registered, Ready and untainted, as the API last said. */
export function isUp(state: NodeState | undefined): boolean {
  return !!state?.uid && isNodeReady(state.last) && !hasNotReadyTaint(state.last);
}

/** The labels of node `ordinal`: node 1 is the control plane, the zone goes round zone-a|b|c. */
export function nodeLabels(name: string, ordinal: number): Record<string, string> {
  const roles: Record<string, string> =
    ordinal === 1
      ? { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/master': '' }
      : { 'node-role.kubernetes.io/worker': '' };
  return {
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'beta.kubernetes.io/arch': 'amd64',
    [ZONE_LABEL]: SANDBOX_ZONES[(ordinal - 1) % SANDBOX_ZONES.length]!,
    [REGION_LABEL]: 'sandbox',
    ...roles,
  };
}

/** The status the kubelet posts: conditions (heartbeat now), addresses, capacity and node info. */
export function nodeStatus(state: NodeState): V1NodeStatus {
  const now = new Date();
  const condition = (type: string, status: string, reason: string, message: string, since: Date): V1NodeCondition => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: since,
  });
  const capacity = { cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' };
  return {
    conditions: [
      condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', state.registeredAt),
      condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', state.registeredAt),
      condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', state.registeredAt),
      state.ready
        ? condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', state.readySince)
        : condition('Ready', 'False', 'KubeletNotReady', 'sandbox: node marked not ready', state.readySince),
    ],
    addresses: [
      { type: 'InternalIP', address: state.ip },
      { type: 'Hostname', address: state.name },
    ],
    capacity,
    allocatable: { cpu: '3900m', memory: '15872Mi', pods: '110', 'ephemeral-storage': '95Gi' },
    daemonEndpoints: { kubeletEndpoint: { Port: state.kubeletPort ?? 10250 } },
    nodeInfo: {
      machineID: state.name,
      systemUUID: state.name,
      bootID: state.bootID,
      kernelVersion: 'sandbox',
      osImage: 'fleetdeck sandbox',
      containerRuntimeVersion: 'sandbox://1.0',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: KUBELET_VERSION,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
  };
}
