/**
 * What a Nova agent reports about its cluster's room in the Cluster status: per Ready node, the
 * allocatable resources (`capacityResources`), what is left of them once the requests of the
 * pods bound there are counted (`availableResources`), and the node's taints (`nodeTaints`; a
 * cordoned node counts as tainted `node.kubernetes.io/unschedulable:NoSchedule`).
 */
import type { CoreV1Api, V1Node, V1Pod } from '@kubernetes/client-node';
import { bytes, cpuMilli } from '../../../kube/api/quantity.js';
import { podRequests } from '../../../placement/views.js';

export interface ClusterRoom {
  capacityResources: Record<string, { cpu: string; memory: string }>;
  availableResources: Record<string, { cpu: string; memory: string }>;
  nodeTaints: Record<string, { key: string; value?: string; effect: string }[]>;
}

const ready = (n: V1Node) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

export function roomOf(nodes: readonly V1Node[], pods: readonly V1Pod[]): ClusterRoom {
  const used = new Map<string, { cpu: number; memory: number }>();
  for (const p of pods) {
    const node = p.spec?.nodeName;
    if (!node || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    const r = podRequests({ spec: p.spec as never });
    const u = used.get(node) ?? { cpu: 0, memory: 0 };
    used.set(node, { cpu: u.cpu + r.cpu, memory: u.memory + r.memory });
  }
  const room: ClusterRoom = { capacityResources: {}, availableResources: {}, nodeTaints: {} };
  for (const n of nodes.filter(ready)) {
    const name = n.metadata?.name ?? '';
    const cpu = cpuMilli(n.status?.allocatable?.cpu);
    const memory = bytes(n.status?.allocatable?.memory);
    const u = used.get(name) ?? { cpu: 0, memory: 0 };
    room.capacityResources[name] = { cpu: `${cpu}m`, memory: String(memory) };
    room.availableResources[name] = { cpu: `${Math.max(0, cpu - u.cpu)}m`, memory: String(Math.max(0, memory - u.memory)) };
    const taints = (n.spec?.taints ?? []).map((t) => ({ key: t.key, ...(t.value ? { value: t.value } : {}), effect: t.effect }));
    if (n.spec?.unschedulable && !taints.some((t) => t.key === 'node.kubernetes.io/unschedulable'))
      taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
    room.nodeTaints[name] = taints;
  }
  return room;
}

export async function readRoom(core: CoreV1Api): Promise<ClusterRoom> {
  const [nodes, pods] = await Promise.all([
    core.listNode(),
    core.listPodForAllNamespaces({ fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' }),
  ]);
  return roomOf(nodes.items, pods.items);
}
