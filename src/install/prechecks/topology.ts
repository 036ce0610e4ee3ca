/** Whether the HA control plane's replicas can be spread over distinct topology values (pure). */
import type { NodeInfo, Verdict } from './types.js';

/** How many distinct topology values HA needs (3 replicas, one per value). */
export const HA_REPLICAS = 3;

export function isSchedulable(node: NodeInfo): boolean {
  if (node.unschedulable) return false;
  return !(node.taints ?? []).some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
}

/** Well-known spreading keys, listed first when suggesting another key. */
const PREFERRED_KEYS = [
  'topology.kubernetes.io/zone',
  'kubernetes.io/hostname',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
];

/**
 * Node label keys with at least `min` distinct values among the schedulable nodes, the
 * well-known topology keys first, then by name.
 */
export function keysWithValues(nodes: readonly NodeInfo[], min: number = HA_REPLICAS): { key: string; values: number }[] {
  const values = new Map<string, Set<string>>();
  for (const n of nodes) {
    if (!isSchedulable(n)) continue;
    for (const [k, v] of Object.entries(n.labels)) {
      const set = values.get(k) ?? new Set<string>();
      values.set(k, set);
      set.add(v);
    }
  }
  const rank = (k: string) => {
    const i = PREFERRED_KEYS.indexOf(k);
    return i === -1 ? PREFERRED_KEYS.length : i;
  };
  return [...values.entries()]
    .filter(([, set]) => set.size >= min)
    .map(([key, set]) => ({ key, values: set.size }))
    .sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
}

/**
 * With HA, the 3 replicas of each component are spread over distinct values of the topology
 * key: the schedulable nodes must carry at least 3. Otherwise fail, offering non-HA
 * (`--no-ha`) or the keys that do have enough values.
 */
export function zoneCheck(nodes: readonly NodeInfo[], key: string, min: number = HA_REPLICAS): Verdict {
  const schedulable = nodes.filter(isSchedulable);
  const values = [...new Set(schedulable.map((n) => n.labels[key]).filter((v): v is string => v !== undefined))].sort();
  const nodesText = `${schedulable.length} schedulable node${schedulable.length === 1 ? '' : 's'}`;
  if (values.length >= min) {
    return { state: 'ok', detail: `${values.length} values on ${nodesText} (${listSome(values, 4)})` };
  }
  const alternatives = keysWithValues(nodes, min).filter((k) => k.key !== key);
  const offer = alternatives.length
    ? ` or another key with --topology-key: ${listSome(
        alternatives.map((k) => `${k.key} (${k.values})`),
        4,
      )}`
    : `; no node label has ${min} values among the ${nodesText}`;
  return {
    state: 'fail',
    detail: values.length
      ? `${values.length} value${values.length === 1 ? '' : 's'} on ${nodesText} (${values.join(', ')})`
      : `no ${key} label on ${nodesText}`,
    hint: `HA spreads ${min} replicas over distinct ${key} values: install without HA (--no-ha)${offer}`,
  };
}
function listSome(values: readonly string[], max: number): string {
  if (values.length <= max) return values.join(', ');
  return `${values.slice(0, max).join(', ')} and ${values.length - max} more`;
}
