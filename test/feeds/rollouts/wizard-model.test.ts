import { describe, expect, it } from 'vitest';
import type { PlanNode } from '../../../src/rollout/types.js';
import { initialNewRolloutState, newRolloutReducer } from '../../../src/feeds/rollouts/wizard-model.js';

const NODES: PlanNode[] = [
  ...['a', 'b', 'c', 'd'].map((x, i) => ({
    name: `w1-${x}`,
    labels: { role: 'worker', 'topology.kubernetes.io/zone': `zone-${'abc'[i % 3]}` },
    unschedulable: false,
    ready: true,
  })),
  { name: 'w1-e', labels: { role: 'infra' }, unschedulable: false, ready: true },
  { name: 'w1-f', labels: { role: 'infra' }, unschedulable: false, ready: true },
];

describe('the new-rollout wizard state', () => {
  it('the wizard refuses an invalid selector and a bad priority; an empty priority takes the selector back', () => {
    let s = newRolloutReducer(initialNewRolloutState(), { type: 'context', context: 'c', navarchos: false });
    s = newRolloutReducer(s, { type: 'nodes', nodes: NODES });
    expect(newRolloutReducer(s, { type: 'selector', text: 'role in (a' }).error).toMatch(/invalid selector/);
    s = newRolloutReducer(s, { type: 'selector', text: 'role=worker' });
    expect(newRolloutReducer(s, { type: 'selectorPriority', text: 'high' }).error).toMatch(/not a priority/);
    s = newRolloutReducer(s, { type: 'selectorPriority', text: '20' });
    expect(s.selectors).toEqual([{ selector: 'role=worker', priority: 20 }]);
    s = newRolloutReducer(s, { type: 'selector', text: 'role=worker' });
    s = newRolloutReducer(s, { type: 'selectorPriority', text: '' });
    expect(s.selectors).toEqual([]);
    expect(newRolloutReducer(s, { type: 'pickNodes', names: [] }).error).toMatch(/pick at least one node/);
  });
});
