import { describe, expect, it } from 'vitest';
import { shownUrl } from '../../../src/rollout/guards/alerts.js';
import { RenewalClock, heldElsewhere } from '../../../src/rollout/guards/cluster-lease.js';
import { redactedSpec, redactedState } from '../../../src/rollout/guards/redact.js';
import { NO_GUARDS } from '../../../src/rollout/guards/types.js';
import type { RolloutSpec, RolloutState } from '../../../src/rollout/types.js';

const spec: RolloutSpec = {
  name: 'r1',
  context: 'prod',
  nodeSelectors: [],
  nodeNames: [{ name: 'n1', priority: 0 }],
  maxUnavailable: 1,
  replace: 'uncordon',
  drain: { force: false, deleteEmptyDirData: false, timeoutMs: 60_000 },
  health: { passes: 1, intervalMs: 1_000, timeoutMs: 60_000 },
  guards: {
    ...NO_GUARDS,
    alerts: { url: 'https://bot:pw@prom.example/prometheus?token=abc', api: 'prometheus', firingOnly: true },
    notify: { url: 'https://hooks.slack.com/services/T0/B0/s3cr3t', format: 'slack', templates: {} },
  },
};

describe('a rollout as printed', () => {
  it('keeps no webhook path, alert credentials or alert query: only what locates the server', () => {
    const shown = JSON.stringify(redactedState({ spec, phase: 'Running', nodes: [], log: [], updatedAt: '' } as RolloutState));
    for (const secret of ['s3cr3t', 'pw', 'token=abc', 'T0/B0']) expect(shown).not.toContain(secret);
    expect(redactedSpec(spec).guards).toMatchObject({
      notify: { url: 'https://hooks.slack.com/…' },
      alerts: { url: 'https://prom.example/prometheus?…' },
    });
    // The spec itself, as the record keeps it, is left whole.
    expect(spec.guards!.notify!.url).toBe('https://hooks.slack.com/services/T0/B0/s3cr3t');
  });

  it('shows the query fleetdeck adds to Alertmanager’s endpoint, never one of the user’s', () => {
    expect(shownUrl(new URL('http://am:9093/api/v2/alerts?active=true&silenced=false'))).toBe(
      'http://am:9093/api/v2/alerts?active=true&silenced=false',
    );
    expect(shownUrl(new URL('http://am:9093/x/api/v2/alerts?active=true&key=k'))).toBe('http://am:9093/x/api/v2/alerts?active=true&…');
  });
});

describe("the cluster's rollout Lease", () => {
  const lease = (renewTime: string) => ({ holderIdentity: 'other', leaseDurationSeconds: 30, renewTime, leaseTransitions: 0 });

  it('judges a holder live by when this process saw its renewal, whatever its clock says', () => {
    const seen = new RenewalClock();
    // Written by a machine an hour behind: still live for its duration from when it was seen.
    const old = lease('2026-11-28T09:00:00Z');
    const t = Date.parse('2026-11-28T10:00:00Z');
    expect(heldElsewhere(old, 'mine', t, seen)).toBe(true);
    expect(heldElsewhere(old, 'mine', t + 29_999, seen)).toBe(true);
    expect(heldElsewhere(old, 'mine', t + 30_000, seen)).toBe(false);
    // A new renewal seen: live again.
    expect(heldElsewhere(lease('2026-11-28T09:00:10Z'), 'mine', t + 31_000, seen)).toBe(true);
  });

  it('is never held against the rollout that holds it, nor when nobody does', () => {
    const seen = new RenewalClock();
    expect(heldElsewhere({ ...lease('2026-11-28T10:00:00Z'), holderIdentity: 'mine' }, 'mine', 0, seen)).toBe(false);
    expect(heldElsewhere({ ...lease('2026-11-28T10:00:00Z'), holderIdentity: '' }, 'mine', 0, seen)).toBe(false);
  });
});
