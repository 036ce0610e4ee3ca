import type { V1ContainerStatus } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { CriEntry } from '../../../src/sandbox/sim/container-log.js';
import { ByteLimit, formatEntry, parseLogOptions, selectEntries, selectInstance } from '../../../src/sandbox/sim/log-query.js';

const entry = (n: number): CriEntry => ({
  time: `2026-11-25T17:00:${String(n).padStart(2, '0')}.500000000Z`,
  ms: Date.parse(`2026-11-25T17:00:${String(n).padStart(2, '0')}.5Z`),
  stream: 'stdout',
  text: `line ${n}`,
});
const entries = Array.from({ length: 10 }, (_, i) => entry(i));

describe('log options', () => {
  it('reads follow, previous, timestamps, tailLines, limitBytes and sinceSeconds', () => {
    const opts = parseLogOptions(
      new URLSearchParams('follow=true&previous=true&timestamps=true&tailLines=5&limitBytes=100&sinceSeconds=10'),
      1_000_000,
    );
    expect(opts).toEqual({ follow: true, previous: true, timestamps: true, tailLines: 5, limitBytes: 100, sinceMs: 990_000 });
    expect(parseLogOptions(new URLSearchParams('sinceTime=2026-11-25T17:00:05Z'))).toMatchObject({
      sinceMs: Date.parse('2026-11-25T17:00:05Z'),
    });
  });

  it('refuses invalid values', () => {
    expect(parseLogOptions(new URLSearchParams('tailLines=-1'))).toMatch(/tailLines/);
    expect(parseLogOptions(new URLSearchParams('limitBytes=0'))).toMatch(/limitBytes/);
    expect(parseLogOptions(new URLSearchParams('sinceSeconds=5&sinceTime=2026-11-25T17:00:05Z'))).toMatch(/at most one/);
    expect(parseLogOptions(new URLSearchParams('tailLines=x'))).toMatch(/tailLines/);
  });
});

describe('line selection', () => {
  it('takes the last tailLines lines', () => {
    expect(selectEntries(entries, { tailLines: 3 }).map((e) => e.text)).toEqual(['line 7', 'line 8', 'line 9']);
    expect(selectEntries(entries, { tailLines: 0 })).toEqual([]);
    expect(selectEntries(entries, { tailLines: 50 })).toHaveLength(10);
  });

  it('takes lines written since a time, after the tail', () => {
    const since = Date.parse('2026-11-25T17:00:06Z');
    expect(selectEntries(entries, { sinceMs: since }).map((e) => e.text)).toEqual(['line 6', 'line 7', 'line 8', 'line 9']);
    expect(selectEntries(entries, { sinceMs: since, tailLines: 2 }).map((e) => e.text)).toEqual(['line 8', 'line 9']);
  });

  it('prefixes the RFC3339Nano time only with timestamps', () => {
    expect(formatEntry(entry(1), false)).toBe('line 1\n');
    expect(formatEntry(entry(1), true)).toBe('2026-11-25T17:00:01.5Z line 1\n');
  });

  it('cuts the output at limitBytes', () => {
    const limit = new ByteLimit(10);
    expect(limit.take('line 1\n')).toBe('line 1\n');
    expect(limit.take('line 2\n')).toBe('lin');
    expect(limit.reached).toBe(true);
    expect(limit.take('line 3\n')).toBe('');
    expect(new ByteLimit(undefined).take('anything')).toBe('anything');
  });
});

describe('container selection (validateContainerLogStatus)', () => {
  const status = (s: Partial<V1ContainerStatus>): V1ContainerStatus =>
    ({ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, ...s }) as V1ContainerStatus;
  const crashed = { terminated: { exitCode: 1, reason: 'Error', containerID: 'x' } };

  it('reads the running instance, or with previous the one before', () => {
    const s = status({ restartCount: 2, state: { running: {} }, lastState: crashed });
    expect(selectInstance(s, 'p', 'c', false)).toEqual({ instance: 2 });
    expect(selectInstance(s, 'p', 'c', true)).toEqual({ instance: 1 });
  });

  it('reads the last terminated instance of a container in CrashLoopBackOff, with or without previous', () => {
    const s = status({ restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: crashed });
    expect(selectInstance(s, 'p', 'c', false)).toEqual({ instance: 4 });
    expect(selectInstance(s, 'p', 'c', true)).toEqual({ instance: 4 });
  });

  it('says there is no previous instance of a container that never restarted', () => {
    expect(selectInstance(status({ state: { running: {} } }), 'p', 'c', true)).toEqual({
      code: 400,
      message: 'previous terminated container "c" in pod "p" not found',
    });
  });

  it('explains a container waiting for its image', () => {
    expect(selectInstance(status({ state: { waiting: { reason: 'ImagePullBackOff' } } }), 'p', 'c', false)).toEqual({
      code: 400,
      message: 'container "c" in pod "p" is waiting to start: trying and failing to pull image',
    });
    expect(selectInstance(status({ state: { waiting: { reason: 'ContainerCreating' } } }), 'p', 'c', false)).toMatchObject({
      message: 'container "c" in pod "p" is waiting to start: ContainerCreating',
    });
  });

  it('reads a terminated container that was not restarted', () => {
    expect(selectInstance(status({ restartCount: 0, state: { terminated: { exitCode: 0 } } }), 'p', 'c', false)).toEqual({ instance: 0 });
  });
});
