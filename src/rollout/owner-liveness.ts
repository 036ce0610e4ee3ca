/**
 * Whether a rollout's recorded owner still runs it: live while its heartbeat is fresh and — when
 * it ran on this host — its process exists and is a fleetdeck; otherwise stale (no heartbeat) or
 * dead (its process is gone, or the pid now belongs to something else).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatElapsed } from '../checklist/checklist.js';
import { CLI_PATH } from '../paths.js';
import { OWNER_STALE_MS, type RolloutOwner } from './types.js';

export type OwnerLiveness =
  | { state: 'live'; heartbeatAgeMs: number }
  | { state: 'stale'; heartbeatAgeMs: number }
  | { state: 'dead'; reason: string };

/** What this host says of a pid: a fleetdeck process, another process, or none. */
export type ProcessProbe = (pid: number) => 'fleetdeck' | 'other' | 'gone';

/** A command line that runs fleetdeck: this package's CLI, or a program or package named fleetdeck. */
export function isFleetdeckCommand(argv: readonly string[]): boolean {
  return argv.some((a) => a === CLI_PATH || path.basename(a) === 'fleetdeck' || a.includes(`${path.sep}fleetdeck${path.sep}`));
}

/** The probe of this host: /proc where there is one (a zombie is gone); elsewhere a signal 0 (alive counts as fleetdeck). */
export const localProbe: ProcessProbe = (pid) => {
  if (!Number.isInteger(pid) || pid <= 0) return 'gone';
  // The process running this code is a fleetdeck, whatever started it.
  if (pid === process.pid) return 'fleetdeck';
  if (fs.existsSync('/proc/self/cmdline')) {
    try {
      if (/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))) return 'gone';
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      return isFleetdeckCommand(argv) ? 'fleetdeck' : 'other';
    } catch {
      return 'gone';
    }
  }
  try {
    process.kill(pid, 0);
    return 'fleetdeck';
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? 'fleetdeck' : 'gone';
  }
};

/** The owner's liveness at `now`, seen from `host` (the owner's process is checked only on its own host). */
export function ownerLiveness(
  owner: RolloutOwner,
  now: number,
  host: string = os.hostname(),
  probe: ProcessProbe = localProbe,
): OwnerLiveness {
  if (owner.host === host) {
    const p = probe(owner.pid);
    if (p === 'gone') return { state: 'dead', reason: `pid ${owner.pid} gone` };
    if (p === 'other') return { state: 'dead', reason: `pid ${owner.pid} is not fleetdeck` };
  }
  const age = now - Date.parse(owner.heartbeat);
  if (!Number.isFinite(age) || age >= OWNER_STALE_MS) return { state: 'stale', heartbeatAgeMs: Number.isFinite(age) ? age : Infinity };
  return { state: 'live', heartbeatAgeMs: Math.max(0, age) };
}

/** "live", "stale (no heartbeat for 2m)", "dead (pid 123 gone)". */
export function livenessText(l: OwnerLiveness): string {
  if (l.state === 'live') return 'live';
  if (l.state === 'dead') return `dead (${l.reason})`;
  return Number.isFinite(l.heartbeatAgeMs)
    ? `stale (no heartbeat for ${formatElapsed(l.heartbeatAgeMs, { coarse: true })})`
    : 'stale (no heartbeat)';
}
