import { describe, expect, it } from 'vitest';
import type { ProcessProbe } from '../../src/rollout/owner-liveness.js';
import { acquireVerdict } from '../../src/rollout/ownership.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const held = (holderIdentity: string, ageMs: number) => ({
  holderIdentity,
  renewTime: new Date(NOW - ageMs).toISOString(),
  leaseDurationSeconds: 30,
  leaseTransitions: 2,
});
const probe =
  (answer: ReturnType<ProcessProbe>): ProcessProbe =>
  () =>
    answer;

describe("acquireVerdict: who may take a rollout's Lease", () => {
  it('takes a missing, released or own Lease without a transition', () => {
    expect(acquireVerdict(undefined, 'here/1', NOW, false, 'here', probe('fleetdeck'))).toEqual({ take: true, transition: false });
    expect(acquireVerdict({ leaseDurationSeconds: 30, leaseTransitions: 3 }, 'here/1', NOW, false)).toEqual({
      take: true,
      transition: false,
    });
    expect(acquireVerdict(held('here/1', 1_000), 'here/1', NOW, false, 'here', probe('fleetdeck'))).toEqual({
      take: true,
      transition: false,
    });
  });

  it('refuses a live other holder, unless forced (a transition)', () => {
    const refused = acquireVerdict(held('pod/runner-x', 4_000), 'here/1', NOW, false, 'here', probe('fleetdeck'));
    expect(refused).toMatchObject({ take: false, holder: { holder: 'pod/runner-x', liveness: { state: 'live' } } });
    expect(acquireVerdict(held('pod/runner-x', 4_000), 'here/1', NOW, true, 'here')).toMatchObject({ take: true, transition: true });
  });

  it('takes over an expired Lease, and one held by a process of this host that is gone or no fleetdeck', () => {
    expect(acquireVerdict(held('elsewhere/5', 31_000), 'here/1', NOW, false, 'here')).toMatchObject({
      take: true,
      transition: true,
      previous: { liveness: { state: 'expired' } },
    });
    expect(acquireVerdict(held('here/5', 1_000), 'here/1', NOW, false, 'here', probe('gone'))).toMatchObject({
      take: true,
      previous: { liveness: { state: 'dead', reason: 'pid 5 gone' } },
    });
    expect(acquireVerdict(held('here/5', 1_000), 'here/1', NOW, false, 'here', probe('other')).take).toBe(true);
    expect(acquireVerdict(held('here/5', 1_000), 'here/1', NOW, false, 'here', probe('fleetdeck')).take).toBe(false);
  });
});
