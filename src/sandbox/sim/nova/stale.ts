/**
 * A Cluster whose agent stopped reporting: its status was last written more than STALE_MS ago
 * while it still says Ready. The sandbox's scheduler then marks it not Ready (reason
 * AgentNotReporting), as a control plane notices a silent member, so nothing is placed there
 * and what runs there shows as orphaned.
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { ApiObject } from '../../../kube/api/api-resources.js';
import { CLUSTERS } from '../../../kube/nova/kinds.js';

export const STALE_MS = 40_000;

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export function staleSince(c: ApiObject, now: number): string | undefined {
  const status = c.status as { lastUpdateTime?: string; conditions?: Condition[] } | undefined;
  const ready = status?.conditions?.find((x) => x.type === 'Ready');
  const at = Date.parse(status?.lastUpdateTime ?? '');
  if (ready?.status !== 'True' || !Number.isFinite(at) || now - at < STALE_MS) return undefined;
  return status!.lastUpdateTime;
}

export async function markStale(api: CustomObjectsApi, clusters: readonly ApiObject[], now = Date.now()): Promise<string[]> {
  const marked: string[] = [];
  for (const c of clusters) {
    const since = staleSince(c, now);
    if (!since) continue;
    const status = c.status as { conditions: Condition[] };
    const conditions = status.conditions.map((x) =>
      x.type === 'Ready'
        ? {
            ...x,
            status: 'False',
            reason: 'AgentNotReporting',
            message: `no report from the nova-agent since ${since}`,
            lastTransitionTime: new Date(now).toISOString().replace(/\.\d+Z$/, 'Z'),
          }
        : x,
    );
    await api.replaceClusterCustomObjectStatus({
      group: CLUSTERS.group,
      version: CLUSTERS.version,
      plural: CLUSTERS.resource,
      name: c.metadata.name,
      body: { ...c, status: { ...status, conditions } },
    });
    marked.push(c.metadata.name);
  }
  return marked;
}
