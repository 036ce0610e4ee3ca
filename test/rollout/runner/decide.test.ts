import { describe, expect, it } from 'vitest';
import {
  appendLog,
  gateCount,
  healthVerdict,
  nextBatch,
  replacementVerdict,
  resumedState,
  type ReplacementNode,
} from '../../../src/rollout/runner/decide.js';
import { LOG_LINES } from '../../../src/rollout/types.js';
import { state } from '../../helpers/objects/rollout.js';

describe('nextBatch: what runs next', () => {
  it('runs every batch of a higher priority to the end before a lower one starts', () => {
    for (const max of [1, 2, 3, 10]) {
      const st = state({ maxUnavailable: max });
      const order: string[][] = [];
      for (let step = nextBatch(st); step.kind === 'batch'; step = nextBatch(st)) {
        expect(step.nodes.length).toBeGreaterThan(0);
        expect(step.nodes.length).toBeLessThanOrEqual(max);
        // Every node of a higher priority is done before this batch.
        const higher = st.nodes.filter((n) => n.priority > step.priority);
        expect(higher.every((n) => n.phase === 'done')).toBe(true);
        order.push(step.nodes);
        for (const n of st.nodes) if (step.nodes.includes(n.name)) n.phase = 'done';
      }
      expect(order.flat()).toEqual(['m-1', 'm-2', 'w-1', 'w-2', 'w-3', 'w-4']);
      expect(nextBatch(st)).toEqual({ kind: 'complete' });
    }
  });

  it('re-enters an interrupted batch first: nodes under way, failed ones (retried) and those waiting for the gate', () => {
    const st = state({ maxUnavailable: 3 }, { 'm-1': 'done', 'm-2': 'done', 'w-1': 'draining', 'w-2': 'validating' });
    expect(nextBatch(st)).toEqual({ kind: 'batch', priority: 10, nodes: ['w-1', 'w-2'] });
    const failed = state({}, { 'm-1': 'failed' });
    expect(nextBatch(failed)).toEqual({ kind: 'batch', priority: 20, nodes: ['m-1'] });
    // A lower priority never starts while a higher node is failed.
    const stuck = state({ maxUnavailable: 5 }, { 'm-1': 'done', 'm-2': 'failed' });
    expect(nextBatch(stuck)).toEqual({ kind: 'batch', priority: 20, nodes: ['m-2'] });
  });

  it('resumedState retries failed nodes from their drain and clears the message', () => {
    const st = state({}, { 'm-1': 'failed' });
    st.nodes[0]!.error = 'drain timed out';
    st.nodes[0]!.blockingPdb = { namespace: 'a', name: 'b', disruptionsAllowed: 0 };
    st.phase = 'Paused';
    st.message = 'drain timed out';
    const r = resumedState(st);
    expect(r.nodes[0]).toMatchObject({ name: 'm-1', phase: 'cordoned' });
    expect(r.nodes[0]!.error).toBeUndefined();
    expect(r.nodes[0]!.blockingPdb).toBeUndefined();
    expect(r.message).toBeUndefined();
    expect(st.nodes[0]!.phase).toBe('failed'); // not mutated
  });
});

describe('log, gate and replacement decisions', () => {
  it('keeps the last LOG_LINES lines of the log', () => {
    const st = state();
    for (let i = 0; i < LOG_LINES + 10; i++) appendLog(st, `line ${i}`);
    expect(st.log).toHaveLength(LOG_LINES);
    expect(st.log.at(-1)!.message).toBe(`line ${LOG_LINES + 9}`);
  });

  it('the health gate: every node Ready and no Pending pod, counted in a row', () => {
    expect(healthVerdict([{ name: 'a', ready: true }], [])).toEqual({ ok: true, detail: '1 nodes Ready, no Pending pod' });
    const bad = healthVerdict(
      [
        { name: 'b', ready: false },
        { name: 'a', ready: true },
      ],
      ['ns/p2', 'ns/p1'],
    );
    expect(bad.ok).toBe(false);
    expect(bad.detail).toBe('1 node not Ready (b); 2 pods Pending (ns/p1, ns/p2)');
    let n = 0;
    for (const ok of [true, true, false, true, true, true]) n = gateCount(n, ok);
    expect(n).toBe(3);
  });

  it('wait mode: the old node must go (deleted or a new UID) and a new Ready node join', () => {
    const started = '2026-01-01T00:10:00Z';
    const old = { name: 'w-1', uid: 'u1', startedAt: started };
    const n = (name: string, uid: string, created: string, over: Partial<ReplacementNode> = {}): ReplacementNode => ({
      name,
      uid,
      ready: true,
      unschedulable: false,
      created,
      ...over,
    });
    const early = '2026-01-01T00:00:00Z';
    const late = '2026-01-01T00:12:00Z';
    const exclude = new Set(['w-1', 'w-2']);
    expect(replacementVerdict(old, [n('w-1', 'u1', early), n('w-9', 'u9', late)], exclude)).toMatchObject({
      oldGone: false,
      detail: 'waiting for node w-1 to be deleted or replaced',
    });
    expect(replacementVerdict(old, [n('w-2', 'u2', late)], exclude)).toMatchObject({
      oldGone: true,
      detail: 'node w-1 is gone; waiting for a new Ready node to join',
    });
    expect(replacementVerdict(old, [n('w-0', 'u0', early), n('w-9', 'u9', late, { ready: false })], exclude).replacement).toBeUndefined();
    expect(replacementVerdict(old, [n('w-0', 'u0', early), n('w-9', 'u9', late)], exclude)).toMatchObject({
      oldGone: true,
      replacement: 'w-9',
      detail: 'replaced by w-9',
    });
    // The same name with a new UID is a replacement too.
    expect(replacementVerdict(old, [n('w-1', 'u1b', late)], exclude)).toMatchObject({ oldGone: true, replacement: 'w-1' });
    // With the server's time of the cordon: only nodes created after it (a young cluster's nodes are not replacements).
    const young = { ...old, startedAt: '2026-01-01T00:00:30Z', replaceAfter: '2026-01-01T00:00:20Z' };
    expect(
      replacementVerdict(young, [n('w-0', 'u0', '2026-01-01T00:00:05Z'), n('w-8', 'u8', '2026-01-01T00:00:20Z')], exclude).replacement,
    ).toBeUndefined();
    expect(
      replacementVerdict(young, [n('w-0', 'u0', '2026-01-01T00:00:05Z'), n('w-9', 'u9', '2026-01-01T00:00:21Z')], exclude).replacement,
    ).toBe('w-9');
  });
});
