import { describe, expect, it } from 'vitest';
import { roomCheck, type NodeRoom } from '../../../src/rollout/drain/room.js';

describe('roomCheck', () => {
  const node = (name: string, over: Partial<NodeRoom> & { usedCpu?: number; usedMem?: number; usedPods?: number } = {}): NodeRoom => ({
    name,
    ready: over.ready ?? true,
    unschedulable: over.unschedulable ?? false,
    allocatable: { cpuMilli: 4000, memoryBytes: 16 * 2 ** 30, pods: 110 },
    requested: { cpuMilli: over.usedCpu ?? 0, memoryBytes: over.usedMem ?? 0, pods: over.usedPods ?? 0 },
  });
  const req = (cpu: number, memGi: number) => ({ cpuMilli: cpu, memoryBytes: memGi * 2 ** 30 });

  it('fits when the free sum per resource covers the evicted requests, and says it is a sum', () => {
    const r = roomCheck([req(1000, 1), req(1000, 1)], [node('n1'), node('n2', { usedCpu: 3500 })], new Set(['n1']));
    // n1 is being drained: only n2's 500m are free.
    expect(r.fits).toBe(false);
    expect(r.detail).toContain('CPU');
    expect(r.detail).toMatch(/sum/);
    const ok = roomCheck([req(1000, 1), req(1000, 1)], [node('n1'), node('n2'), node('n3', { usedCpu: 3000 })], new Set(['n1']));
    expect(ok.fits).toBe(true);
    expect(ok.detail).toMatch(/^fits on 2 schedulable Ready nodes/);
    expect(ok.detail).toMatch(/sum/);
  });

  it('leaves out cordoned and not-Ready nodes', () => {
    const r = roomCheck([req(100, 1)], [node('n1'), node('n2', { unschedulable: true }), node('n3', { ready: false })], new Set(['n1']));
    expect(r.fits).toBe(false);
    expect(r.detail).toMatch(/no schedulable Ready node/);
  });

  it('checks memory and pod slots too, and nothing to evict always fits', () => {
    expect(roomCheck([req(0, 20)], [node('n1'), node('n2')], new Set(['n1'])).detail).toMatch(/memory/);
    const many = Array.from({ length: 111 }, () => req(0, 0));
    expect(roomCheck(many, [node('n1'), node('n2')], new Set(['n1']))).toMatchObject({
      fits: false,
      detail: expect.stringContaining('pod slots'),
    });
    expect(roomCheck([], [], new Set())).toEqual({ fits: true, detail: 'nothing to evict' });
  });
});
