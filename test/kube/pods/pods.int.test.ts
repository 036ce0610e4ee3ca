import diagnostics from 'node:diagnostics_channel';
import { AppsV1Api, CoreV1Api, KubeConfig, type CoreV1Event } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeJsonClient } from '../../../src/kube/transport/client.js';
import { startStatusFeed, type StatusWatch } from '../../../src/feeds/status-feed.js';
import { configForContext, contextInfos, loadKubeconfig } from '../../../src/kube/config/kubeconfig.js';
import { listJsonPaged } from '../../../src/kube/watch/list.js';
import { slimPod } from '../../../src/kube/pods/pods.js';
import { FAULT_ANNOTATION } from '../../../src/sandbox/sim/index.js';
import type { ContextState } from '../../../src/store/types.js';
import type { PodProblem } from '../../../src/kube/pods/pods.js';
import { eventually } from '../../helpers/cli/cli.js';
import { createNamespace } from '../../helpers/sandbox/namespace.js';
import { sandbox } from '../../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const CONTEXT = 'kind-workload-2';
const PODS_NS = 'podwatch-pods';

function adminConfig(): KubeConfig {
  return configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);
}

function startFleet(kc: KubeConfig): StatusWatch {
  return startStatusFeed(
    kc,
    contextInfos(kc).filter((c) => c.name === CONTEXT),
  );
}

const pause = { name: 'app', image: 'registry.k8s.io/pause:3.9' };

describe('pod and Warning-event summaries from live watches on a real API server', () => {
  let fleet: StatusWatch;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  const state = (): ContextState => fleet.store.getState().status.contexts[CONTEXT]!;
  const ours = (): PodProblem[] => state().pods.problems.filter((p) => p.namespace === PODS_NS);

  beforeAll(async () => {
    const kc = adminConfig();
    core = makeClient(kc, CoreV1Api);
    apps = makeClient(kc, AppsV1Api);
    await createNamespace(core, PODS_NS);
    fleet = startFleet(loadKubeconfig({ kubeconfig }).config);
  });

  afterAll(async () => {
    await fleet?.stop();
    // Leave no failing pods behind for the other files that read this context.
    await core.deleteNamespace({ name: PODS_NS });
    await eventually('podwatch pods gone', async () => (await core.listNamespacedPod({ namespace: PODS_NS })).items.length === 0, 60_000);
  });

  it('lists page by page with continue tokens against the real server', async () => {
    await apps.createNamespacedDeployment({
      namespace: PODS_NS,
      body: {
        metadata: { name: 'filler' },
        spec: {
          replicas: 5,
          selector: { matchLabels: { app: 'filler' } },
          template: { metadata: { labels: { app: 'filler' } }, spec: { containers: [pause] } },
        },
      },
    });
    await eventually(
      '5 filler pods exist',
      async () => (await core.listNamespacedPod({ namespace: PODS_NS, labelSelector: 'app=filler' })).items.length === 5,
      60_000,
    );
    const all = await core.listPodForAllNamespaces();
    const paged = await listJsonPaged(makeJsonClient(adminConfig()), '/api/v1/pods', {}, slimPod, 2);
    expect(all.items.length).toBeGreaterThanOrEqual(5);
    expect(paged.items.map((p) => p.metadata?.uid).sort()).toEqual(all.items.map((p) => p.metadata?.uid).sort());
    expect(Number(paged.metadata?.resourceVersion)).toBeGreaterThan(0);

    // From the watch cache (resourceVersion=0): the same pods, each item read as it streamed
    // in; this server (1.20) sends the whole list at once whatever the limit.
    const paths: string[] = [];
    const onCreate = (msg: unknown) => {
      const p = (msg as { request: { path: string } }).request.path;
      if (p.startsWith('/api/v1/pods?')) paths.push(p);
    };
    diagnostics.subscribe('undici:request:create', onCreate);
    try {
      await eventually(
        'the watch cache lists the same pods',
        async () => {
          paths.length = 0;
          const cached = await listJsonPaged(makeJsonClient(adminConfig()), '/api/v1/pods', {}, slimPod, { watchCache: true, pageSize: 2 });
          return (
            JSON.stringify(cached.items.map((p) => p.metadata?.uid).sort()) === JSON.stringify(all.items.map((p) => p.metadata?.uid).sort())
          );
        },
        30_000,
      );
    } finally {
      diagnostics.unsubscribe('undici:request:create', onCreate);
    }
    expect(paths).toHaveLength(1);
    expect(new URLSearchParams(paths[0]!.split('?')[1]).get('resourceVersion')).toBe('0');
    await apps.deleteNamespacedDeployment({ name: 'filler', namespace: PODS_NS });
    await eventually('filler pods gone', async () => (await core.listNamespacedPod({ namespace: PODS_NS })).items.length === 0, 60_000);
  });

  it('counts a Deployment of 2 pause pods as 2 more Running pods', async () => {
    await eventually('pods synced', () => state().pods.synced, 30_000);
    expect(state().pods.forbidden).toBeUndefined();
    const running = (await core.listPodForAllNamespaces()).items.filter((p) => p.status?.phase === 'Running').length;
    await eventually('store agrees with the server', () => state().pods.byPhase.Running === running, 30_000);
    const before = state().pods.byPhase.Running;

    await apps.createNamespacedDeployment({
      namespace: PODS_NS,
      body: {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [pause] } },
        },
      },
    });
    await eventually('Running grew by 2', () => state().pods.byPhase.Running === before + 2, 60_000);
    const all = (await core.listPodForAllNamespaces()).items;
    await eventually('total matches the server', () => state().pods.total === all.length, 10_000);
    expect(ours()).toEqual([]);
  });

  it('reports an unschedulable pod with the scheduler message, and a Warning event for it', async () => {
    await core.createNamespacedPod({
      namespace: PODS_NS,
      body: { metadata: { name: 'nowhere' }, spec: { nodeSelector: { 'podwatch.fleetdeck.io/none': 'true' }, containers: [pause] } },
    });
    const problem = await eventually(
      'Unschedulable problem',
      () => ours().find((p) => p.name === 'nowhere' && p.reason.startsWith('Unschedulable: ')),
      60_000,
    );
    expect(problem).toMatchObject({ namespace: PODS_NS, phase: 'Pending', restarts: 0 });
    // v1.20's scheduler words a nodeSelector mismatch as node affinity; later ones say node selector.
    expect(problem.reason).toMatch(
      /^Unschedulable: 0\/6 nodes are available: 6 node\(s\) didn't match (node selector|Pod's node affinity)\.?$/,
    );
    expect(problem.node).toBeUndefined();
    expect(problem.createdAt).toBeGreaterThan(Date.now() - 10 * 60_000);
    expect(state().pods.byPhase.Pending).toBeGreaterThanOrEqual(1);
    expect(state().pods.problemCount).toBeGreaterThanOrEqual(1);

    // The real scheduler records a FailedScheduling Warning for it.
    const w = await eventually(
      'FailedScheduling warning',
      () => state().events.warnings.find((e) => e.reason === 'FailedScheduling' && e.object === `Pod ${PODS_NS}/nowhere`),
      60_000,
    );
    expect(w.namespace).toBe(PODS_NS);
    expect(w.message).toMatch(/didn't match (node selector|Pod's node affinity)/);
    expect(w.count).toBeGreaterThanOrEqual(1);
  });

  it('reports what the simulated kubelet reports, worst first', async () => {
    const faulty = (name: string, fault: string) =>
      core.createNamespacedPod({
        namespace: PODS_NS,
        body: { metadata: { name, annotations: { [FAULT_ANNOTATION]: fault } }, spec: { containers: [pause] } },
      });
    await faulty('crashing', 'CrashLoopBackOff');
    await faulty('no-image', 'ImagePullBackOff');
    await faulty('not-ready', 'NotReady');
    const problems = await eventually(
      'three faults and the unschedulable pod',
      () => {
        const p = ours();
        return p.length === 4 && p.some((x) => x.name === 'not-ready' && x.reason.startsWith('NotReady')) ? p : undefined;
      },
      60_000,
    );
    expect(problems.map((p) => [p.name, p.phase, p.reason])).toEqual([
      ['crashing', 'Running', 'CrashLoopBackOff'],
      ['no-image', 'Pending', 'ImagePullBackOff'],
      ['nowhere', 'Pending', expect.stringMatching(/^Unschedulable: /)],
      ['not-ready', 'Running', 'NotReady (0/1 ready)'],
    ]);
    expect(problems[0]).toMatchObject({ restarts: 5, node: expect.any(String) });
  });

  it('drops deleted pods from the counts and the problems', async () => {
    const pending = state().pods.byPhase.Pending;
    const count = state().pods.problemCount;
    await core.deleteNamespacedPod({ name: 'nowhere', namespace: PODS_NS });
    await eventually('unschedulable pod gone', () => !ours().some((p) => p.name === 'nowhere'), 30_000);
    expect(state().pods.byPhase.Pending).toBe(pending - 1);
    expect(state().pods.problemCount).toBe(count - 1);
  });

  it('deduplicates Warning events posted twice for the same reason and object', async () => {
    const pod = (await core.listNamespacedPod({ namespace: PODS_NS, labelSelector: 'app=web' })).items[0]!;
    const post = (name: string, message: string, count: number, at: Date): Promise<CoreV1Event> =>
      core.createNamespacedEvent({
        namespace: PODS_NS,
        body: {
          metadata: { name, namespace: PODS_NS },
          involvedObject: { kind: 'Pod', namespace: PODS_NS, name: pod.metadata!.name!, uid: pod.metadata!.uid!, apiVersion: 'v1' },
          reason: 'PodwatchProbeFailed',
          message,
          type: 'Warning',
          count,
          firstTimestamp: at,
          lastTimestamp: at,
          source: { component: 'podwatch-test' },
        },
      });
    // The second one two seconds later (timestamps have seconds resolution).
    const first = new Date(Math.floor(Date.now() / 1000) * 1000);
    await post('podwatch-1', 'first time', 3, first);
    await post('podwatch-2', 'second time', 1, new Date(first.getTime() + 2000));
    // And a Normal event, which the server-side filter keeps away.
    await core.createNamespacedEvent({
      namespace: PODS_NS,
      body: {
        metadata: { name: 'podwatch-normal' },
        involvedObject: { kind: 'Pod', namespace: PODS_NS, name: pod.metadata!.name! },
        reason: 'PodwatchNormal',
        message: 'all good',
        type: 'Normal',
      },
    });
    const object = `Pod ${PODS_NS}/${pod.metadata!.name!}`;
    const mine = () => state().events.warnings.filter((e) => e.reason === 'PodwatchProbeFailed');
    const w = await eventually(
      'one deduplicated warning with count 4',
      () => (mine().length === 1 && mine()[0]!.count === 4 ? mine()[0] : undefined),
      30_000,
    );
    expect(w).toMatchObject({ object, namespace: PODS_NS, message: 'second time' });
    expect(state().events.warnings[0]?.reason).toBe('PodwatchProbeFailed'); // newest first
    expect(state().events.warnings.some((e) => e.reason === 'PodwatchNormal')).toBe(false);

    // An Event that expires (deleted) takes its part of the count away.
    await core.deleteNamespacedEvent({ name: 'podwatch-2', namespace: PODS_NS });
    await eventually('count back to 3', () => mine()[0]?.count === 3 && mine()[0]?.message === 'first time', 30_000);
    await core.deleteNamespacedEvent({ name: 'podwatch-1', namespace: PODS_NS });
    await eventually('row gone', () => mine().length === 0, 30_000);
  });
});

describe('a user who may not list pods or events', () => {
  let fleet: StatusWatch;
  beforeAll(() => {
    // The admin impersonates a user no RBAC binding names: the server itself answers 403.
    const base = adminConfig();
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: base.clusters,
      users: base.users.map((u) => ({ ...u, impersonateUser: 'podwatch-nobody' })),
      contexts: base.contexts,
      currentContext: CONTEXT,
    });
    fleet = startFleet(kc);
  });
  afterAll(async () => {
    await fleet?.stop();
  });

  it('says which permission is missing and keeps running', async () => {
    const state = () => fleet.store.getState().status.contexts[CONTEXT]!;
    await eventually('pods and events forbidden', () => state().pods.forbidden && state().events.forbidden, 30_000);
    expect(state().pods.forbidden).toMatch(
      /^cannot list pods in all namespaces: HTTP 403: pods is forbidden: User "podwatch-nobody" cannot list resource "pods" .*\(needs list and watch on pods\)$/,
    );
    expect(state().events.forbidden).toMatch(/^cannot list events in all namespaces: HTTP 403: .*\(needs list and watch on events\)$/);
    expect(state().pods).toMatchObject({ synced: false, total: 0, problems: [] });
    expect(state().events).toMatchObject({ synced: false, warnings: [] });
    // Forbidden lists do not make the context look unreachable.
    await eventually('reachable', () => state().reachability === 'reachable', 10_000);
  });
});
