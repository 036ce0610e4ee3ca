import type { CoreV1Event } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { WARNING_KEY_LIMIT, WARNING_LIMIT, WarningTracker, eventCount, eventLastSeen, slimEvent } from '../../../src/kube/events/events.js';

const T0 = Date.parse('2024-05-01T10:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

function ev(
  uid: string,
  reason: string,
  object: { kind?: string; name: string; namespace?: string },
  over: Partial<CoreV1Event> & { seconds?: number } = {},
): CoreV1Event {
  const { seconds, ...rest } = over;
  return {
    metadata: { uid, name: `${object.name}.${uid}`, namespace: object.namespace || 'default', creationTimestamp: at(0) },
    involvedObject: { kind: object.kind ?? 'Pod', name: object.name, namespace: object.namespace ?? 'default' },
    type: 'Warning',
    reason,
    message: `${reason} happened`,
    count: 1,
    lastTimestamp: at(seconds ?? 0),
    ...rest,
  };
}

describe('event times and counts', () => {
  it('last seen: the newest of lastTimestamp, eventTime and series.lastObservedTime, else creation', () => {
    expect(eventLastSeen(ev('a', 'X', { name: 'p' }, { seconds: 5 }))).toBe(T0 + 5000);
    const series: CoreV1Event = {
      ...ev('b', 'X', { name: 'p' }),
      lastTimestamp: undefined,
      eventTime: at(1) as never,
      series: { count: 4, lastObservedTime: at(9) as never },
    };
    expect(eventLastSeen(series)).toBe(T0 + 9000);
    expect(eventCount(series)).toBe(4);
    const bare: CoreV1Event = { ...ev('c', 'X', { name: 'p' }), lastTimestamp: undefined, count: undefined };
    expect(eventLastSeen(bare)).toBe(T0);
    expect(eventCount(bare)).toBe(1);
    // Watch events are plain JSON: timestamps are strings.
    expect(eventLastSeen({ ...bare, lastTimestamp: '2024-05-01T10:00:07Z' as never })).toBe(T0 + 7000);
  });
});

describe('WarningTracker', () => {
  it('deduplicates by reason and object, summing the counts of distinct Event objects', () => {
    const t = new WarningTracker();
    t.reset([
      ev('1', 'BackOff', { name: 'web-1' }, { count: 3, seconds: 10 }),
      ev('2', 'BackOff', { name: 'web-1' }, { count: 2, seconds: 20, message: 'newer message' }),
      ev('3', 'BackOff', { name: 'web-2' }, { seconds: 5 }),
      ev('4', 'FailedMount', { name: 'web-1' }, { seconds: 1 }),
    ]);
    const s = t.summary();
    expect(s.synced).toBe(true);
    expect(s.warnings).toEqual([
      { reason: 'BackOff', object: 'Pod default/web-1', namespace: 'default', count: 5, lastSeen: T0 + 20_000, message: 'newer message' },
      { reason: 'BackOff', object: 'Pod default/web-2', namespace: 'default', count: 1, lastSeen: T0 + 5000, message: 'BackOff happened' },
      {
        reason: 'FailedMount',
        object: 'Pod default/web-1',
        namespace: 'default',
        count: 1,
        lastSeen: T0 + 1000,
        message: 'FailedMount happened',
      },
    ]);
  });

  it('an Event updated in place (its count grows) is not counted twice', () => {
    const t = new WarningTracker();
    t.reset([]);
    t.apply('ADDED', ev('1', 'BackOff', { name: 'web-1' }, { count: 1, seconds: 1 }));
    t.apply('MODIFIED', ev('1', 'BackOff', { name: 'web-1' }, { count: 2, seconds: 2 }));
    t.apply('MODIFIED', ev('1', 'BackOff', { name: 'web-1' }, { count: 3, seconds: 3 }));
    expect(t.summary().warnings).toMatchObject([{ count: 3, lastSeen: T0 + 3000 }]);
  });

  it('a DELETED Event (TTL expiry) takes its part away; the last one removes the row', () => {
    const t = new WarningTracker();
    t.reset([ev('1', 'BackOff', { name: 'w' }, { count: 3, seconds: 1 }), ev('2', 'BackOff', { name: 'w' }, { count: 2, seconds: 9 })]);
    t.apply('DELETED', ev('2', 'BackOff', { name: 'w' }));
    expect(t.summary().warnings).toMatchObject([{ count: 3, lastSeen: T0 + 1000 }]);
    t.apply('DELETED', ev('1', 'BackOff', { name: 'w' }));
    expect(t.summary().warnings).toEqual([]);
    expect(t.keys).toBe(0);
  });

  it(`publishes the newest ${WARNING_LIMIT}, newest first, for cluster-scoped objects too`, () => {
    const t = new WarningTracker();
    const events = Array.from({ length: 50 }, (_, i) =>
      ev(`u${i}`, 'NodeNotReady', { kind: 'Node', name: `node-${i}`, namespace: '' }, { seconds: i }),
    );
    for (const e of events) e.involvedObject.namespace = undefined;
    t.reset(events);
    const w = t.summary().warnings;
    expect(w).toHaveLength(WARNING_LIMIT);
    expect(w[0]).toMatchObject({ object: 'Node node-49', lastSeen: T0 + 49_000 });
    expect(w[0]?.namespace).toBeUndefined(); // the involved object's, not the Event's own
    expect(w.map((x) => x.lastSeen)).toEqual([...w.map((x) => x.lastSeen)].sort((a, b) => b - a));
  });

  it(`remembers at most ${WARNING_KEY_LIMIT} keys, forgetting the least recent`, () => {
    const t = new WarningTracker();
    t.reset(Array.from({ length: WARNING_KEY_LIMIT + 50 }, (_, i) => ev(`l${i}`, 'R', { name: `p${i}` }, { seconds: i })));
    expect(t.keys).toBe(WARNING_KEY_LIMIT);
    for (let i = 0; i < 30; i++) t.apply('ADDED', ev(`n${i}`, 'R', { name: `q${i}` }, { seconds: 10_000 + i }));
    expect(t.keys).toBe(WARNING_KEY_LIMIT);
    expect(t.summary().warnings[0]).toMatchObject({ object: 'Pod default/q29' });
    // A DELETED event for a forgotten key is harmless.
    t.apply('DELETED', ev('l0', 'R', { name: 'p0' }));
    expect(t.keys).toBe(WARNING_KEY_LIMIT);
  });

  it('ignores Normal events that slip through, keeps messages on one short line', () => {
    const t = new WarningTracker();
    t.reset([]);
    t.apply('ADDED', ev('1', 'Scheduled', { name: 'p' }, { type: 'Normal' }));
    t.apply('ADDED', ev('2', 'Failed', { name: 'p' }, { message: `line one\nline two ${'x'.repeat(1000)}` }));
    const w = t.summary().warnings;
    expect(w).toHaveLength(1);
    expect(w[0]?.message).toMatch(/^line one line two x+…$/);
    expect(w[0]?.message.length).toBeLessThanOrEqual(300);
  });

  it('slimEvent keeps what the tracker reads', () => {
    const e = { ...ev('1', 'BackOff', { name: 'p' }, { count: 4, seconds: 3 }), source: { component: 'kubelet' } };
    e.metadata.managedFields = [{ manager: 'kubelet' }];
    const a = new WarningTracker();
    const b = new WarningTracker();
    a.reset([e]);
    b.reset([slimEvent(e)]);
    expect(b.summary()).toEqual(a.summary());
    expect(slimEvent(e).metadata.managedFields).toBeUndefined();
  });
});
