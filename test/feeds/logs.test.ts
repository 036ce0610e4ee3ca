import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startLogsFeed, type LogsWork } from '../../src/feeds/logs.js';
import type { LogPod, PodWatchHandlers } from '../../src/kube/pods/workloads.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { logPod, type ContainerSpec } from '../helpers/objects/log-pod.js';
import { drivenStream, type DrivenStream } from '../helpers/feeds/log-work.js';

function pod(name: string, containers: ContainerSpec[], def?: string): LogPod {
  return logPod(name, containers, def ? { defaultContainer: def } : {});
}

/** Work whose streams the test drives: each open stream recorded, ended by the test or by its signal. */
function fakeWork(pods: LogPod[]) {
  const streams: DrivenStream[] = [];
  const watched: PodWatchHandlers[] = [];
  let watchesStopped = 0;
  const work: LogsWork = {
    findPods: async () => pods,
    watchPods: (_c, _n, _t, handlers) => {
      watched.push(handlers);
      return { stop: () => void watchesStopped++ };
    },
    events: async () => [{ type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', count: 3, lastSeen: 1 }],
    stream: drivenStream(streams),
  };
  return { work, streams, watched, watchesStopped: () => watchesStopped };
}

async function until<T>(check: () => T | undefined | false): Promise<T> {
  for (let i = 0; i < 2000; i++) {
    const v = check();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error('condition never held');
}

const target = { title: 'app', context: 'kind-cp', namespace: 'elotl', selector: 'app=x' };
let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('logs feed', () => {
  it('opens one stream per pod with the default container, following the tail', async () => {
    const store = createFleetStore();
    const f = fakeWork([pod('a', [{ name: 'app' }, { name: 'sidecar' }], 'app'), pod('b', [{ name: 'app' }])]);
    const feed = startLogsFeed(store, f.work, { flushMs: 5 });
    feed.openLogs(target);
    await until(() => f.streams.length === 2);
    expect(f.streams.map((s) => [s.pod, s.opts.container, s.opts.follow, s.opts.tailLines])).toEqual([
      ['a', 'app', true, 500],
      ['b', 'app', true, 500],
    ]);
    expect(store.getState().logs.containers).toEqual(['app', 'sidecar']);
    await until(() => store.getState().logs.events.length === 1);
    feed.close();
  });

  it('prefers the previous instance of a crash-looping container', async () => {
    const store = createFleetStore();
    const f = fakeWork([pod('a', [{ name: 'app', restarts: 4, state: 'waiting', reason: 'CrashLoopBackOff' }])]);
    const feed = startLogsFeed(store, f.work, { flushMs: 5 });
    feed.openLogs({ ...target, pods: ['a'] });
    await until(() => f.streams.length === 1);
    expect(f.streams[0]!.opts.previous).toBe(true);
    expect(store.getState().logs).toMatchObject({ previous: true, previousOffered: true });
    feed.close();
  });

  it('re-opens every stream when follow, previous or the container changes', async () => {
    const store = createFleetStore();
    const f = fakeWork([pod('a', [{ name: 'app' }, { name: 'sidecar' }])]);
    const feed = startLogsFeed(store, f.work, { flushMs: 5 });
    feed.openLogs(target);
    await until(() => f.streams.length === 1);
    feed.toggle('follow');
    await until(() => f.streams.length === 2);
    expect(f.streams[0]!.signal.aborted).toBe(true);
    expect(f.streams[1]!.opts.follow).toBe(false);
    feed.toggle('previous');
    await until(() => f.streams.length === 3);
    expect(f.streams[2]!.opts.previous).toBe(true);
    feed.nextContainer();
    await until(() => f.streams.length === 4);
    expect(f.streams[3]!.opts.container).toBe('sidecar');
    expect(store.getState().logs.container).toBe('sidecar');
    feed.close();
  });

  it('shows an API error as the stream status, one line', async () => {
    const store = createFleetStore();
    const f = fakeWork([pod('a', [{ name: 'app' }])]);
    const feed = startLogsFeed(store, f.work, { flushMs: 5 });
    feed.openLogs(target);
    const s = await until(() => f.streams[0]);
    s.fail('HTTP 400: container "app" in pod "a" is waiting to start: trying and failing to pull image');
    const status = await until(() => {
      const st = store.getState().logs.sources[0]?.status;
      return typeof st === 'object' ? st : undefined;
    });
    expect(status.error).toMatch(/waiting to start/);
    feed.close();
  });

  it('adds pods that join the selector while following', async () => {
    const store = createFleetStore();
    const f = fakeWork([pod('a', [{ name: 'app' }])]);
    const feed = startLogsFeed(store, f.work, { flushMs: 5 });
    feed.openLogs(target);
    await until(() => f.watched.length === 1);
    f.watched[0]!.onList([pod('a', [{ name: 'app' }])]);
    f.watched[0]!.onEvent('ADDED', pod('c', [{ name: 'app' }]));
    await until(() => f.streams.length === 2);
    expect(store.getState().logs.sources.map((s) => s.pod)).toEqual(['a', 'c']);
    feed.close();
  });

  it('watches named pods while following: a restarted container is read on after its last line, its restarts shown', async () => {
    const store = createFleetStore();
    const f = fakeWork([pod('a', [{ name: 'app', containerID: 'c://1' }])]);
    const targets: { pods?: string[]; selector?: string }[] = [];
    const watchPods = f.work.watchPods!;
    f.work.watchPods = (c, n, t, h) => {
      targets.push(t);
      return watchPods(c, n, t, h);
    };
    const feed = startLogsFeed(store, f.work, { flushMs: 5 });
    feed.openLogs({ ...target, pods: ['a'] });
    await until(() => f.streams.length === 1 && f.watched.length === 1);
    expect(targets).toEqual([{ pods: ['a'], selector: 'app=x' }]);
    f.streams[0]!.emit('before the restart', '2026-01-01T00:00:05Z');
    f.watched[0]!.onEvent(
      'MODIFIED',
      pod('a', [{ name: 'app', restarts: 1, containerID: '', state: 'waiting', reason: 'CrashLoopBackOff' }]),
    );
    f.streams[0]!.end();
    await until(() => store.getState().logs.sources[0]?.status === 'ended');
    f.watched[0]!.onEvent('MODIFIED', pod('a', [{ name: 'app', restarts: 1, containerID: 'c://2' }]));
    await until(() => f.streams.length === 2);
    expect(f.streams[1]!.opts).toEqual({ container: 'app', follow: true, sinceTime: '2026-01-01T00:00:05Z' });
    f.streams[1]!.emit('after the restart', '2026-01-01T00:00:15Z');
    await until(() => store.getState().logs.sources[0]?.ring.length === 2);
    expect(store.getState().logs.sources[0]).toMatchObject({ restarts: 1, status: 'streaming' });
    expect(store.getState().logs.previousOffered).toBe(true);
    feed.close();
  });

  it('closing aborts every stream and the watch: none stays open', async () => {
    const store = createFleetStore();
    const f = fakeWork([pod('a', [{ name: 'app' }]), pod('b', [{ name: 'app' }])]);
    const feed = startLogsFeed(store, f.work, { flushMs: 5 });
    feed.openLogs(target);
    await until(() => f.streams.length === 2 && f.watched.length === 1);
    expect(feed.openStreams()).toBe(2);
    feed.close();
    expect(f.streams.every((s) => s.signal.aborted)).toBe(true);
    expect(f.watchesStopped()).toBe(1);
    await until(() => feed.openStreams() === 0);
    expect(store.getState().logs.target).toBeUndefined();
  });

  it('saves the lines to a new file each time, never over one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-logs-'));
    dirs.push(dir);
    const store = createFleetStore();
    const f = fakeWork([pod('a', [{ name: 'app' }])]);
    const now = () => new Date('2026-01-01T10:00:00Z');
    const feed = startLogsFeed(store, f.work, { flushMs: 5, dir, now });
    feed.openLogs(target);
    const s = await until(() => f.streams[0]);
    s.emit('hello');
    await until(() => store.getState().logs.sources[0]?.ring.length === 1);
    feed.save();
    const first = await until(() => store.getState().logs.note);
    feed.save();
    await until(() => store.getState().logs.note !== first && store.getState().logs.note);
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(['a-app-2026-01-01T10-00-00-000Z-1.log', 'a-app-2026-01-01T10-00-00-000Z.log']);
    expect(fs.readFileSync(path.join(dir, files[1]!), 'utf8')).toBe('2026-01-01T00:00:00Z hello\n');
    expect(store.getState().logs.note?.text).toContain(dir);
    feed.close();
  });
});
