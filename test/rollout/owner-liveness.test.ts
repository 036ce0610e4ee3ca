import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  holderLiveness,
  holderView,
  isFleetdeckCommand,
  localProbe,
  ownedElsewhereMessage,
  parseHolder,
  selfHolder,
  type ProcessProbe,
} from '../../src/rollout/owner-liveness.js';
import { livenessText } from '../../src/report/rollout/holder.js';
import { CLI_PATH } from '../../src/paths.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');
const lease = (holderIdentity: string, ageMs: number) => ({
  holderIdentity,
  renewTime: new Date(NOW - ageMs).toISOString(),
  leaseDurationSeconds: 30,
});
const probe =
  (answer: ReturnType<ProcessProbe>): ProcessProbe =>
  () =>
    answer;

describe('holder identity', () => {
  it('is pod/$POD_NAME in a pod, host/pid elsewhere, and reads back', () => {
    expect(selfHolder({ POD_NAME: 'fleetdeck-runner-x-abcde' }, 'bastion-1', 4242)).toEqual({
      kind: 'pod',
      identity: 'pod/fleetdeck-runner-x-abcde',
      pod: 'fleetdeck-runner-x-abcde',
    });
    expect(selfHolder({}, 'bastion-1', 4242)).toEqual({ kind: 'process', identity: 'bastion-1/4242', host: 'bastion-1', pid: 4242 });
    expect(parseHolder('bastion-1/4242')).toMatchObject({ kind: 'process', host: 'bastion-1', pid: 4242 });
    expect(parseHolder('pod/runner-1')).toMatchObject({ kind: 'pod', pod: 'runner-1' });
  });
});

describe('holderLiveness (from the Lease)', () => {
  it('is live while the Lease is renewed within its duration and the process on this host is a fleetdeck', () => {
    const l = holderLiveness(lease('here/123', 5_000), NOW, 'here', probe('fleetdeck'));
    expect(l).toEqual({ state: 'live', renewAgeMs: 5_000 });
    expect(livenessText(l)).toBe('live');
  });

  it('is dead when its process on this host is gone or is something else, however fresh the Lease', () => {
    expect(livenessText(holderLiveness(lease('here/123', 1_000), NOW, 'here', probe('gone')))).toBe('dead (pid 123 gone)');
    expect(livenessText(holderLiveness(lease('here/123', 1_000), NOW, 'here', probe('other')))).toBe('dead (pid 123 is not fleetdeck)');
  });

  it('is expired once renewTime + leaseDurationSeconds is past; another host and a pod are not probed', () => {
    const seen: number[] = [];
    const watching: ProcessProbe = (pid) => {
      seen.push(pid);
      return 'gone';
    };
    expect(livenessText(holderLiveness(lease('bastion/7', 120_000), NOW, 'here', watching))).toBe('expired (not renewed for 2m)');
    expect(livenessText(holderLiveness(lease('bastion/7', 29_000), NOW, 'here', watching))).toBe('live');
    expect(livenessText(holderLiveness(lease('pod/runner', 29_000), NOW, 'here', watching))).toBe('live');
    expect(holderLiveness({ ...lease('pod/runner', 0), leaseDurationSeconds: 10 }, NOW + 11_000, 'here', watching).state).toBe('expired');
    expect(seen).toEqual([]);
    expect(livenessText(holderLiveness({ holderIdentity: 'bastion/7', leaseDurationSeconds: 30 }, NOW, 'here', watching))).toBe(
      'expired (never renewed)',
    );
  });
});

describe('holderView', () => {
  it('reads the Lease; without one, a record written before the Lease by its heartbeat; a released Lease is nobody', () => {
    const v = holderView(lease('pod/runner-x', 4_000), undefined, NOW, 'here', probe('gone'));
    expect(v).toMatchObject({ holder: 'pod/runner-x', liveness: { state: 'live', renewAgeMs: 4_000 } });
    expect(ownedElsewhereMessage('r1', v!, 'ctx')).toBe(
      'rollout r1 is being run by pod/runner-x (lease renewed 4 s ago); watch it with fleetdeck rollout watch r1 --context ctx, or take over with --force-takeover',
    );
    const old = { owner: { host: 'bastion', pid: 9, heartbeat: new Date(NOW - 2_000).toISOString() } };
    expect(holderView(undefined, old, NOW, 'here')).toMatchObject({ holder: 'bastion/9', legacy: true, liveness: { state: 'live' } });
    expect(holderView(undefined, old, NOW + 60_000, 'here')?.liveness.state).toBe('expired');
    // A Lease given back: nobody, whatever the record says.
    expect(holderView({ leaseDurationSeconds: 30 }, old, NOW, 'here')).toBeUndefined();
  });
});

describe('the local probe', () => {
  it('knows a fleetdeck command line', () => {
    expect(isFleetdeckCommand(['/usr/bin/node', '--max-old-space-size=512', CLI_PATH, 'rollout', 'create'])).toBe(true);
    expect(isFleetdeckCommand(['/usr/local/bin/fleetdeck', 'rollout'])).toBe(true);
    // `kubectl fleetdeck rollout create …`: kubectl runs the plugin's bin, which re-runs itself with node's flags.
    expect(isFleetdeckCommand(['/usr/bin/node', '--max-semi-space-size=4', '/home/op/.krew/bin/kubectl-fleetdeck', 'rollout'])).toBe(true);
    expect(isFleetdeckCommand(['/usr/local/bin/kubectl-fleetdeck-other', 'rollout'])).toBe(false);
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
    const fresh = { holderIdentity: `${os.hostname()}/${child.pid}`, renewTime: new Date().toISOString(), leaseDurationSeconds: 30 };
    expect(holderLiveness(fresh, Date.now()).state).toBe('dead');
  });
});
