/**
 * Fault suite: the API server of one context stopped and started 10 times while the dashboard's
 * store (the status feed, in this process) and `fleetdeck status --watch` (the built CLI) watch.
 * Each stop is marked unreachable within 5 s, each start recovers within 5 s with current data
 * (a cordon made after the start shows up), nothing crashes, and memory after the cycles stays
 * near its level after the first one. On a sandbox of its own.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStatusFeed, type StatusWatch } from '../../src/feeds/status-feed.js';
import { makeClient } from '../../src/kube/transport/client.js';
import { contextInfos, loadKubeconfig } from '../../src/kube/config/kubeconfig.js';
import { eventually } from '../helpers/cli/cli.js';
import {
  type FaultSandbox,
  faultSandbox,
  heapAfterGc,
  mib,
  type RunningCli,
  secs,
  startCli,
  stopCli,
  summary,
} from '../helpers/sandbox/fault-sandbox.js';

const CYCLES = 10;
/** The bound, with room for a loaded 2-core machine measuring it. */
const MARK_MS = 5_000;
/** Waits give up later than the bound, so a slow cycle is measured and reported, not cut off. */
const WAIT_MS = 20_000;
/** Memory after the cycles may exceed its level after the first cycle by at most this much, or this share of it. */
const GROWTH = { bytes: 16 * 2 ** 20, share: 0.25 };
const CONTEXT = 'kind-workload-1';
const NODE = 'workload-1-node-2';
const allowed = (first: number) => first + Math.max(GROWTH.bytes, first * GROWTH.share);

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
  it('is marked unreachable and recovers within 5 s each time, never crashes, and memory stays level', async () => {
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
    await eventually('the store has the nodes', () => state().reachability === 'reachable' && state().nodes.synced, 30_000);
    await eventually('status --watch reports the context', () => watch!.find(0, (t) => contextLine(t, (l) => l.state === 'ok')), 30_000);

    const marks: { store: number; watch: number }[] = [];
    const recoveries: { store: number; watch: number }[] = [];
    let first: { heap: number; rss: number } | undefined;
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      await sandbox.drill('stop', 'apiserver', CONTEXT);
      const stopped = Date.now();
      await eventually(`cycle ${cycle}: the store marks it unreachable`, () => state().reachability === 'unreachable', WAIT_MS, 20);
      const storeMark = Date.now();
      const unreachable = await eventually(
        `cycle ${cycle}: status --watch prints it unreachable`,
        () => watch!.find(stopped - MARK_MS, (t) => contextLine(t, (l) => l.state === 'fail' && /unreachable since/.test(l.detail ?? ''))),
        WAIT_MS,
        20,
      );
      // Marked while the server was shutting down counts as 0.
      marks.push({ store: Math.max(0, storeMark - stopped), watch: Math.max(0, unreachable.at - stopped) });
      expect(Object.keys(state().nodes.items), 'the last known nodes stay').toHaveLength(2);

      await sandbox.drill('start', 'apiserver', CONTEXT);
      const started = Date.now();
      const cordoned = cycle % 2 === 1;
      await cordon(cordoned);
      await eventually(
        `cycle ${cycle}: the store is reachable with the cordon made after the start`,
        () => state().reachability === 'reachable' && state().nodes.items[NODE]?.unschedulable === cordoned,
        WAIT_MS,
        20,
      );
      const storeBack = Date.now();
      const back = await eventually(
        `cycle ${cycle}: status --watch prints it reachable with the cordon`,
        () =>
          watch!.find(started, (t) =>
            contextLine(t, (l) => /^reachable,/.test(l.detail ?? '') && /1 cordoned/.test(l.detail ?? '') === cordoned),
          ),
        WAIT_MS,
        20,
      );
      recoveries.push({ store: storeBack - started, watch: back.at - started });
      if (cycle === 1) first = { heap: heapAfterGc(), rss: watch.rss() };
    }
    await cordon(false);
    const last = { heap: heapAfterGc(), rss: watch.rss() };
    const alive = watch.child.exitCode === null && watch.child.signalCode === null;
    const max = (xs: number[]) => Math.max(...xs);
    summary('API server stopped and started', {
      cycles: CYCLES,
      crashes: alive ? 0 : 1,
      'max time to mark (store / status --watch)': `${secs(max(marks.map((m) => m.store)))} / ${secs(max(marks.map((m) => m.watch)))}`,
      'max time to recover (store / status --watch)': `${secs(max(recoveries.map((r) => r.store)))} / ${secs(max(recoveries.map((r) => r.watch)))}`,
      'heap after cycle 1 / 10': `${mib(first!.heap)} / ${mib(last.heap)}`,
      'status --watch RSS after cycle 1 / 10': `${mib(first!.rss)} / ${mib(last.rss)}`,
    });

    expect(alive, `status --watch ended: ${watch.stderr()}`).toBe(true);
    expect(watch.stderr()).toBe('');
    for (const [i, m] of marks.entries()) {
      expect(m.store, `cycle ${i + 1}: store marked after ${m.store} ms`).toBeLessThanOrEqual(MARK_MS);
      expect(m.watch, `cycle ${i + 1}: status --watch marked after ${m.watch} ms`).toBeLessThanOrEqual(MARK_MS);
    }
    for (const [i, r] of recoveries.entries()) {
      expect(r.store, `cycle ${i + 1}: store recovered after ${r.store} ms`).toBeLessThanOrEqual(MARK_MS);
      expect(r.watch, `cycle ${i + 1}: status --watch recovered after ${r.watch} ms`).toBeLessThanOrEqual(MARK_MS);
    }
    expect(last.heap, 'heap after the cycles').toBeLessThanOrEqual(allowed(first!.heap));
    expect(last.rss, 'status --watch RSS after the cycles').toBeLessThanOrEqual(allowed(first!.rss));
  }, 400_000);
});
