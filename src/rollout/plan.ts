/**
 * The plan of a rollout, as pure functions: which nodes a spec selects and in which order
 * (Navarchos' priority rules), the batches they run in, a new rollout's state, and its name.
 */
import { UsageError } from '../errors.js';
import { parseSelector, selectorMatches } from '../kube/api/selector.js';
import type { PlanNode, RolloutSpec, RolloutState } from './types.js';

export interface PlannedNode {
  name: string;
  priority: number;
  /** Where the priority came from: `node NAME` or `selector "SEL"`. */
  source: string;
  ready: boolean;
  unschedulable: boolean;
}

export interface Plan {
  /** In execution order: priority descending, then by name. */
  nodes: PlannedNode[];
  /** Selectors that match no node, and the like: worth a line, not an error. */
  warnings: string[];
}

const byPlanOrder = (a: { priority: number; name: string }, b: { priority: number; name: string }) =>
  b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Navarchos' rules: every node a selector matches or a name names is replaced; a name's
 * priority overrides a selector's; when several selectors match a node the highest priority
 * wins; nodes in priority order, highest first (ties by name: any stable order will do).
 * Throws a UsageError for a bad selector (naming it), a name that is no node of the cluster,
 * a name given twice with different priorities, or a rollout that selects nothing.
 */
export function resolvePlan(nodes: readonly PlanNode[], spec: Pick<RolloutSpec, 'nodeSelectors' | 'nodeNames'>): Plan {
  const warnings: string[] = [];
  const selectors = spec.nodeSelectors.map((s) => ({ ...s, reqs: parseSelector(s.selector) }));
  const names = new Map<string, number>();
  for (const n of spec.nodeNames) {
    const given = names.get(n.name);
    if (given !== undefined && given !== n.priority)
      throw new UsageError(`node "${n.name}" is given twice, with priorities ${given} and ${n.priority}`);
    names.set(n.name, n.priority);
  }
  const known = new Set(nodes.map((n) => n.name));
  for (const name of names.keys()) {
    if (!known.has(name)) throw new UsageError(`node "${name}" is not a node of the cluster (${nodes.length} nodes)`);
  }
  const matched = new Map<string, number>();
  const out: PlannedNode[] = [];
  for (const node of nodes) {
    let best: { priority: number; source: string } | undefined;
    for (const s of selectors) {
      if (!selectorMatches(s.reqs, node.labels)) continue;
      matched.set(s.selector, (matched.get(s.selector) ?? 0) + 1);
      if (!best || s.priority > best.priority) best = { priority: s.priority, source: `selector "${s.selector}"` };
    }
    const byName = names.get(node.name);
    if (byName !== undefined) best = { priority: byName, source: `node ${node.name}` };
    if (best)
      out.push({ name: node.name, priority: best.priority, source: best.source, ready: node.ready, unschedulable: node.unschedulable });
  }
  for (const s of selectors) if (!matched.has(s.selector)) warnings.push(`selector "${s.selector}" matches no node`);
  if (out.length === 0)
    throw new UsageError(
      'the rollout selects no node: give --selector or --node (or -f with nodeSelectors or nodeNames) that match nodes of the cluster',
    );
  out.sort(byPlanOrder);
  return { nodes: out, warnings };
}

/** The plan's nodes in runs of at most `maxUnavailable`, never mixing priorities. */
export function batches<T extends { priority: number }>(nodes: readonly T[], maxUnavailable: number): T[][] {
  const out: T[][] = [];
  let cur: T[] = [];
  for (const n of nodes) {
    if (cur.length && (cur.length >= maxUnavailable || cur[0]!.priority !== n.priority)) {
      out.push(cur);
      cur = [];
    }
    cur.push(n);
  }
  if (cur.length) out.push(cur);
  return out;
}

/** A new rollout's state: every planned node waiting, phase Pending. */
export function initialState(spec: RolloutSpec, plan: Plan, now: Date = new Date()): RolloutState {
  const time = now.toISOString();
  return {
    spec,
    phase: 'Pending',
    nodes: plan.nodes.map((n) => ({
      name: n.name,
      priority: n.priority,
      phase: 'waiting',
      total: 0,
      evicted: 0,
      ignored: 0,
      failed: 0,
      cordonedByUs: false,
    })),
    log: [
      {
        time,
        message: `created: ${plan.nodes.length} node${plan.nodes.length === 1 ? '' : 's'}, ${spec.maxUnavailable} at a time, replace by ${spec.replace}`,
      },
    ],
    updatedAt: time,
  };
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why a rollout name is not usable (a DNS label: it names the ConfigMap and is a label value), or undefined. */
export function rolloutNameError(name: string): string | undefined {
  if (!DNS_LABEL.test(name))
    return `rollout name "${name}" must be lower-case letters, digits and "-", starting and ending with a letter or digit`;
  if (name.length > 63) return `rollout name "${name}" is longer than 63 characters`;
  return undefined;
}

/** `rollout-20261122-0530` (local time). */
export function generatedName(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `rollout-${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}`;
}

/** The names of the nodes a selector (kubectl syntax) matches; a UsageError for a bad selector. */
export function nodesMatching(selector: string, nodes: readonly PlanNode[]): string[] {
  const reqs = parseSelector(selector);
  return nodes.filter((n) => selectorMatches(reqs, n.labels)).map((n) => n.name);
}
