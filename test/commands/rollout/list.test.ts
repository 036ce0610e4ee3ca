import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { rolloutRows, rolloutTable } from '../../../src/commands/rollout/list.js';
import { state } from '../../helpers/rollout.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');

describe('rollout list', () => {
  it('shows an owner live only while it is: stale without heartbeat, dead when its process here is gone', () => {
    const live = { ...state({ name: 'r-live' }), phase: 'Running' as const, updatedAt: new Date(NOW).toISOString() };
    live.owner = { host: 'elsewhere', pid: 11, heartbeat: new Date(NOW - 5_000).toISOString() };
    const stale = { ...state({ name: 'r-stale' }), phase: 'Running' as const, updatedAt: new Date(NOW).toISOString() };
    stale.owner = { host: 'elsewhere', pid: 12, heartbeat: new Date(NOW - 120_000).toISOString() };
    // A pid no process has (above the kernel's pid_max), on this host, with a fresh heartbeat.
    const dead = { ...state({ name: 'r-dead' }), phase: 'Running' as const, updatedAt: new Date(NOW).toISOString() };
    dead.owner = { host: os.hostname(), pid: 2 ** 30, heartbeat: new Date(NOW - 1_000).toISOString() };

    const rows = rolloutRows([live, stale, dead], NOW);
    expect(rows.map((r) => [r.name, r.owner?.live, r.owner?.state, r.owner?.detail])).toEqual([
      ['r-live', true, 'live', 'live'],
      ['r-stale', false, 'stale', 'stale (no heartbeat for 2m)'],
      ['r-dead', false, 'dead', `dead (pid ${2 ** 30} gone)`],
    ]);
    const table = rolloutTable(rows, NOW, false);
    expect(table[1]).toMatch(/pid 11@elsewhere live\s/);
    expect(table[2]).toContain('pid 12@elsewhere stale (no heartbeat for 2m)');
    expect(table[3]).toContain(`pid ${2 ** 30}@${os.hostname()} dead (pid ${2 ** 30} gone)`);
  });
});
