import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { rolloutRows, rolloutTable } from '../../../src/commands/rollout/list.js';
import type { LeaseTimes } from '../../../src/rollout/owner-liveness.js';
import { state } from '../../helpers/objects/rollout.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const running = (name: string) => ({ ...state({ name }), phase: 'Running' as const, updatedAt: new Date(NOW).toISOString() });
const lease = (holderIdentity: string, ageMs: number) => ({
  holderIdentity,
  renewTime: new Date(NOW - ageMs).toISOString(),
  leaseDurationSeconds: 30,
});

describe('rollout list', () => {
  it("shows the Lease's holder: live while renewed, expired when not, dead when its process here is gone", () => {
    const live = running('r-live');
    const expired = running('r-expired');
    // A pid no process has (above the kernel's pid_max), on this host, with a fresh Lease.
    const dead = running('r-dead');
    // Written before the Lease: its heartbeat says.
    const old = running('r-old');
    old.owner = { host: 'elsewhere', pid: 13, heartbeat: new Date(NOW - 5_000).toISOString() };
    const released = running('r-free');
    const leases = new Map<string, LeaseTimes>([
      ['r-live', lease('pod/fleetdeck-runner-x-abcde', 4_000)],
      ['r-expired', lease('elsewhere/12', 120_000)],
      ['r-dead', lease(`${os.hostname()}/${2 ** 30}`, 1_000)],
      ['r-free', { leaseDurationSeconds: 30 }],
    ]);

    const rows = rolloutRows('kind-w1', [live, expired, dead, old, released], leases, NOW);
    expect(rows.map((r) => [r.name, r.owner?.holder, r.owner?.live, r.owner?.state, r.owner?.detail])).toEqual([
      ['r-live', 'pod/fleetdeck-runner-x-abcde', true, 'live', 'live'],
      ['r-expired', 'elsewhere/12', false, 'expired', 'expired (not renewed for 2m)'],
      ['r-dead', `${os.hostname()}/${2 ** 30}`, false, 'dead', `dead (pid ${2 ** 30} gone)`],
      ['r-old', 'elsewhere/13', true, 'live', 'live'],
      ['r-free', undefined, undefined, undefined, undefined],
    ]);
    expect(rows[0]!.owner).toMatchObject({ pod: 'fleetdeck-runner-x-abcde', host: null, pid: null });
    expect(rows[1]!.owner).toMatchObject({ pod: null, host: 'elsewhere', pid: 12 });
    const table = rolloutTable(rows, NOW, false);
    expect(table[1]).toMatch(/pod\/fleetdeck-runner-x-abcde live\s/);
    expect(table[2]).toContain('elsewhere/12 expired (not renewed for 2m)');
    expect(table[3]).toContain(`${os.hostname()}/${2 ** 30} dead (pid ${2 ** 30} gone)`);
    expect(table[5]).toMatch(/^r-free\s.*\s-\s/);
    expect(rows.every((r) => r.context === 'kind-w1')).toBe(true);
  });

  it('puts a CONTEXT column first when the rows come from several contexts', () => {
    const rows = [
      ...rolloutRows('kind-w1', [running('a')], new Map(), NOW),
      ...rolloutRows('kind-workload-2', [running('b')], new Map(), NOW),
    ];
    const table = rolloutTable(rows, NOW, false, true);
    expect(table[0]).toMatch(/^CONTEXT\s+NAME\s+PHASE/);
    expect(table[1]).toMatch(/^kind-w1\s+a\s+Running/);
    expect(table[2]).toMatch(/^kind-workload-2 {2}b\s+Running/);
    expect(rolloutTable(rows, NOW, false)[0]).toMatch(/^NAME\s/);
  });
});
