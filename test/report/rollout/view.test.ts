import { describe, expect, it } from 'vitest';
import { changeText } from '../../../src/commands/rollout/lines.js';
import { etaMs, nodeDetail, rolloutChanges, rolloutChecklist } from '../../../src/report/rollout/view.js';
import { state } from '../../helpers/objects/rollout.js';

describe('etaMs', () => {
  it('is undefined until a node finished, then the mean duration times the batches left, less what the running batch spent', () => {
    const st = state({ maxUnavailable: 2 });
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    expect(etaMs(st, t0)).toBeUndefined();
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    Object.assign(st.nodes[0]!, { phase: 'done', startedAt: at(0), completedAt: at(60) });
    Object.assign(st.nodes[1]!, { phase: 'done', startedAt: at(0), completedAt: at(120) });
    // Mean 90 s; workers: 4 waiting in batches of 2 → 2 batches.
    expect(etaMs(st, t0 + 120_000)).toBe(180_000);
    Object.assign(st.nodes[2]!, { phase: 'draining', startedAt: at(120) });
    Object.assign(st.nodes[3]!, { phase: 'cordoned', startedAt: at(120) });
    // 30 s into the running batch: 60 s left of it, then one more batch.
    expect(etaMs(st, t0 + 150_000)).toBe(60_000 + 90_000);
    for (const n of st.nodes) Object.assign(n, { phase: 'done', startedAt: at(0), completedAt: at(10) });
    expect(etaMs(st, t0)).toBe(0);
  });
});

describe('what the lines show', () => {
  it('node rows carry phase, counts, the blocking PDB and the elapsed time', () => {
    const st = state();
    Object.assign(st.nodes[0]!, {
      phase: 'draining',
      total: 10,
      evicted: 3,
      ignored: 2,
      failed: 0,
      startedAt: '2026-01-01T00:00:00Z',
      blockingPdb: { namespace: 'shop', name: 'web-pdb', disruptionsAllowed: 0 },
    });
    expect(nodeDetail(st.nodes[0]!)).toBe(
      'draining 5/10 pods · 3 evicted, 2 ignored, 0 failed · blocked by PodDisruptionBudget shop/web-pdb (0 disruptions allowed)',
    );
    const rows = rolloutChecklist(st, Date.parse('2026-01-01T00:00:30Z'));
    expect(rows[0]).toMatchObject({ id: 'm-1', label: 'm-1 (priority 20)', state: 'warn', elapsedMs: 30_000 });
    expect(rows[1]).toMatchObject({ id: 'm-2', state: 'pending', detail: 'waiting' });
    Object.assign(st.nodes[1]!, { phase: 'done', replacement: 'm-7', evicted: 4, ignored: 1 });
    expect(nodeDetail(st.nodes[1]!)).toBe('done (replaced by m-7) · 4 evicted, 1 ignored, 0 failed');
  });

  it('rolloutChanges: a line per node whose shown fields changed, and one when the rollout phase changes', () => {
    const a = state();
    const first = rolloutChanges(undefined, a);
    expect(first.map((c) => c.kind)).toEqual(['rollout']); // waiting nodes are the plan, shown already
    const b = structuredClone(a);
    b.phase = 'Running';
    b.nodes[0]!.phase = 'cordoned';
    b.updatedAt = 'later';
    const second = rolloutChanges(a, b);
    expect(second.map((c) => (c.kind === 'node' ? c.node!.name : c.kind))).toEqual(['rollout', 'm-1']);
    const c = structuredClone(b);
    c.owner = { host: 'h', pid: 1, heartbeat: 'x' }; // a heartbeat is no change worth a line
    expect(rolloutChanges(b, c)).toEqual([]);
    const d = structuredClone(c);
    d.phase = 'Paused';
    d.nodes[0]!.phase = 'failed';
    // The rollout's last line comes after its nodes'.
    expect(rolloutChanges(c, d).map((x) => x.kind)).toEqual(['node', 'rollout']);
    const line = changeText(second[1]!, Date.parse('2026-01-01T12:00:00Z'), false, false);
    expect(line).toMatch(/^\d\d:\d\d:\d\d m-1 \(priority 20\): cordoned$/);
  });
});

describe('a node waiting for its replacement', () => {
  it('says what it waits for, since and until when, and what to do while nothing has replaced a node yet', () => {
    const st = state({ replace: 'wait' });
    const n = st.nodes[0]!;
    const since = new Date(2026, 0, 1, 12, 3, 10);
    const until = new Date(2026, 0, 1, 12, 33, 10);
    Object.assign(n, { phase: 'replacing', replaceWait: { since: since.toISOString(), until: until.toISOString() } });
    const detail = nodeDetail(n, 'wait', st);
    expect(detail).toContain(
      `waits for ${n.name} to be deleted (or registered anew) and a new Ready node to join, since 12:03:10, until 12:33:10`,
    );
    expect(detail).toContain(
      'nothing has replaced a node of this rollout yet: if no autoscaler or machine controller runs in this cluster, abort and use --replace uncordon',
    );
    // Once a node was replaced, the replacement is known to come: no advice.
    Object.assign(st.nodes[1]!, { phase: 'done', replacement: 'new-1' });
    expect(nodeDetail(n, 'wait', st)).not.toContain('nothing has replaced');
    expect(nodeDetail(n, 'wait', st)).toContain('until 12:33:10');
    // Other modes and other phases say nothing of it.
    expect(nodeDetail(n, 'uncordon', st)).not.toContain('waits for');
    expect(nodeDetail({ ...n, phase: 'validating' }, 'wait', st)).not.toContain('waits for');
  });
});
