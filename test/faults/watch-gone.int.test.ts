/**
 * Fault suite: a watch answered with 410 Gone, for real. A resilient watch on a namespace's events
 * (which the API server serves from etcd, without its watch cache) reaches the server through a
 * relay; while its next watch request is held in the relay, an event is created and etcd's history
 * is compacted past the watch's resourceVersion. Released, the server answers 410 Gone: the
 * watcher lists again, with no error, and the event created meanwhile is there. On a sandbox of
 * its own.
 */
import { CoreV1Api, type CoreV1Event } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeJsonClient } from '../../src/kube/transport/client.js';
import { ResilientWatch } from '../../src/kube/watch/watch.js';
import { eventually } from '../helpers/cli/cli.js';
import { compactEtcd, etcdRevision, type FaultSandbox, faultSandbox, secs, summary } from '../helpers/sandbox/fault-sandbox.js';
import { Relay, throughRelay } from '../helpers/sandbox/relay.js';
import { createNamespace } from '../helpers/sandbox/namespace.js';

const CONTEXT = 'kind-cp';
const NS = 'fault-gone';

let sandbox: FaultSandbox;
let relay: Relay | undefined;
let watch: ResilientWatch<CoreV1Event> | undefined;

beforeAll(async () => {
  sandbox = await faultSandbox();
});

afterAll(async () => {
  relay?.release();
  await watch?.stop();
  await relay?.close();
  await sandbox?.down();
});

const warning = (name: string): CoreV1Event => ({
  metadata: { name, namespace: NS },
  involvedObject: { kind: 'Pod', namespace: NS, name: 'drill' },
  reason: 'FaultDrill',
  message: `created while the watch was gone (${name})`,
  type: 'Warning',
});

describe('a watch answered with 410 Gone', () => {
  it('lists again and loses nothing: the event created while the watch was gone shows up', async () => {
    const kc = sandbox.kc(CONTEXT);
    const apiPort = Number(new URL(kc.getCurrentCluster()!.server).port);
    const etcdPort = sandbox.state.clusters.find((c) => c.context === CONTEXT)!.ports.etcdClient;
    const core = makeClient(kc, CoreV1Api);
    await createNamespace(core, NS);
    await core.createNamespacedEvent({ namespace: NS, body: warning('before') });

    relay = new Relay({ host: '127.0.0.1', port: apiPort });
    const relayed = throughRelay(kc, await relay.listen());
    const client = makeJsonClient(relayed);
    const path = `/api/v1/namespaces/${NS}/events`;
    const seen = new Map<string, CoreV1Event>();
    let lists = 0;
    const errors: string[] = [];
    watch = new ResilientWatch<CoreV1Event>({
      kc: relayed,
      path,
      list: () => client.get<{ items: CoreV1Event[]; metadata?: { resourceVersion?: string } }>(path),
      onList: (items) => {
        lists++;
        seen.clear();
        for (const e of items) seen.set(e.metadata!.name!, e);
      },
      onEvent: (type, e) => {
        if (type === 'DELETED') seen.delete(e.metadata!.name!);
        else seen.set(e.metadata!.name!, e);
      },
      onError: (message) => errors.push(message),
      // Each watch ends (normally) after 2 s and is resumed from its resourceVersion.
      watchSeconds: [2, 2],
    });
    watch.start();
    await eventually('listed', () => lists === 1 && seen.has('before'), 30_000);
    // From now on requests wait in the relay (the list's keep-alive connection carries the
    // watches too): the next watch request is held, and the watch is gone.
    relay.hold();
    await eventually('the resumed watch is held', () => relay!.held > 0, 15_000, 20);
    await core.createNamespacedEvent({ namespace: NS, body: warning('while-gone') });
    // One more write: the compaction below goes past the event's own revision too.
    await core.createNamespacedEvent({ namespace: NS, body: warning('later') });
    await compactEtcd(etcdPort, await etcdRevision(etcdPort));
    expect(seen.has('while-gone')).toBe(false);
    expect(lists).toBe(1);

    const released = Date.now();
    relay.release();
    await eventually('the event created while the watch was gone', () => seen.has('while-gone'), 30_000, 20);
    const caughtUp = Date.now();
    summary('watch answered 410 Gone', {
      'lists (first + after 410)': lists,
      errors: errors.length,
      'caught up after': secs(caughtUp - released),
    });
    // Listed again without an error: the watch ended with 410 Gone, not with a failure.
    expect(lists).toBe(2);
    expect(errors).toEqual([]);
    expect(seen.has('before')).toBe(true);
  });
});
