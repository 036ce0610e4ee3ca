/**
 * The sandbox places workloads as Nova does, on real API servers: a control plane installed
 * with both workload clusters connected (`w1`, `w2`); objects applied to it land as copies in
 * the workload clusters by annotation, clusterSelector, fill-and-spill, ScheduleGroup,
 * Duplicate and Divide, or stay pending with the shortfall named; status flows back; an
 * annotation change moves a workload; a copy scaled in its cluster shows as drift; a silent
 * agent turns its cluster not Ready and its workloads orphaned. `fleetdeck workloads` shows each.
 */
import { AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient } from '../../../../src/kube/transport/client.js';
import { eventually } from '../../../helpers/cli/cli.js';
import { placementFleet, W1, W2 } from '../../../helpers/sandbox/placement.js';
import { expectMatchesSchema } from '../../../helpers/schema.js';

const p = placementFleet('place');
const MERGE_PATCH = () => setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const deployment = (name: string, replicas: number, cpu: string, meta = '') => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: $NS${meta}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: main, image: nginx, resources: {requests: {cpu: "${cpu}", memory: 32Mi}}}]}
`;
const policy = (name: string, spec: string) => `
apiVersion: policy.elotl.co/v1alpha1
kind: SchedulePolicy
metadata: {name: ${name}}
spec:
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: $NS}}
${spec}`;

async function eventsAbout(name: string, namespace: string) {
  const list = await makeClient(p.fleet.cpKc(), CoreV1Api).listNamespacedEvent({ namespace });
  return list.items.filter((e) => e.involvedObject.name === name).map((e) => `${e.type} ${e.reason}: ${e.message}`);
}

beforeAll(async () => {
  const r = await p.install();
  expect(r.code, r.stdout + r.stderr).toBe(0);
  await p.toControlPlane(`apiVersion: v1\nkind: Namespace\nmetadata: {name: $NS}`);
}, 600_000);
afterAll(() => p.close(), 600_000);

describe('the sandbox places workloads as Nova does', { timeout: 240_000 }, () => {
  it('each agent keeps its Cluster current: Nova labels, Ready, per-node room and taints', async () => {
    const custom = makeClient(p.fleet.cpKc(), CustomObjectsApi);
    const w1 = await eventually('Cluster w1 with its room', async () => {
      const c = (await custom
        .getClusterCustomObject({ group: 'cluster.elotl.co', version: 'v1alpha1', plural: 'clusters', name: 'w1' })
        .catch(() => undefined)) as
        | {
            metadata: { labels: Record<string, string> };
            status?: {
              availableResources?: Record<string, { cpu: string }>;
              nodeTaints?: object;
              conditions?: { type: string; status: string }[];
            };
          }
        | undefined;
      return c?.status?.availableResources ? c : undefined;
    });
    expect(w1.metadata.labels['kubernetes.io/metadata.name']).toBe('w1');
    expect(w1.metadata.labels['nova.elotl.co/cluster.version']).toMatch(/^v1\.\d+/);
    expect(Object.keys(w1.status!.availableResources!)).toHaveLength(6);
    expect(w1.status!.nodeTaints).toBeDefined();
    expect(w1.status!.conditions!.find((c) => c.type === 'Ready')?.status).toBe('True');
  });

  it('the annotation places a Deployment on the cluster it names; its status flows back', async () => {
    await p.toControlPlane(deployment('pinned', 2, '100m', ', annotations: {nova.elotl.co/cluster: w2}'));
    const row = await p.row('pinned', (r) => r.ready === 2);
    expect(row).toMatchObject({ by: 'annotation', policy: null, state: 'placed', desired: 2, ready: 2 });
    expect(row.clusters).toEqual([{ cluster: 'w2', context: W2, target: true, present: true, desired: 2, ready: 2, drift: [] }]);
    const cp = await eventually('the control plane showing 2 ready', async () => {
      const d = await makeClient(p.fleet.cpKc(), AppsV1Api).readNamespacedDeployment({ name: 'pinned', namespace: p.ns });
      return d.status?.readyReplicas === 2 ? d : undefined;
    });
    expect(cp.metadata?.labels?.['nova.elotl.co/target-cluster']).toBe('w2');
    expect(await p.copy(W1, 'pinned')).toBeUndefined();
    expect(await eventsAbout('pinned', p.ns)).toContain(
      'Normal Scheduled: Picked cluster w2 because the annotation nova.elotl.co/cluster names it',
    );
  });
});

describe('policies', { timeout: 240_000 }, () => {
  it('clusterSelector: the Deployment lands on the selected cluster, with the policy Events', async () => {
    await p.toControlPlane(
      `${policy('only-w1', '  resourceSelectors: {labelSelectors: [{matchLabels: {placement: w1}}]}\n  clusterSelector: {matchLabels: {kubernetes.io/metadata.name: w1}}')}
---
${deployment('selected', 1, '100m', ', labels: {placement: w1}')}`,
    );
    const row = await p.row('selected', (r) => r.ready === 1);
    expect(row).toMatchObject({ by: 'policy', policy: 'only-w1', state: 'placed' });
    expect(row.clusters.map((c) => c.cluster)).toEqual(['w1']);
    expect(row.group).toMatch(/^only-w1-[0-9a-f]{8}$/);
    const events = await eventsAbout('selected', p.ns);
    expect(events).toContain('Normal SchedulePolicyMatched: schedule policy only-w1 will be used to determine target cluster');
    expect(events).toContain(`Normal AddedToScheduleGroup: added to schedule group ${row.group}`);
  });

  it('groupBy: a Deployment, its ConfigMap and Service land together in one ScheduleGroup', async () => {
    const meta = ', labels: {app.shop/part: cart}';
    await p.toControlPlane(`${policy('by-part', '  resourceSelectors: {labelSelectors: [{matchExpressions: [{key: app.shop/part, operator: Exists}]}]}\n  groupBy: {labelKey: app.shop/part}')}
---
${deployment('cart', 1, '100m', meta)}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cart-config, namespace: $NS${meta}}
data: {mode: fast}
---
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: $NS${meta}}
spec: {selector: {app: cart}, ports: [{port: 80, protocol: TCP}]}`);
    const dep = await p.row('cart', (r) => r.ready === 1);
    const cm = await p.row('cart-config', (r) => r.state === 'placed', 'ConfigMap');
    const svc = await p.row('cart', (r) => r.state === 'placed', 'Service');
    expect(new Set([dep.group, cm.group, svc.group]).size).toBe(1);
    expect(new Set([dep, cm, svc].map((r) => r.clusters[0]?.cluster)).size).toBe(1);
    const groups = (await makeClient(p.fleet.cpKc(), CustomObjectsApi).listClusterCustomObject({
      group: 'policy.elotl.co',
      version: 'v1alpha1',
      plural: 'schedulegroups',
    })) as {
      items: {
        metadata: { name: string; labels: Record<string, string> };
        spec: { objectRefs: { kind: string }[] };
        status: { scheduled: boolean };
      }[];
    };
    const g = groups.items.find((x) => x.metadata.name === dep.group)!;
    expect(g.metadata.labels).toMatchObject({
      'app.shop/part': 'cart',
      'nova.elotl.co/matching-policy': 'by-part',
      'nova.elotl.co/target-cluster': dep.clusters[0]!.cluster,
    });
    expect(g.spec.objectRefs.map((r) => r.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Service']);
    expect(g.status.scheduled).toBe(true);
  });

  it('Duplicate sends a ConfigMap to both clusters; Divide splits 10 replicas 30/70 into 3 and 7 and the control plane shows 10/10', async () => {
    await p.toControlPlane(`${policy('everywhere', '  resourceSelectors: {labelSelectors: [{matchLabels: {placement: everywhere}}]}\n  spreadConstraints: {topologyKey: kubernetes.io/metadata.name, spreadMode: Duplicate}')}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: shared, namespace: $NS, labels: {placement: everywhere}}
data: {region: eu}
---${policy('split', '  resourceSelectors: {labelSelectors: [{matchLabels: {placement: split}}]}\n  spreadConstraints:\n    topologyKey: kubernetes.io/metadata.name\n    spreadMode: Divide\n    percentageSplit: [{topologyValue: w1, percentage: 30}, {topologyValue: w2, percentage: 70}]')}
---
${deployment('web', 10, '50m', ', labels: {placement: split}')}`);
    const shared = await p.row('shared', (r) => r.state === 'duplicated', 'ConfigMap');
    expect(shared.clusters.map((c) => [c.cluster, c.present])).toEqual([
      ['w1', true],
      ['w2', true],
    ]);
    const web = await p.row('web', (r) => r.ready === 10);
    expect(web).toMatchObject({ state: 'divided', desired: 10, ready: 10, policy: 'split' });
    expect(web.clusters.map((c) => [c.cluster, c.desired, c.ready])).toEqual([
      ['w1', 3, 3],
      ['w2', 7, 7],
    ]);
    await eventually('the control plane showing 10/10', async () => {
      const d = await makeClient(p.fleet.cpKc(), AppsV1Api).readNamespacedDeployment({ name: 'web', namespace: p.ns });
      return d.status?.readyReplicas === 10 && d.status.replicas === 10;
    });
  });

  it('no cluster can fit it: pending, the shortfall named on the row and in a Warning; workloads exits 1', async () => {
    await p.toControlPlane(
      `${policy('big', '  resourceSelectors: {labelSelectors: [{matchLabels: {placement: big}}]}')}
---
${deployment('huge', 1, '64', ', labels: {placement: big}')}`,
    );
    const row = await p.row('huge', (r) => r.state === 'pending' && !!r.reason?.includes('skipped'));
    expect(row.reason).toMatch(
      /^no cluster fits: Cluster w1 skipped, room for 0 of 1 pod\(s\) of 64 cores, 32 MiB; most free on one node: [\d.]+ cores, [\d.]+ GiB; Cluster w2 skipped, room for 0 of 1/,
    );
    expect(row.clusters).toEqual([]);
    expect((await p.rows()).code).toBe(1);
    await eventually('the Warning NoClusterFits', async () =>
      (await eventsAbout('huge', p.ns)).some((e) => e.startsWith('Warning NoClusterFits: no cluster fits: Cluster w1 skipped')),
    );
  });
});

describe('capacity, moves, drift and a silent agent', { timeout: 240_000 }, () => {
  it('fill-and-spill: w1 filled up by its own workloads, the Deployment spills to w2 and the Event says why w1 was skipped', async () => {
    // Six pods of 3.5 CPU in w1 itself leave under 0.5 CPU on each of its nodes.
    await p.toCluster(W1, `apiVersion: v1\nkind: Namespace\nmetadata: {name: $NS}\n---\n${deployment('filler', 6, '3500m')}`);
    await eventually('w1 reporting its nodes full', async () => {
      const c = (await makeClient(p.fleet.cpKc(), CustomObjectsApi).getClusterCustomObject({
        group: 'cluster.elotl.co',
        version: 'v1alpha1',
        plural: 'clusters',
        name: 'w1',
      })) as {
        status: { availableResources: Record<string, { cpu: string }> };
      };
      return Object.values(c.status.availableResources).every((r) => Number.parseInt(r.cpu, 10) < 1000);
    });
    const ordered =
      '  resourceSelectors: {labelSelectors: [{matchLabels: {placement: ordered}}]}\n  orderedClusterSelector: {matchExpressions: [{key: kubernetes.io/metadata.name, operator: In, values: [w1, w2]}]}';
    await p.toControlPlane(`${policy('fill', ordered)}\n---\n${deployment('spill', 2, '1', ', labels: {placement: ordered}')}`);
    const row = await p.row('spill', (r) => r.ready === 2);
    expect(row.clusters.map((c) => c.cluster)).toEqual(['w2']);
    const groupEvents = await eventually('the ScheduleGroup Event', async () => {
      const list = await makeClient(p.fleet.cpKc(), CoreV1Api).listNamespacedEvent({ namespace: 'default' });
      return list.items.find((e) => e.involvedObject.name === row.group && e.reason === 'ScheduleGroupSyncedToWorkloadCluster');
    });
    expect(groupEvents.message).toMatch(
      /^Cluster w1 skipped, room for 0 of 2 pod\(s\) of 1 cores, 32 MiB; most free on one node: \d+m CPU, .*; Picked cluster w2 because it has enough resources$/,
    );
    await makeClient(p.ctx(W1), AppsV1Api).deleteNamespacedDeployment({ name: 'filler', namespace: p.ns });
  });

  it('a move by annotation: the copy appears in the new cluster and leaves the old one', async () => {
    const apps = makeClient(p.fleet.cpKc(), AppsV1Api);
    await apps.patchNamespacedDeployment(
      { name: 'pinned', namespace: p.ns, body: { metadata: { annotations: { 'nova.elotl.co/cluster': 'w1' } } } },
      MERGE_PATCH(),
    );
    const row = await p.row(
      'pinned',
      (r) => r.state === 'placed' && r.clusters.length === 1 && r.clusters[0]?.cluster === 'w1' && r.ready === 2,
    );
    expect(row.clusters[0]).toMatchObject({ context: W1, present: true });
    expect(await p.copy(W2, 'pinned')).toBeUndefined();
  });

  it('fleetdeck move: refused read-only and without --yes; with it, the annotation set and a line per change until moved; again: nothing to do', async () => {
    const args = ['move', 'deploy/selected', '--to', 'w2', '-n', p.ns];
    const readOnly = await p.fleet.cli([...args, '--yes', '--read-only']);
    expect([readOnly.code, readOnly.stderr.trim().split('\n').length]).toEqual([2, 1]);
    const unasked = await p.fleet.cli(args);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('confirm with --yes');
    const unknown = await p.fleet.cli(['move', 'deploy/selected', '--to', 'mars', '-n', p.ns, '--yes']);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([2, 'fleetdeck: no Nova cluster named mars; the clusters are w1, w2']);
    const moved = await p.fleet.cli([...args, '--yes']);
    expect(moved.code, moved.stdout + moved.stderr).toBe(0);
    const lines = moved.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      `Move deployment/selected in ${p.ns} from w1 (placed by policy only-w1) to w2: sets the annotation nova.elotl.co/cluster=w2 on the control plane's object; from then on no policy moves it.`,
    );
    expect(lines).toContain('annotation nova.elotl.co/cluster=w2 set');
    expect(lines.at(-1)).toBe('Moved: deployment/selected runs in w2.');
    expect(await p.copy(W1, 'selected')).toBeUndefined();
    const again = await p.fleet.cli([...args, '--yes']);
    expect([again.code, again.stdout.trim()]).toEqual([0, 'deployment/selected already runs in w2 (annotation set): nothing to do.']);
  });

  it('drift: a copy scaled in its workload cluster shows as drifted, with the field and both values', async () => {
    await makeClient(p.ctx(W2), AppsV1Api).patchNamespacedDeploymentScale(
      { name: 'web', namespace: p.ns, body: { spec: { replicas: 5 } } },
      MERGE_PATCH(),
    );
    const row = await p.row('web', (r) => r.state === 'drifted');
    expect(row.reason).toBe('in w2: spec.replicas: 7 → 5');
    expect(row.desired).toBe(10);
    const text = await p.fleet.cli(['workloads']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`deployment/web -n ${p.ns}: drifted: in w2: spec.replicas: 7 → 5`);
  });

  it('rescheduling: pods that stay Pending in the cluster picked make its agent ask, and the workload moves to the next cluster', async () => {
    // Fill-and-spill picks w1 (room enough by the Cluster's report), but only a node of w2 matches the pods' nodeSelector.
    const picky = deployment('picky', 1, '100m', ', labels: {placement: ordered}').replace(
      'spec: {containers:',
      'spec: {nodeSelector: {kubernetes.io/hostname: workload-2-node-2}, containers:',
    );
    await p.toControlPlane(picky);
    await p.row('picky', (r) => r.clusters.some((c) => c.cluster === 'w1' && c.present));
    const row = await p.row(
      'picky',
      (r) => r.state === 'placed' && r.clusters.length === 1 && r.clusters[0]?.cluster === 'w2' && r.ready === 1,
      'Deployment',
      150_000,
    );
    expect(row.clusters[0]).toMatchObject({ context: W2, present: true });
    expect(await eventsAbout('picky', p.ns)).toContain(
      `Warning ReschedulingTriggered: deployment ${p.ns}/picky does not have minimum replicas available`,
    );
    const explain = await p.fleet.cli(['explain', 'deploy/picky', '-n', p.ns]);
    expect(explain.stdout).toContain('* Cluster w1... its pods stayed Pending there (rescheduled away) ✗');
    expect(await p.copy(W1, 'picky')).toBeUndefined();
  });

  it('an agent stopped: its cluster turns not Ready and what runs there is orphaned; back when it reports again', async () => {
    const agent = makeClient(p.ctx(W2), AppsV1Api);
    const scale = (replicas: number) =>
      agent.patchNamespacedDeploymentScale(
        { name: 'nova-agent', namespace: p.fleet.namespace, body: { spec: { replicas } } },
        MERGE_PATCH(),
      );
    await scale(0);
    const shared = await p.row('shared', (r) => r.state === 'orphaned', 'ConfigMap', 150_000);
    expect(shared.reason).toBe('cluster w2 is not Ready (its agent is not reporting)');
    // Kept where it runs: nothing moves off a cluster whose agent is silent.
    expect(shared.clusters.map((c) => [c.cluster, c.present])).toEqual([
      ['w1', true],
      ['w2', true],
    ]);
    await scale(1);
    await p.row('shared', (r) => r.state === 'duplicated', 'ConfigMap', 150_000);
  });
});

describe('fleetdeck explain', { timeout: 240_000 }, () => {
  it('a workload no cluster fits: each cluster with its shortfall and a hint; exit 1', async () => {
    const r = await p.fleet.cli(['explain', 'deploy/huge', '-n', p.ns]);
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`deployment/huge in ${p.ns}: pending`);
    expect(r.stdout).toMatch(/^\* SchedulePolicy big matches it\.\.\. ScheduleGroup big-[0-9a-f]{8} √$/m);
    expect(r.stdout).toMatch(
      / {2}\* Cluster w1\.\.\. room for 0 of 1 pod\(s\) of 64 cores, 32 MiB; most free on one node: .* ✗\n {4}free room in cluster w1 or lower the requests/,
    );
    expect(r.stdout).toMatch(/\* Not scheduled\.\.\. pending ✗\n {2}no cluster fits: Cluster w1 skipped/);
  });

  it('an object no policy catches says so with what to do; a name not there and a bad KIND/NAME get one line each', async () => {
    await p.toControlPlane('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: loose, namespace: $NS}\ndata: {a: b}');
    const r = await p.fleet.cli(['explain', 'cm/loose', '-n', p.ns]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('No SchedulePolicy matches it... 6 policies defined ✗');
    expect(r.stdout).toContain("give it labels a policy's resourceSelectors select");
    const missing = await p.fleet.cli(['explain', 'deploy/nothing', '-n', p.ns]);
    expect([missing.code, missing.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(missing.stderr).toContain(`deployment/nothing not found in namespace ${p.ns} of the control plane`);
    const bad = await p.fleet.cli(['explain', 'pods/x']);
    expect([bad.code, bad.stderr.trim().split('\n').length]).toEqual([2, 1]);
  });

  it('a placed Deployment: its policy, the clusters looked at, where it went and its copy ready; exit 0', async () => {
    const r = await p.fleet.cli(['explain', 'deployment/spill', '-n', p.ns]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain('* SchedulePolicy fill matches it');
    expect(r.stdout).toContain('The policy selects 2 of 2 cluster(s) √');
    expect(r.stdout).toContain('  * Cluster w2... picked: already runs it √');
    expect(r.stdout).toContain('* Placed on w2... placed √');
    expect(r.stdout).toContain(`* Copy in w2 (${W2})... 2/2 ready √`);
  });

  it('policy check: a policy not yet applied — what it would catch and where it would go; a bad file is one line, exit 2', async () => {
    const file = path.join(p.fleet.dir, 'loose-policy.yaml');
    fs.writeFileSync(
      file,
      `apiVersion: policy.elotl.co/v1alpha1\nkind: SchedulePolicy\nmetadata: {name: loose}\nspec:\n  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ${p.ns}}}\n  resourceSelectors: {labelSelectors: [{matchExpressions: [{key: placement, operator: DoesNotExist}, {key: app.shop/part, operator: DoesNotExist}]}]}\n  clusterSelector: {matchLabels: {kubernetes.io/metadata.name: w2}}\n`,
    );
    const r = await p.fleet.cli(['policy', 'check', file, '-o', 'json']);
    const check = JSON.parse(r.stdout) as { catches: { ref: string }[]; units: { members: string[]; targets: { cluster: string }[] }[] };
    expectMatchesSchema(check, 'policy-check');
    expect(check.catches.map((c) => c.ref)).toContain(`ConfigMap/${p.ns}/loose`);
    expect(check.units.find((u) => u.members.includes(`ConfigMap/${p.ns}/loose`))?.targets).toEqual([{ cluster: 'w2', replicas: null }]);
    // Nothing was applied.
    expect((await p.rows()).rows.find((x) => x.name === 'loose')?.state).toBe('pending');
    fs.writeFileSync(file, 'kind: ConfigMap\n');
    const bad = await p.fleet.cli(['policy', 'check', file]);
    expect([bad.code, bad.stderr.trim().split('\n').length]).toEqual([2, 1]);
  });
});
