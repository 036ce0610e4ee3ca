import { describe, expect, it } from 'vitest';
import { stuckPending } from '../../../../src/sandbox/sim/nova/reschedule.js';

describe('the agent noticing pods that stay Pending', () => {
  it('a pod counts as stuck once Unschedulable for the time given, not before, nor when scheduled', () => {
    const pod = (status: string, reason: string, at: number) => ({
      status: { conditions: [{ type: 'PodScheduled', status, reason, lastTransitionTime: new Date(at) }] },
    });
    expect(stuckPending(pod('False', 'Unschedulable', 0) as never, 20_000, 20_000)).toBe(true);
    expect(stuckPending(pod('False', 'Unschedulable', 1) as never, 20_000, 20_000)).toBe(false);
    expect(stuckPending(pod('True', '', 0) as never, 20_000, 20_000)).toBe(false);
  });
});
