import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatusFeed, type StatusWatch } from '../../src/feeds/status-feed.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { configForContext, contextInfos, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { eventually, runCli } from '../helpers/cli/cli.js';
import { sandbox } from '../helpers/sandbox/fleet.js';

const kubeconfig = sandbox().kubeconfig;
const sandboxDir = sandbox().dir;

function ctx(name: string): KubeConfig {
  return configForContext(loadKubeconfig({ kubeconfig }).config, name);
}

describe('an API server stopped and started again (sandbox stop-apiserver, start-apiserver)', () => {
  let fleet: StatusWatch;
  beforeAll(() => {
    const { config } = loadKubeconfig({ kubeconfig });
    fleet = startStatusFeed(
      config,
      contextInfos(config).filter((c) => c.name === 'kind-workload-2'),
    );
  });
  afterAll(async () => {
    await fleet.stop();
    await runCli(['sandbox', 'start-apiserver', 'kind-workload-2', '--dir', sandboxDir]);
  });

  it('is marked unreachable in the store and recovers without restarting anything', async () => {
    const state = () => fleet.store.getState().status.contexts['kind-workload-2']!;
    await eventually('reachable with nodes', () => state().reachability === 'reachable' && state().nodes.synced, 30_000);
    expect(Object.keys(state().nodes.items)).toHaveLength(6);

    const stop = await runCli(['sandbox', 'stop-apiserver', 'kind-workload-2', '--dir', sandboxDir]);
    expect(stop.code).toBe(0);
    // A generous wait: marked unreachable is asserted, not how soon (that is `npm run bench -- --only faults`).
    await eventually('unreachable', () => state().reachability === 'unreachable', 60_000, 50);
    expect(state().lastError).toBeTruthy();
    expect(state().unreachableSince).toBeGreaterThan(0);
    // Stale data is kept, not dropped.
    expect(Object.keys(state().nodes.items)).toHaveLength(6);

    const start = await runCli(['sandbox', 'start-apiserver', 'kind-workload-2', '--dir', sandboxDir]);
    expect(start.code).toBe(0);
    await eventually('reachable again', () => state().reachability === 'reachable', 30_000);
    expect(state().unreachableSince).toBeUndefined();
    expect(state().lastError).toBeUndefined();
    // The node watch resumed: a change made now shows up in the store.
    const core = makeClient(ctx('kind-workload-2'), CoreV1Api);
    const name = Object.keys(state().nodes.items)[0]!;
    await core.patchNode({ name, body: { spec: { unschedulable: true } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    await eventually('cordon observed through the resumed watch', () => state().nodes.items[name]?.unschedulable === true, 30_000);
    await core.patchNode({ name, body: { spec: { unschedulable: false } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  });
});
