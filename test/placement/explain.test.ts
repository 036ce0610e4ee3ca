import { describe, expect, it } from 'vitest';
import { formatChecklist } from '../../src/checklist/checklist.js';
import { explainWorkload } from '../../src/placement/explain.js';
import { placementRead } from '../helpers/screens/workloads.js';

const text = (read: ReturnType<typeof placementRead>, kind: string, name: string) => {
  const found = explainWorkload(read, { kind, namespace: 'shop', name });
  return found ? formatChecklist(found.items, { ascii: false }) : undefined;
};

describe('the placement checklist, for each cause of a workload created but not scheduled', () => {
  it('a taint it does not tolerate, and a cluster not Ready: each named, each with its hint', () => {
    const read = placementRead();
    const [w1, w2] = read.cp.clusters as unknown as {
      status: { nodeTaints: Record<string, unknown>; availableResources: Record<string, unknown>; conditions: { status: string }[] };
    }[];
    for (const n of Object.keys(w1!.status.availableResources))
      w1!.status.nodeTaints[n] = [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }];
    w2!.status.conditions[0]!.status = 'False';
    const out = text(read, 'Deployment', 'huge')!;
    expect(out).toContain(
      '  * Cluster w1... every node has a taint it does not tolerate (gpu=true:NoSchedule) ✗\n    add a toleration for gpu=true:NoSchedule to its pod template, or pick another cluster',
    );
    expect(out).toContain(
      '  * Cluster w2... not Ready (its agent is not reporting) ✗\n    check the nova-agent of cluster w2 (fleetdeck status shows it)',
    );
    expect(out).toContain('* Not scheduled... pending ✗');
  });

  it('no policy catches it; a policy that selects no cluster', () => {
    const read = placementRead();
    read.cp.objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'loose', namespace: 'shop' }, data: {} });
    expect(text(read, 'ConfigMap', 'loose')).toContain('No SchedulePolicy matches it... 2 policies defined ✗');
    (read.cp.policies[1]!.spec as Record<string, unknown>).clusterSelector = { matchLabels: { region: 'mars' } };
    expect(text(read, 'Deployment', 'huge')).toContain(
      "The policy selects no cluster ✗\n  its clusterSelector matches no Cluster's labels",
    );
  });

  it('a placed, divided workload: its copies with their ready replicas; an object not there is undefined', () => {
    const read = placementRead();
    const out = text(read, 'Deployment', 'web')!;
    expect(out).toContain('* Placed on w1, w2... divided √');
    expect(out).toContain('* Copy in w1 (kind-workload-1)... 3/3 ready √');
    expect(out).toContain('* Copy in w2 (kind-workload-2)... 7/7 ready √');
    expect(text(read, 'Deployment', 'nothing')).toBeUndefined();
  });
});
