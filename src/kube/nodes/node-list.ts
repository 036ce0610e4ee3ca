/**
 * Nodes as the install's prerequisite checks read them: labels, cordon, taints and the
 * provider ID (which cloud runs them), listed page by page as plain JSON.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_TIMEOUT_MS, makeJsonClient } from '../transport/client.js';
import { listJsonPaged } from '../watch/list.js';

/** What scheduling decisions need to know about a node. */
export interface NodeInfo {
  name: string;
  labels: Record<string, string>;
  /** Cordoned. */
  unschedulable?: boolean;
  taints?: { key: string; value?: string; effect: string }[];
  providerID?: string;
}

interface RawNode {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { unschedulable?: boolean; taints?: { key: string; value?: string; effect: string }[]; providerID?: string };
}

function nodeInfo(n: RawNode): NodeInfo {
  return {
    name: n.metadata?.name ?? '',
    labels: n.metadata?.labels ?? {},
    ...(n.spec?.unschedulable ? { unschedulable: true } : {}),
    ...(n.spec?.taints?.length
      ? { taints: n.spec.taints.map((t) => ({ key: t.key, effect: t.effect, ...(t.value ? { value: t.value } : {}) })) }
      : {}),
    ...(n.spec?.providerID ? { providerID: n.spec.providerID } : {}),
  };
}

/** Every node as NodeInfo, page by page. */
export async function listNodes(kc: KubeConfig, timeoutMs: number = DEFAULT_TIMEOUT_MS): Promise<NodeInfo[]> {
  const res = await listJsonPaged<RawNode, NodeInfo>(makeJsonClient(kc, timeoutMs), '/api/v1/nodes', {}, nodeInfo);
  return res.items;
}
