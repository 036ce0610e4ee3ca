import { describe, expect, it } from 'vitest';
import type { ApiObject } from '../../src/kube/api/api-resources.js';
import type { PlacementRead } from '../../src/kube/nova/placement-read.js';
import { workloadRows, workloadRowsInTurns } from '../../src/placement/rows.js';

const configMap = (i: number): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: `cm-${i}`, namespace: 'shop', labels: { 'nova.elotl.co/target-cluster': i % 2 ? 'w1' : 'w2' } },
  data: { i: String(i) },
});

function read(n: number): PlacementRead {
  const objects = Array.from({ length: n }, (_, i) => configMap(i));
  const cluster = (name: string): ApiObject => ({
    apiVersion: 'cluster.elotl.co/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  });
  return {
    cp: { clusters: [cluster('w1'), cluster('w2')], policies: [], groups: [], namespaces: [], objects },
    events: [],
    copies: [
      { context: 'c1', clusterName: 'w1', objects: objects.filter((_, i) => i % 2 === 1) },
      { context: 'c2', clusterName: 'w2', objects: objects.filter((_, i) => i % 2 === 0).slice(1) },
    ],
  };
}

describe('the rows worked out in turns', () => {
  it('are the same rows, and other work runs between the turns', async () => {
    const r = read(600);
    let ranBetween = false;
    const inTurns = workloadRowsInTurns(r, 100);
    setImmediate(() => {
      ranBetween = true;
    });
    const rows = await inTurns;
    expect(ranBetween).toBe(true);
    expect(rows).toEqual(workloadRows(r));
    expect(rows.filter((x) => x.state === 'moving').map((x) => x.name)).toEqual(['cm-0']);
    expect(rows.filter((x) => x.state === 'placed')).toHaveLength(599);
  });
});
