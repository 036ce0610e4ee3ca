import { describe, expect, it } from 'vitest';
import { decide } from '../../src/placement/decide.js';
import { cluster, configMap, deployment, policy } from './fixtures.js';

const A = cluster('a', 2, 1000, { tier: 'gold' });
const B = cluster('b', 3, 2000, { tier: 'gold' });
const C = cluster('c', 1, 4000, { tier: 'bronze' });

describe('placing one unit', () => {
  it('the annotation places it on the cluster it names; a cluster not connected leaves it pending, named', () => {
    const w = deployment('web', 2, 100, {}, { 'nova.elotl.co/cluster': 'c' });
    expect(decide({ members: [w], annotation: 'c', current: [] }, [A, B, C]).targets).toEqual([{ cluster: 'c' }]);
    const lost = decide({ members: [w], annotation: 'zz', current: [] }, [A, B, C]);
    expect(lost.targets).toEqual([]);
    expect(lost.pending).toMatch(/cluster zz, which is not connected/);
  });

  it('clusterSelector: among the selected clusters that fit, the one with most free CPU; a cluster holding it keeps it', () => {
    const p = policy('gold', { clusterSelector: { matchLabels: { tier: 'gold' } } });
    const d = decide({ members: [deployment('web', 2, 500)], policy: p, current: [] }, [A, B, C]);
    expect(d.targets).toEqual([{ cluster: 'b' }]);
    expect(d.candidates.find((c) => c.cluster === 'c')?.verdict).toBe('not selected');
    expect(decide({ members: [deployment('web', 2, 500)], policy: p, current: ['a'] }, [A, B, C]).targets).toEqual([{ cluster: 'a' }]);
  });

  it('orderedClusterSelector fills the first cluster and spills to the next, saying why the first was skipped', () => {
    const p = policy('ordered', {
      orderedClusterSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['a', 'b'] }] },
    });
    const small = decide({ members: [deployment('web', 2, 800)], policy: p, current: [] }, [A, B, C]);
    expect(small.targets).toEqual([{ cluster: 'a' }]);
    const big = decide({ members: [deployment('web', 3, 900)], policy: p, current: [] }, [A, B, C]);
    expect(big.targets).toEqual([{ cluster: 'b' }]);
    expect(big.message).toBe(
      'Cluster a skipped, room for 2 of 3 pod(s) of 900m CPU, 256 MiB; most free on one node: 100m CPU, 7.8 GiB; Picked cluster b because it has enough resources',
    );
  });

  it('nothing fits: pending, each candidate with its shortfall; a taint it does not tolerate and a cluster not Ready are named', () => {
    const tainted = { ...A, nodes: A.nodes.map((n) => ({ ...n, taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] })) };
    const down = { ...C, ready: false };
    const d = decide({ members: [deployment('huge', 1, 3000)], policy: policy('all'), current: [] }, [tainted, B, down]);
    expect(d.targets).toEqual([]);
    expect(d.pending).toBe(
      'no cluster fits: Cluster a skipped, every node has a taint it does not tolerate (gpu=true:NoSchedule); ' +
        'Cluster b skipped, room for 0 of 1 pod(s) of 3 cores, 256 MiB; most free on one node: 2 cores, 8 GiB; ' +
        'Cluster c skipped, not Ready (its agent is not reporting)',
    );
  });

  it('Divide 10 replicas 30/70 gives 3 and 7; 5 at 70/30 rounds down to 3 and 1', () => {
    const spread = (split: [string, number][]) =>
      policy('divide', {
        spreadConstraints: {
          topologyKey: 'kubernetes.io/metadata.name',
          spreadMode: 'Divide',
          percentageSplit: split.map(([topologyValue, percentage]) => ({ topologyValue, percentage })),
        },
      });
    const ten = decide(
      {
        members: [deployment('web', 10, 100)],
        policy: spread([
          ['a', 30],
          ['b', 70],
        ]),
        current: [],
      },
      [A, B, C],
    );
    expect(ten.targets.map((t) => [t.cluster, Object.values(t.replicas ?? {})[0]])).toEqual([
      ['a', 3],
      ['b', 7],
    ]);
    expect(ten.message).toBe('Divided over 2 cluster(s): a 3, b 7');
    const five = decide(
      {
        members: [deployment('web', 5, 100)],
        policy: spread([
          ['a', 70],
          ['b', 30],
        ]),
        current: [],
      },
      [A, B, C],
    );
    expect(five.targets.map((t) => Object.values(t.replicas ?? {})[0])).toEqual([3, 1]);
  });

  it('Duplicate sends the whole unit to every selected cluster; one that cannot hold it leaves the unit pending', () => {
    const dup = policy('dup', {
      clusterSelector: { matchLabels: { tier: 'gold' } },
      spreadConstraints: { spreadMode: 'Duplicate', topologyKey: 'kubernetes.io/metadata.name' },
    });
    const d = decide({ members: [deployment('web', 2, 500), configMap('cfg')], policy: dup, current: [] }, [A, B, C]);
    expect(d.mode).toBe('Duplicate');
    expect(d.targets.map((t) => t.cluster)).toEqual(['a', 'b']);
    const tooBig = decide({ members: [deployment('web', 2, 1500)], policy: dup, current: [] }, [A, B, C]);
    expect(tooBig.targets).toEqual([]);
    expect(tooBig.pending).toMatch(/^no cluster fits the share of kubernetes.io\/metadata.name=a: a room for 0 of 2/);
  });

  it('no policy and no annotation: pending, saying so', () => {
    expect(decide({ members: [configMap('cfg')], current: [] }, [A]).pending).toBe(
      'no SchedulePolicy matches it and it has no nova.elotl.co/cluster annotation',
    );
  });
});

describe('keeping what runs', () => {
  it('a cluster already running the unit keeps it, also while not Ready; a new placement avoids a cluster not Ready', () => {
    const p = policy('all');
    const downB = { ...B, ready: false };
    const kept = decide({ members: [deployment('web', 2, 500)], policy: p, current: ['b'] }, [A, downB]);
    expect(kept.targets).toEqual([{ cluster: 'b' }]);
    expect(kept.candidates.find((c) => c.cluster === 'b')?.why).toBe('already runs it (not Ready: kept until its agent reports again)');
    expect(decide({ members: [deployment('web', 2, 500)], policy: p, current: [] }, [A, downB]).targets).toEqual([{ cluster: 'a' }]);
  });
});
