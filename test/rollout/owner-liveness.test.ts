import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { isFleetdeckCommand, livenessText, localProbe, ownerLiveness, type ProcessProbe } from '../../src/rollout/owner-liveness.js';
import { CLI_PATH } from '../../src/paths.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const owner = (host: string, pid: number, ageMs: number) => ({ host, pid, heartbeat: new Date(NOW - ageMs).toISOString() });
const probe =
  (answer: ReturnType<ProcessProbe>): ProcessProbe =>
  () =>
    answer;

describe('ownerLiveness', () => {
  it('is live while the heartbeat is fresh and the process on this host is a fleetdeck', () => {
    const l = ownerLiveness(owner('here', 123, 5_000), NOW, 'here', probe('fleetdeck'));
    expect(l).toEqual({ state: 'live', heartbeatAgeMs: 5_000 });
    expect(livenessText(l)).toBe('live');
  });

  it('is dead when its process on this host is gone or is something else, however fresh the heartbeat', () => {
    expect(livenessText(ownerLiveness(owner('here', 123, 1_000), NOW, 'here', probe('gone')))).toBe('dead (pid 123 gone)');
    expect(livenessText(ownerLiveness(owner('here', 123, 1_000), NOW, 'here', probe('other')))).toBe('dead (pid 123 is not fleetdeck)');
  });

  it('is stale once the heartbeat is 30 s old; on another host the process is not looked at', () => {
    const seen: number[] = [];
    const watching: ProcessProbe = (pid) => {
      seen.push(pid);
      return 'gone';
    };
    expect(livenessText(ownerLiveness(owner('bastion', 7, 120_000), NOW, 'here', watching))).toBe('stale (no heartbeat for 2m)');
    expect(livenessText(ownerLiveness(owner('bastion', 7, 29_000), NOW, 'here', watching))).toBe('live');
    expect(seen).toEqual([]);
    expect(livenessText(ownerLiveness({ host: 'bastion', pid: 7, heartbeat: 'garbage' }, NOW, 'here', watching))).toBe(
      'stale (no heartbeat)',
    );
  });
});

describe('the local probe', () => {
  it('knows a fleetdeck command line', () => {
    expect(isFleetdeckCommand(['/usr/bin/node', '--max-old-space-size=512', CLI_PATH, 'rollout', 'create'])).toBe(true);
    expect(isFleetdeckCommand(['/usr/local/bin/fleetdeck', 'rollout'])).toBe(true);
    expect(isFleetdeckCommand(['node', '/usr/lib/node_modules/fleetdeck/dist/cli.js'])).toBe(true);
    expect(isFleetdeckCommand(['sleep', '30'])).toBe(false);
  });

  it('calls this process a fleetdeck, another program "other", an exited one gone', async () => {
    expect(localProbe(process.pid)).toBe('fleetdeck');
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      expect(localProbe(child.pid!)).toBe('other');
    } finally {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGKILL');
      await exited;
    }
    expect(localProbe(child.pid!)).toBe('gone');
    expect(ownerLiveness({ host: os.hostname(), pid: child.pid!, heartbeat: new Date().toISOString() }, Date.now()).state).toBe('dead');
  });
});
