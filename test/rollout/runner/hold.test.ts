import { describe, expect, it } from 'vitest';
import { NO_GUARDS } from '../../../src/rollout/guards/types.js';
import type { RunContext } from '../../../src/rollout/runner/context.js';
import { rolloutDeadlinePassed } from '../../../src/rollout/runner/hold.js';
import type { RolloutState } from '../../../src/rollout/types.js';

const T0 = Date.parse('2026-11-28T10:00:00Z');

/** Only what the deadline reads: the guard rails and the state's deadlineFrom. */
const ctx = (rolloutDeadlineMs: number | undefined, deadlineFrom: string | undefined) =>
  ({
    guards: { ...NO_GUARDS, ...(rolloutDeadlineMs ? { rolloutDeadlineMs } : {}) },
    writer: { state: { ...(deadlineFrom ? { deadlineFrom } : {}) } as RolloutState },
  }) as unknown as RunContext;

describe('the rollout deadline', () => {
  it('has passed once the time since the start (or the latest resume) reaches it, and says how to go on', () => {
    const c = ctx(6 * 3_600_000, new Date(T0).toISOString());
    expect(rolloutDeadlinePassed(c, T0 + 6 * 3_600_000 - 1)).toBeUndefined();
    expect(rolloutDeadlinePassed(c, T0 + 6 * 3_600_000)).toBe(
      'rollout deadline of 6h passed (counted from 2026-11-28T10:00:00.000Z); resume to give it another 6h',
    );
  });

  it('never passes without a deadline, or before the run recorded where it counts from', () => {
    expect(rolloutDeadlinePassed(ctx(undefined, new Date(T0).toISOString()), T0 + 1e12)).toBeUndefined();
    expect(rolloutDeadlinePassed(ctx(60_000, undefined), T0 + 1e12)).toBeUndefined();
  });
});
