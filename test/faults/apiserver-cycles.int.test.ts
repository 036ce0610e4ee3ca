/**
 * Fault suite: the API server of one context stopped and started 10 times while the dashboard's
 * store (the status feed, in this process) and `fleetdeck status --watch` (the built CLI) watch.
 * Each stop is marked unreachable, each start recovers with current data (a cordon made after the
 * start shows up), and nothing crashes. Asserted without a clock: the waits are generous, and
 * `status --watch` lines are looked for by their order (printed after the stop, after the start).
 * How long marking and recovering take, and memory over the cycles, are figures of
 * `npm run bench -- --only faults` (src/bench/faults.ts), beside their goals. On a sandbox of its own.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatusFeed, type StatusWatch } from '../../src/feeds/status-feed.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { contextInfos, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { eventually } from '../helpers/cli/cli.js';
import { type FaultSandbox, faultSandbox, type RunningCli, startCli, stopCli, summary } from '../helpers/sandbox/fault-sandbox.js';

const CYCLES = 10;
/** Waits long enough that only a state never reached fails them: how soon it is reached is the bench's figure. */
const WAIT_MS = 60_000;
const CONTEXT = 'kind-workload-1';
const NODE = 'workload-1-node-2';

let sandbox: FaultSandbox;
let feed: StatusWatch | undefined;
let watch: RunningCli | undefined;

beforeAll(async () => {
  sandbox = await faultSandbox();
});

afterAll(async () => {
  await feed?.stop();
  if (watch) await stopCli(watch);
  await sandbox?.down();
});

type WatchLine = { id: string; state: string; detail?: string | null };
const parse = (text: string): WatchLine | undefined => {
  try {
    return JSON.parse(text) as WatchLine;
  } catch {
    return undefined;
  }
};
const contextLine = (text: string, test: (l: WatchLine) => boolean) => {
  const l = parse(text);
  return l?.id === CONTEXT && test(l);
};

describe('an API server stopped and started 10 times under the dashboard and status --watch', () => {
  it('is marked unreachable and recovers with current data each time, and nothing crashes', async () => {
    const { config } = loadKubeconfig({ kubeconfig: sandbox.kubeconfig });
    feed = startStatusFeed(config, contextInfos(config));
    watch = startCli(['status', '--watch', '-o', 'json', '--kubeconfig', sandbox.kubeconfig]);
    const state = () => feed!.store.getState().status.contexts[CONTEXT]!;
    const core = makeClient(sandbox.kc(CONTEXT), CoreV1Api, 10_000);
    const cordon = (on: boolean) =>
      core.patchNode(
        { name: NODE, body: { spec: { unschedulable: on ? true : null } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
    await eventually('the store has the nodes', () => state().reachability === 'reachable' && state().nodes.synced, WAIT_MS);
    await eventually('status --watch reports the context', () => watch!.find(0, (t) => contextLine(t, (l) => l.state === 'ok')), WAIT_MS);

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      // status --watch may print the outage while the server shuts down: look from before the stop.
      const beforeStop = watch.lines.length;
      await sandbox.drill('stop', 'apiserver', CONTEXT);
      await eventually(`cycle ${cycle}: the store marks it unreachable`, () => state().reachability === 'unreachable', WAIT_MS, 20);
      await eventually(
        `cycle ${cycle}: status --watch prints it unreachable`,
        () => watch!.findFrom(beforeStop, (t) => contextLine(t, (l) => l.state === 'fail' && /unreachable since/.test(l.detail ?? ''))),
        WAIT_MS,
        20,
      );
      expect(Object.keys(state().nodes.items), 'the last known nodes stay').toHaveLength(2);

      await sandbox.drill('start', 'apiserver', CONTEXT);
      const afterStart = watch.lines.length;
      const cordoned = cycle % 2 === 1;
      await cordon(cordoned);
      await eventually(
        `cycle ${cycle}: the store is reachable with the cordon made after the start`,
        () => state().reachability === 'reachable' && state().nodes.items[NODE]?.unschedulable === cordoned,
        WAIT_MS,
        20,
      );
      await eventually(
        `cycle ${cycle}: status --watch prints it reachable with the cordon`,
        () =>
          watch!.findFrom(afterStart, (t) =>
            contextLine(t, (l) => /^reachable,/.test(l.detail ?? '') && /1 cordoned/.test(l.detail ?? '') === cordoned),
          ),
        WAIT_MS,
        20,
      );
      expect(watch.alive(), `cycle ${cycle}: status --watch ended: ${watch.stderr()}`).toBe(true);
    }
    await cordon(false);
    summary('API server stopped and started', { cycles: CYCLES, crashes: watch.alive() ? 0 : 1 });
    expect(watch.alive(), `status --watch ended: ${watch.stderr()}`).toBe(true);
    expect(watch.stderr()).toBe('');
  }, 600_000);
});
