import type { KubeConfig } from '@kubernetes/client-node';
import { UserError } from '../errors.js';
import { describeError, makeJsonClient } from '../kube/client.js';
import type { PlanNode } from './types.js';

interface JsonNode {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { unschedulable?: boolean };
  status?: { conditions?: { type: string; status: string }[] };
}

/** The cluster's nodes with their labels, as the plan reads them (one list, read as plain JSON). */
export async function listPlanNodes(kc: KubeConfig, context: string): Promise<PlanNode[]> {
  let res: { items: JsonNode[] };
  try {
    res = await makeJsonClient(kc, 30_000).get<{ items: JsonNode[] }>('/api/v1/nodes');
  } catch (err) {
    throw new UserError(`cannot list the nodes of ${context}: ${describeError(err)}`);
  }
  return res.items.map((n) => ({
    name: n.metadata?.name ?? '',
    labels: n.metadata?.labels ?? {},
    unschedulable: n.spec?.unschedulable === true,
    ready: (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
  }));
}
