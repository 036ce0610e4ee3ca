import { describe, expect, it } from 'vitest';
import type { DisruptionBudget } from '../../../src/rollout/guards/types.js';
import { budgetTake } from '../../../src/rollout/runner/hold-checks.js';

const ONE: DisruptionBudget = { nodes: 1, of: 'cluster', schedules: [] };
const node = (name: string, over: { unschedulable?: boolean; ready?: boolean } = {}) => ({
  name,
  unschedulable: false,
  ready: true,
  ...over,
});
const take = (batch: string[], nodes: ReturnType<typeof node>[], budget = ONE) =>
  budgetTake(batch, { budget, now: new Date('2026-11-28T10:00:00Z'), nodes, selected: new Set(batch) });

describe('the budget on a batch', () => {
  it('holds while another node is unavailable, saying which', () => {
    const c = take(['a'], [node('a'), node('b', { ready: false })]);
    expect(c.hold?.kind).toBe('budget');
    expect(c.hold?.reason).toContain('1 node of 1 allowed unavailable is taken (b NotReady)');
  });

  it('lets a node of the batch that is already cordoned or NotReady go: it costs nothing, and goes first', () => {
    expect(take(['a'], [node('a', { unschedulable: true }), node('b')])).toEqual({ take: ['a'] });
    expect(take(['a', 'b', 'c'], [node('a'), node('b', { ready: false }), node('c')])).toEqual({ take: ['b'] });
  });

  it('caps the batch at what the budget leaves', () => {
    const twenty: DisruptionBudget = { percent: 20, of: 'cluster', schedules: [] };
    const ten = Array.from({ length: 10 }, (_, i) => node(`n${i}`));
    expect(take(['n0', 'n1', 'n2'], ten, twenty)).toEqual({ take: ['n0', 'n1'] });
  });
});
