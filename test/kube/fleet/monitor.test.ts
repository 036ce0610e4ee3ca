import { describe, expect, it } from 'vitest';
import { LATENCY_REFRESH_MS, probeDecision } from '../../../src/kube/fleet/monitor.js';

const interval = 5_000;

describe('probeDecision', () => {
  it('probes a context that is down, not yet reached, or whose watches were quiet for an interval', () => {
    expect(probeDecision({ up: false, quietMs: 10, sinceProbeMs: 10, intervalMs: interval })).toBe('probe');
    expect(probeDecision({ up: true, quietMs: interval, sinceProbeMs: 10, intervalMs: interval })).toBe('probe');
    expect(probeDecision({ up: true, quietMs: Number.POSITIVE_INFINITY, sinceProbeMs: 10, intervalMs: interval })).toBe('probe');
  });

  it('does not probe a context whose watches delivered an event within the interval: it looks again an interval after that event', () => {
    expect(probeDecision({ up: true, quietMs: 1_000, sinceProbeMs: 10_000, intervalMs: interval })).toBe(4_000);
    expect(probeDecision({ up: true, quietMs: 0, sinceProbeMs: 10_000, intervalMs: interval })).toBe(interval);
  });

  it('measures the latency of a busy context again once it is a refresh old', () => {
    expect(probeDecision({ up: true, quietMs: 100, sinceProbeMs: LATENCY_REFRESH_MS, intervalMs: interval })).toBe('probe');
    expect(probeDecision({ up: true, quietMs: 100, sinceProbeMs: LATENCY_REFRESH_MS - 2_000, intervalMs: interval })).toBe(2_000);
  });
});
