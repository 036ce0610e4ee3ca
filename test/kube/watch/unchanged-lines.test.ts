import { describe, expect, it } from 'vitest';
import { UnchangedLines } from '../../../src/kube/watch/unchanged-lines.js';

function node(rv: string, heartbeat: string, ready = 'True', name = 'n1') {
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name,
      uid: 'u-1',
      resourceVersion: rv,
      managedFields: [{ manager: 'kubelet', operation: 'Update', time: heartbeat }],
    },
    spec: { unschedulable: false },
    status: { conditions: [{ type: 'Ready', status: ready, lastHeartbeatTime: heartbeat, lastTransitionTime: '2026-11-26T10:00:00Z' }] },
  };
}
const line = (type: string, object: unknown) => JSON.stringify({ type, object });

describe('UnchangedLines', () => {
  it('skips a heartbeat that repeats the last event, giving its resourceVersion', () => {
    const u = new UnchangedLines();
    expect(u.skippable(line('MODIFIED', node('10', '2026-11-26T14:00:00Z')))).toBeUndefined();
    expect(u.skippable(line('MODIFIED', node('11', '2026-11-26T14:00:10Z')))).toBe('11');
    expect(u.skippable(line('MODIFIED', node('12', '2026-11-26T14:00:20Z')))).toBe('12');
  });

  it('parses a change of anything else, and the first event of each object', () => {
    const u = new UnchangedLines();
    expect(u.skippable(line('MODIFIED', node('10', 'a')))).toBeUndefined();
    expect(u.skippable(line('MODIFIED', node('11', 'b', 'False')))).toBeUndefined();
    expect(u.skippable(line('MODIFIED', node('12', 'c', 'False')))).toBe('12');
    expect(u.skippable(line('MODIFIED', node('13', 'c', 'False', 'n2')))).toBeUndefined();
  });

  it('never skips ADDED or DELETED, and forgets a deleted object', () => {
    const u = new UnchangedLines();
    expect(u.skippable(line('ADDED', node('10', 'a')))).toBeUndefined();
    expect(u.skippable(line('MODIFIED', node('11', 'b')))).toBe('11');
    expect(u.skippable(line('DELETED', node('12', 'b')))).toBeUndefined();
    expect(u.skippable(line('ADDED', node('13', 'b')))).toBeUndefined();
    expect(u.skippable(line('MODIFIED', node('14', 'c')))).toBe('14');
  });

  it('keys namespaced objects by namespace and name', () => {
    const u = new UnchangedLines();
    const pod = (ns: string, rv: string) => line('MODIFIED', { kind: 'Pod', metadata: { name: 'p', namespace: ns, resourceVersion: rv } });
    expect(u.skippable(pod('a', '1'))).toBeUndefined();
    expect(u.skippable(pod('b', '2'))).toBeUndefined();
    expect(u.skippable(pod('a', '3'))).toBe('3');
  });

  it('after clear() (a new list) the next event is parsed', () => {
    const u = new UnchangedLines();
    u.skippable(line('MODIFIED', node('10', 'a')));
    u.clear();
    expect(u.skippable(line('MODIFIED', node('11', 'b')))).toBeUndefined();
  });

  it('leaves lines it cannot read to the parser', () => {
    const u = new UnchangedLines();
    expect(u.skippable('{"type":"BOOKMARK","object":{"kind":"Node","metadata":{"resourceVersion":"5"}}}')).toBeUndefined();
    expect(u.skippable('not json')).toBeUndefined();
  });
});
