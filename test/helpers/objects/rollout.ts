/** Rollout specs, clusters and states for the rollout's tests. */
import { expect } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { initialState, resolvePlan } from '../../../src/rollout/plan.js';
import type { NodePhase, PlanNode, RolloutSpec, RolloutState } from '../../../src/rollout/types.js';

export const ROLE = 'kubernetes.io/role';

export function node(name: string, labels: Record<string, string> = {}, over: Partial<PlanNode> = {}): PlanNode {
  return { name, labels, unschedulable: false, ready: true, ...over };
}

export function spec(over: Partial<RolloutSpec> = {}): RolloutSpec {
  return {
    name: 'r1',
    context: 'kind-workload-1',
    nodeSelectors: [],
    nodeNames: [],
    maxUnavailable: 1,
    replace: 'uncordon',
    drain: { force: false, deleteEmptyDirData: false, timeoutMs: 900_000 },
    health: { passes: 3, intervalMs: 5_000, timeoutMs: 600_000 },
    ...over,
  };
}

/** The Navarchos README cluster: 2 masters, 4 workers. */
export const CLUSTER: PlanNode[] = [
  node('w-1', { [ROLE]: 'worker', zone: 'a' }),
  node('m-1', { [ROLE]: 'master', zone: 'a' }),
  node('w-2', { [ROLE]: 'worker', zone: 'b' }),
  node('m-2', { [ROLE]: 'master', zone: 'b' }),
  node('w-3', { [ROLE]: 'worker', zone: 'c' }),
  node('w-4', { [ROLE]: 'worker', zone: 'c', gpu: '' }),
];

export const usage = (fn: () => unknown): UsageError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a UsageError');
};

export function state(over: Partial<RolloutSpec> = {}, phases: Record<string, NodePhase> = {}): RolloutState {
  const s = spec({
    nodeSelectors: [
      { selector: `${ROLE}=master`, priority: 20 },
      { selector: `${ROLE}=worker`, priority: 10 },
    ],
    ...over,
  });
  const st = initialState(s, resolvePlan(CLUSTER, s), new Date('2026-01-01T00:00:00Z'));
  for (const n of st.nodes) if (phases[n.name]) n.phase = phases[n.name]!;
  return st;
}
