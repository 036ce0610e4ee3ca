import { describe, expect, it } from 'vitest';
import { ViewStreams, type StreamsShared } from '../../src/feeds/log-streams.js';
import type { LogsWork } from '../../src/feeds/logs-contract.js';
import { createFleetStore } from '../../src/store/fleet-store.js';
import { mergedLines, newRing } from '../../src/store/logs.js';
import { eventually } from '../helpers/cli.js';
import { drivenStream, type DrivenStream } from '../helpers/log-work.js';

/** A store whose slice has one source per pod (container app, capacity as given), and streams the test drives. */
function setup(pods: string[], capacity = 1000) {
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
  return { store, opened, shared, streams: new ViewStreams(shared, 'kind-cp', 'elotl') };
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
});
