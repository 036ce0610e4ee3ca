import { describe, expect, it } from 'vitest';
import { ViewStreams, type StreamsShared } from '../../src/feeds/log-streams.js';
import type { LogsWork } from '../../src/feeds/logs-contract.js';
import type { LogPod } from '../../src/kube/pods/workloads.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { mergedLines, newRing } from '../../src/store/logs.js';
import { eventually } from '../helpers/cli/cli.js';
import { logPod } from '../helpers/objects/log-pod.js';
import { drivenStream, type DrivenStream } from '../helpers/feeds/log-work.js';

/** A store whose slice has one source per pod (container app, capacity as given), streams the test drives, pods as the watch last saw them. */
function setup(pods: string[], capacity = 1000) {
  const seen = new Map<string, LogPod>(pods.map((name) => [name, logPod(name, [{ name: 'app', containerID: 'c://1' }])]));
  const store = createFleetStore();
  store.setState((s) => ({
    logs: {
      ...s.logs,
      capacity,
      phase: 'ready',
      sources: pods.map((pod) => ({
        pod,
        container: 'app',
        containers: ['app'],
        restarts: 0,
        status: 'connecting',
        ring: newRing(capacity),
      })),
    },
  }));
  const opened: DrivenStream[] = [];
  const work: LogsWork = {
    findPods: async () => [],
    events: async () => [],
    stream: drivenStream(opened),
  };
  let seq = 0;
  const shared: StreamsShared = { store, work, flushMs: 20, running: new Set(), nextSeq: () => ++seq };
  return { store, opened, shared, seen, streams: new ViewStreams(shared, 'kind-cp', 'elotl', (name) => seen.get(name)) };
}

describe('a log view’s streams', () => {
  it('open one stream per source with the slice’s switches and the tail', async () => {
    const { opened, streams } = setup(['a', 'b']);
    streams.openAll();
    await eventually('two streams', () => opened.length === 2);
    expect(opened.map((o) => [o.pod, o.opts])).toEqual([
      ['a', { container: 'app', follow: true, previous: false, tailLines: 500 }],
      ['b', { container: 'app', follow: true, previous: false, tailLines: 500 }],
    ]);
    streams.end();
  });

  it('batches a flood of lines into a few store updates and keeps only the ring', async () => {
    const { store, opened, streams } = setup(['a'], 100);
    streams.openAll();
    const s = await eventually('the stream', () => opened[0]);
    let updates = 0;
    const unsubscribe = store.subscribe(() => updates++);
    for (let i = 0; i < 5000; i++) s.emit(`line ${i}`);
    await eventually('the ring full', () => store.getState().logs.sources[0]?.ring.length === 100);
    unsubscribe();
    // 5,000 lines delivered at once: one flush.
    expect(updates).toBeLessThanOrEqual(2);
    const lines = mergedLines(store.getState().logs.sources);
    expect(lines[0]!.text).toBe('line 4900');
    expect(lines.at(-1)!.text).toBe('line 4999');
    expect(store.getState().logs.sources[0]!.status).toBe('streaming');
    streams.end();
  });

  it('say when a stream ended or failed (one line); stop aborts every stream and drops what was held', async () => {
    const { store, opened, shared, streams } = setup(['a', 'b', 'c']);
    streams.openAll();
    await eventually('three streams', () => opened.length === 3);
    opened[0]!.end();
    opened[1]!.fail('HTTP 400: container "app" in pod "b" is waiting to start: trying and failing to pull image');
    const statuses = await eventually('the statuses', () => {
      const st = store.getState().logs.sources.map((x) => x.status);
      return st[0] === 'ended' && typeof st[1] === 'object' ? st : undefined;
    });
    expect(statuses[1]).toEqual({ error: 'HTTP 400: container "app" in pod "b" is waiting to start: trying and failing to pull image' });
    opened[2]!.emit('held, never shown');
    streams.stop();
    expect(opened[2]!.signal.aborted).toBe(true);
    await eventually('every stream settled', () => shared.running.size === 0);
    expect(store.getState().logs.sources[2]!.ring.length).toBe(0);
  });

  it('read a restarted container on, from its last line, once the pod shows the new instance', async () => {
    const { store, opened, seen, streams } = setup(['a']);
    streams.openAll();
    const first = await eventually('the stream', () => opened[0]);
    first.emit('one', '2026-01-01T00:00:01Z');
    first.emit('two', '2026-01-01T00:00:02Z');
    // The container crashed: its stream ends, the pod says it waits to restart.
    const crashed = logPod('a', [{ name: 'app', restarts: 1, containerID: '', state: 'waiting', reason: 'CrashLoopBackOff' }]);
    seen.set('a', crashed);
    streams.podChanged(crashed);
    first.end();
    await eventually('the stream ended', () => store.getState().logs.sources[0]?.status === 'ended');
    expect(opened).toHaveLength(1);
    // It runs again: read on from the last line, no tail.
    const again = logPod('a', [{ name: 'app', restarts: 1, containerID: 'c://2' }]);
    seen.set('a', again);
    streams.podChanged(again);
    expect(opened).toHaveLength(2);
    expect(opened[1]!.opts).toEqual({ container: 'app', follow: true, sinceTime: '2026-01-01T00:00:02Z' });
    // The line at the resume point again (sinceTime includes it) is not shown twice.
    opened[1]!.emit('two', '2026-01-01T00:00:02Z');
    opened[1]!.emit('starting again', '2026-01-01T00:00:12Z');
    await eventually('the new instance’s line', () => store.getState().logs.sources[0]?.ring.length === 3);
    expect(mergedLines(store.getState().logs.sources).map((l) => l.text)).toEqual(['one', 'two', 'starting again']);
    expect(store.getState().logs.sources[0]!.status).toBe('streaming');
    // The same pod seen again while the stream is open: nothing more is opened.
    streams.podChanged(again);
    expect(opened).toHaveLength(2);
    streams.end();
  });

  it('continue a stream dropped while its container runs on, after the last line', async () => {
    const { opened, streams } = setup(['a']);
    streams.openAll();
    const first = await eventually('the stream', () => opened[0]);
    first.emit('one', '2026-01-01T00:00:01Z');
    first.end();
    const resumed = await eventually('the stream again', () => opened[1], 10_000);
    expect(resumed.opts).toEqual({ container: 'app', follow: true, sinceTime: '2026-01-01T00:00:01Z' });
    streams.end();
  });

  it('open nothing again when not following, or reading the previous instance', async () => {
    for (const change of [{ follow: false }, { previous: true }]) {
      const { store, opened, seen, streams } = setup(['a']);
      store.setState((s) => ({ logs: { ...s.logs, ...change } }));
      streams.openAll();
      const first = await eventually('the stream', () => opened[0]);
      first.end();
      await eventually('the stream ended', () => store.getState().logs.sources[0]?.status === 'ended');
      const again = logPod('a', [{ name: 'app', restarts: 1, containerID: 'c://2' }]);
      seen.set('a', again);
      streams.podChanged(again);
      expect(opened).toHaveLength(1);
      streams.end();
    }
  });
});
