import path from 'node:path';
import { AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HeldLogActions, startLogsFeed } from '../../src/feeds/logs.js';
import { logsWork } from '../../src/feeds/logs-work.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { type LogEntry, streamPodLog } from '../../src/kube/pods/pod-logs.js';
import { readState } from '../../src/sandbox/state.js';
import { createFleetStore, type FleetStore } from '../../src/store/fleet-store.js';
import { mergedLines } from '../../src/store/logs.js';
import { eventually } from '../helpers/cli/cli.js';
import { sandboxContainerLog } from '../helpers/sandbox/container-logs.js';
import { ETCD_IMAGE } from '../helpers/sandbox/control-plane.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const clusterDir = path.join(sandbox().dir, 'clusters', 'workload-1');
const CONTEXT = 'kind-workload-1';
const NS = 'logview-it';
const SELECTOR = 'app=logview';

const kc = (): KubeConfig => configForContext(loadKubeconfig({ kubeconfig }).config, CONTEXT);

describe('logs feed against the sandbox', () => {
  let core: CoreV1Api;
  let store: FleetStore;
  let feed: HeldLogActions;
  let pods: string[] = [];

  beforeAll(async () => {
    core = makeClient(kc(), CoreV1Api);
    await createNamespace(core, NS);
    await makeClient(kc(), AppsV1Api).createNamespacedDeployment({
      namespace: NS,
      body: {
        metadata: { name: 'logview' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'logview' } },
          template: {
            metadata: { labels: { app: 'logview' }, annotations: { 'sandbox.fleetdeck.io/log-rate': '20' } },
            spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.9' }] },
          },
        },
      },
    });
    pods = await eventually(
      'two logview pods running',
      async () => {
        const list = await core.listNamespacedPod({ namespace: NS, labelSelector: SELECTOR });
        const running = list.items.filter((p) => p.status?.phase === 'Running').map((p) => p.metadata?.name ?? '');
        return running.length === 2 ? running.sort() : undefined;
      },
      90_000,
    );
    store = createFleetStore();
    feed = startLogsFeed(store, logsWork({ kc }), { flushMs: 20 });
  });

  afterAll(async () => {
    feed?.stop();
    await core?.deleteNamespace({ name: NS }).catch(() => {});
  });

  it('finds the pods of a selector, their container, and the Events of the object', async () => {
    await core.createNamespacedEvent({
      namespace: NS,
      body: {
        metadata: { name: `${pods[0]}.logview-it-test` },
        involvedObject: { kind: 'Pod', name: pods[0], namespace: NS, apiVersion: 'v1' },
        reason: 'LogViewTest',
        message: 'an Event for the log view',
        type: 'Warning',
        count: 2,
        lastTimestamp: new Date(),
        firstTimestamp: new Date(),
        source: { component: 'logview-it' },
      },
    });
    feed.openLogs({ title: 'logview', context: CONTEXT, namespace: NS, selector: SELECTOR });
    await eventually('the pods resolved', () => store.getState().logs.phase === 'ready' || undefined, 30_000);
    const s = store.getState().logs;
    expect(s.sources.map((x) => x.pod).sort()).toEqual(pods);
    expect(s.container).toBe('app');
    expect(s.containers).toEqual(['app']);
    const events = await eventually(
      'the Events of the first pod',
      () => store.getState().logs.events.find((e) => e.reason === 'LogViewTest'),
      30_000,
    );
    expect(events).toMatchObject({ type: 'Warning', count: 2, message: 'an Event for the log view' });
    feed.close();
    await eventually('every stream closed', () => feed.openStreams() === 0 || undefined, 15_000);
  });

  it('the sandbox serves pods/log: the last lines of a pod, each with its timestamp', async () => {
    const lines = await eventually(
      'lines of the pod',
      async () => {
        const got: LogEntry[] = [];
        await streamPodLog(kc(), NS, pods[0]!, { container: 'app', tailLines: 5 }, (e) => got.push(e), AbortSignal.timeout(10_000));
        return got.length > 0 ? got : undefined;
      },
      30_000,
      500,
    );
    expect(lines.length).toBeLessThanOrEqual(5);
    for (const l of lines) expect(l.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('streams each pod it opens; none stays open after close', async () => {
    feed.openLogs({ title: 'logview', context: CONTEXT, namespace: NS, pods: [pods[0]!] });
    const status = await eventually(
      'the stream answered',
      () => {
        const st = store.getState().logs.sources[0]?.status;
        return st === 'connecting' || st === undefined ? undefined : st;
      },
      30_000,
    );
    expect(status).toBe('streaming');
    feed.close();
    await eventually('every stream closed', () => feed.openStreams() === 0 || undefined, 15_000);
    expect(store.getState().logs.target).toBeUndefined();
  });

  it('follows a sandbox pod writing lines', async () => {
    feed.openLogs({ title: 'logview', context: CONTEXT, namespace: NS, pods: [pods[0]!] });
    await eventually('lines from the pod', () => mergedLines(store.getState().logs.sources).length >= 5 || undefined, 30_000);
    const first = mergedLines(store.getState().logs.sources)[0]!;
    expect(first.time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(feed.openStreams()).toBe(1);
    feed.close();
    await eventually('the stream closed', () => feed.openStreams() === 0 || undefined, 15_000);
  });

  it('reads a restarted container on: its lines continue from the new instance without a key', async () => {
    // Given a pod whose container runs etcd for real, followed in the view
    const name = 'logview-etcd';
    await core.createNamespacedPod({
      namespace: NS,
      body: { metadata: { name }, spec: { containers: [{ name: 'etcd', image: ETCD_IMAGE, command: ['etcd'] }] } },
    });
    const status = async () => (await core.readNamespacedPod({ name, namespace: NS })).status?.containerStatuses?.[0];
    await eventually('etcd running', async () => (await status())?.state?.running, 90_000, 500);
    feed.openLogs({ title: 'etcd', context: CONTEXT, namespace: NS, pods: [name] });
    await eventually('lines of the first instance', () => (store.getState().logs.sources[0]?.ring.length ?? 0) > 0 || undefined, 60_000);

    // When its process dies, the kubelet starts the container again (after its back-off)
    const processes = readState(sandbox().dir)?.clusters.find((c) => c.context === CONTEXT)?.podProcesses ?? {};
    const pid = Object.entries(processes).find(([key]) => key.startsWith(`${NS}/${name}/etcd@`))?.[1];
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await eventually(
      'etcd running again',
      async () => {
        const s = await status();
        return (s?.restartCount ?? 0) >= 1 && s?.state?.running;
      },
      90_000,
      500,
    );

    // Then the view reads on by itself: its lines are both instances' logs as the kubelet keeps them, none twice
    const both = () => sandboxContainerLog(clusterDir, NS, name, 'etcd').trimEnd().split('\n');
    const latest = () => sandboxContainerLog(clusterDir, NS, name, 'etcd', true).trimEnd();
    await eventually('the new instance wrote', () => latest() !== '' || undefined, 60_000);
    const shown = () => mergedLines(store.getState().logs.sources).map((l) => l.text);
    await eventually(
      'the view shows the new instance after the old one',
      () => {
        const want = both();
        const have = shown();
        return have.length === want.length && have.every((t, i) => t === want[i]) ? have : undefined;
      },
      60_000,
      250,
    );
    expect(store.getState().logs.sources[0]).toMatchObject({ restarts: 1, status: 'streaming' });
    expect(feed.openStreams()).toBe(1);
    feed.close();
    await eventually('the stream closed', () => feed.openStreams() === 0 || undefined, 15_000);
  });
});
