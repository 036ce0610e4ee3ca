/**
 * Fault suite: etcd of one cluster stopped. Its API server still answers, but with errors and
 * timeouts; the dashboard's store, `fleetdeck status` and `status --watch` say the context is not
 * ready and why (etcd failed), nothing crashes, and everything recovers once etcd is back.
 * Asserted without a clock (`status --watch` lines looked for by their order); how long showing
 * and recovering take are figures of `npm run bench -- --only faults` (src/bench/faults.ts). On a
 * sandbox of its own.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatusFeed, type StatusWatch } from '../../src/feeds/status-feed.js';
import { describeError, makeClient } from '../../src/kube/transport/client.js';
import { contextInfos, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { contextRow } from '../../src/screens/status/context-row.js';
import { eventually, runCli } from '../helpers/cli/cli.js';
import { type FaultSandbox, faultSandbox, type RunningCli, startCli, stopCli, summary } from '../helpers/sandbox/fault-sandbox.js';

const CONTEXT = 'kind-workload-1';
const NODE = 'workload-1-node-2';

let sandbox: FaultSandbox;
let feed: StatusWatch | undefined;
let watch: RunningCli | undefined;
let etcdStopped = false;

beforeAll(async () => {
  sandbox = await faultSandbox();
});

afterAll(async () => {
  await feed?.stop();
  if (watch) await stopCli(watch);
  if (etcdStopped) await sandbox.drill('start', 'etcd', CONTEXT).catch(() => {});
  await sandbox?.down();
});

type WatchLine = { id: string; state: string; detail?: string | null };
const watchLine = (text: string, test: (l: WatchLine) => boolean) => {
  try {
    const l = JSON.parse(text) as WatchLine;
    return l.id === CONTEXT && test(l);
  } catch {
    return false;
  }
};

describe('etcd of one cluster stopped', () => {
  it('the API server answers errors; fleetdeck says the context is not ready because of etcd, and recovers', async () => {
    const { config } = loadKubeconfig({ kubeconfig: sandbox.kubeconfig });
    feed = startStatusFeed(config, contextInfos(config));
    watch = startCli(['status', '--watch', '-o', 'json', '--kubeconfig', sandbox.kubeconfig]);
    const state = () => feed!.store.getState().status.contexts[CONTEXT]!;
    const core = makeClient(sandbox.kc(CONTEXT), CoreV1Api, 5_000);
    const cordon = (unschedulable: true | null) =>
      core
        .patchNode({ name: NODE, body: { spec: { unschedulable } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch))
        .then(() => true);
    await eventually('the store has the nodes', () => state().reachability === 'reachable' && state().nodes.synced, 30_000);
    await eventually('status --watch reports the context', () => watch!.find(0, (t) => watchLine(t, (l) => l.state === 'ok')), 30_000);

    const beforeStop = watch.lines.length;
    await sandbox.drill('stop', 'etcd', CONTEXT);
    etcdStopped = true;
    // The API server itself still answers, with an error or not in time.
    const listed = core.listNamespace().then(
      () => 'answered',
      (err: unknown) => describeError(err),
    );
    await eventually('the store says not ready: etcd failed', () => state().notReady === 'etcd failed', 60_000, 50);
    expect(state().reachability).toBe('reachable');
    expect(contextRow(state(), undefined)).toMatchObject({ status: 'not ready', reason: expect.stringMatching(/etcd failed$/) });
    // The last known nodes stay on screen.
    expect(Object.keys(state().nodes.items)).toHaveLength(2);
    await eventually(
      'status --watch prints it not ready',
      () =>
        watch!.findFrom(beforeStop, (t) =>
          watchLine(t, (l) => l.state === 'fail' && /not ready since .*\(etcd failed\)/.test(l.detail ?? '')),
        ),
      60_000,
    );
    const failure = await listed;
    expect(failure).toMatch(/^HTTP 5\d\d|^no response from the server within \d+s|^the response did not finish within \d+s/);
    const once = await runCli(['status', '--kubeconfig', sandbox.kubeconfig], { timeoutMs: 60_000 });
    expect(once.code).toBe(1);
    expect(once.stderr).toBe('');
    expect(once.stdout).toMatch(
      new RegExp(
        `\\* Context ${CONTEXT} \\(https://[^)]+\\)\\.\\.\\. reachable but not ready since \\d\\d:\\d\\d:\\d\\d \\(etcd failed\\) ✗`,
      ),
    );
    expect(once.stdout).toContain("get --raw '/readyz?verbose'");

    await sandbox.drill('start', 'etcd', CONTEXT);
    etcdStopped = false;
    const afterStart = watch.lines.length;
    // Right after etcd comes back the API server may still time out a write: retry until it takes it.
    await eventually('the API server takes a cordon again', () => cordon(true), 60_000, 500);
    await eventually(
      'the store is ready again with the cordon made after the restart',
      () => state().notReady === undefined && state().nodes.items[NODE]?.unschedulable === true,
      60_000,
      50,
    );
    await eventually(
      'status --watch prints it reachable with the cordon',
      () => watch!.findFrom(afterStart, (t) => watchLine(t, (l) => /^reachable,.*1 cordoned/.test(l.detail ?? ''))),
      60_000,
    );
    await eventually('the API server takes the uncordon', () => cordon(null), 60_000, 500);
    summary('etcd stopped', { 'API server answered': failure, crashes: watch.alive() ? 0 : 1 });
    expect(watch.alive(), `status --watch ended: ${watch.stderr()}`).toBe(true);
    expect(watch.stderr()).toBe('');
  });
});
