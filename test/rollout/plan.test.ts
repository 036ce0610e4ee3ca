import { describe, expect, it } from 'vitest';
import { batches, generatedName, resolvePlan, rolloutNameError } from '../../src/rollout/plan.js';
import { CLUSTER, ROLE, usage } from '../helpers/objects/rollout.js';

describe('resolvePlan: Navarchos priority rules', () => {
  it('orders the README example: masters (20) before workers (10), ties by name', () => {
    const plan = resolvePlan(CLUSTER, {
      nodeSelectors: [
        { selector: `${ROLE}=master`, priority: 20 },
        { selector: `${ROLE}=worker`, priority: 10 },
      ],
      nodeNames: [],
    });
    expect(plan.nodes.map((n) => [n.name, n.priority])).toEqual([
      ['m-1', 20],
      ['m-2', 20],
      ['w-1', 10],
      ['w-2', 10],
      ['w-3', 10],
      ['w-4', 10],
    ]);
    expect(plan.nodes[0]!.source).toBe(`selector "${ROLE}=master"`);
    expect(plan.warnings).toEqual([]);
  });

  it('when several selectors match a node the highest priority wins; a name overrides selectors, even with a lower priority', () => {
    const plan = resolvePlan(CLUSTER, {
      nodeSelectors: [
        { selector: `${ROLE}=worker`, priority: 10 },
        { selector: 'zone=c', priority: 30 },
        { selector: 'gpu', priority: 5 },
      ],
      nodeNames: [
        { name: 'w-4', priority: 1 },
        { name: 'm-1', priority: 15 },
      ],
    });
    const prio = Object.fromEntries(plan.nodes.map((n) => [n.name, n.priority]));
    expect(prio).toEqual({ 'w-3': 30, 'm-1': 15, 'w-1': 10, 'w-2': 10, 'w-4': 1 });
    expect(plan.nodes.map((n) => n.name)).toEqual(['w-3', 'm-1', 'w-1', 'w-2', 'w-4']);
    expect(plan.nodes.find((n) => n.name === 'w-4')!.source).toBe('node w-4');
    expect(plan.nodes.find((n) => n.name === 'w-3')!.source).toBe('selector "zone=c"');
  });

  it('warns about a selector that matches nothing, and refuses unknown names, conflicting names, bad selectors and empty plans', () => {
    const plan = resolvePlan(CLUSTER, { nodeSelectors: [{ selector: 'zone=z', priority: 1 }], nodeNames: [{ name: 'w-1', priority: 0 }] });
    expect(plan.warnings).toEqual(['selector "zone=z" matches no node']);
    expect(usage(() => resolvePlan(CLUSTER, { nodeSelectors: [], nodeNames: [{ name: 'nope', priority: 1 }] })).message).toMatch(
      /node "nope" is not a node of the cluster/,
    );
    expect(
      usage(() =>
        resolvePlan(CLUSTER, {
          nodeSelectors: [],
          nodeNames: [
            { name: 'w-1', priority: 1 },
            { name: 'w-1', priority: 2 },
          ],
        }),
      ).message,
    ).toMatch(/node "w-1" is given twice, with priorities 1 and 2/);
    expect(usage(() => resolvePlan(CLUSTER, { nodeSelectors: [{ selector: 'zone in (a', priority: 1 }], nodeNames: [] })).message).toMatch(
      /invalid selector "zone in \(a"/,
    );
    expect(usage(() => resolvePlan(CLUSTER, { nodeSelectors: [{ selector: 'zone=z', priority: 1 }], nodeNames: [] })).message).toMatch(
      /selects no node/,
    );
  });

  it('batches never mix priorities and hold at most maxUnavailable nodes', () => {
    const plan = resolvePlan(CLUSTER, {
      nodeSelectors: [
        { selector: `${ROLE}=master`, priority: 20 },
        { selector: `${ROLE}=worker`, priority: 10 },
      ],
      nodeNames: [],
    });
    expect(batches(plan.nodes, 3).map((b) => b.map((n) => n.name))).toEqual([['m-1', 'm-2'], ['w-1', 'w-2', 'w-3'], ['w-4']]);
    expect(batches(plan.nodes, 1)).toHaveLength(6);
  });

  it('checks rollout names and generates one from the time', () => {
    expect(rolloutNameError('rollout-20261122-0530')).toBeUndefined();
    expect(rolloutNameError('Bad_Name')).toMatch(/lower-case/);
    expect(rolloutNameError('x'.repeat(64))).toMatch(/longer than 63/);
    expect(generatedName(new Date(2026, 10, 22, 5, 30))).toBe('rollout-20261122-0530');
  });
});

/** A state with the README plan; `phases` overrides nodes' phases by name. */
