/**
 * Whether a rollout's holder still runs it. The holder is its Lease's holderIdentity (`host/pid`
 * for a fleetdeck run in a terminal, `pod/NAME` for one run in a pod): live while the Lease is
 * renewed (renewTime + leaseDurationSeconds is ahead) and — for a process on this host — while
 * that process exists and is a fleetdeck; otherwise expired (not renewed in time) or dead (its
 * process here is gone, or the pid now belongs to something else). Records written before the
 * Lease (an owner with a heartbeat, no Lease) are judged by that heartbeat the same way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LeaseHold } from '../kube/records/lease.js';
import { CLI_PATH } from '../paths.js';
import { OWNER_STALE_MS, type RolloutOwner, type RolloutState } from './types.js';

export type OwnerLiveness =
  | { state: 'live'; renewAgeMs: number }
  | { state: 'expired'; renewAgeMs: number }
  | { state: 'dead'; reason: string };

/** Who holds a rollout, as its identity says. */
export type Holder = { kind: 'pod'; identity: string; pod: string } | { kind: 'process'; identity: string; host: string; pid: number };

/** What this host says of a pid: a fleetdeck process, another process, or none. */
export type ProcessProbe = (pid: number) => 'fleetdeck' | 'other' | 'gone';

/** Names fleetdeck's bins have on PATH: the command, and kubectl's plugin (`kubectl fleetdeck`). */
const BIN_NAMES = new Set(['fleetdeck', 'kubectl-fleetdeck']);

/** A command line that runs fleetdeck: this package's CLI, or a program or package named fleetdeck. */
export function isFleetdeckCommand(argv: readonly string[]): boolean {
  return argv.some((a) => a === CLI_PATH || BIN_NAMES.has(path.basename(a)) || a.includes(`${path.sep}fleetdeck${path.sep}`));
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

/** This process as a holder: `pod/$POD_NAME` in a pod, `host/pid` elsewhere. */
export function selfHolder(env: NodeJS.ProcessEnv = process.env, host: string = os.hostname(), pid: number = process.pid): Holder {
  const pod = env.POD_NAME?.trim();
  if (pod) return { kind: 'pod', identity: `pod/${pod}`, pod };
  return { kind: 'process', identity: `${host}/${pid}`, host, pid };
}

/** `pod/NAME` or `host/pid`; anything else is kept as an identity of some other holder (a pod, by its name). */
export function parseHolder(identity: string): Holder {
  if (identity.startsWith('pod/')) return { kind: 'pod', identity, pod: identity.slice(4) };
  const m = /^(.+)\/(\d+)$/.exec(identity);
  if (m) return { kind: 'process', identity, host: m[1]!, pid: Number(m[2]) };
  return { kind: 'pod', identity, pod: identity };
}

/** A process holder on this host that is gone or is no fleetdeck: why; undefined otherwise. */
function deadHere(h: Holder, host: string, probe: ProcessProbe): string | undefined {
  if (h.kind !== 'process' || h.host !== host) return undefined;
  const p = probe(h.pid);
  if (p === 'gone') return `pid ${h.pid} gone`;
  if (p === 'other') return `pid ${h.pid} is not fleetdeck`;
  return undefined;
}

/** What liveness reads of a Lease. */
export type LeaseTimes = Pick<LeaseHold, 'holderIdentity' | 'renewTime' | 'acquireTime' | 'leaseDurationSeconds'>;

/** The holder's liveness at `now`, seen from `host` (a process is checked only on its own host). */
export function holderLiveness(
  hold: LeaseTimes,
  now: number,
  host: string = os.hostname(),
  probe: ProcessProbe = localProbe,
): OwnerLiveness {
  const dead = hold.holderIdentity ? deadHere(parseHolder(hold.holderIdentity), host, probe) : undefined;
  if (dead) return { state: 'dead', reason: dead };
  const renewed = Date.parse(hold.renewTime ?? hold.acquireTime ?? '');
  const age = now - renewed;
  if (!Number.isFinite(age)) return { state: 'expired', renewAgeMs: Infinity };
  if (age >= hold.leaseDurationSeconds * 1000) return { state: 'expired', renewAgeMs: age };
  return { state: 'live', renewAgeMs: Math.max(0, age) };
}

/** A record written before the Lease: its owner's heartbeat, as a Lease of 30 s. */
export function legacyHold(owner: RolloutOwner): Pick<LeaseHold, 'holderIdentity' | 'renewTime' | 'leaseDurationSeconds'> {
  return {
    holderIdentity: owner.holder ?? `${owner.host}/${owner.pid}`,
    ...(owner.heartbeat ? { renewTime: owner.heartbeat } : {}),
    leaseDurationSeconds: OWNER_STALE_MS / 1000,
  };
}

/** A rollout's holder as seen now: identity, liveness, and the Lease's renewal. */
export interface HolderView {
  holder: string;
  liveness: OwnerLiveness;
  /** ISO time of the latest renewal (or an old record's heartbeat). */
  renewTime?: string;
  /** From a record written before the Lease (no Lease, an owner with a heartbeat). */
  legacy?: boolean;
}

/** The holder of a rollout from its Lease — or, without one, from an old record's heartbeat; undefined when nobody holds it. */
export function holderView(
  lease: LeaseTimes | undefined,
  state: Pick<RolloutState, 'owner'> | undefined,
  now: number,
  host?: string,
  probe?: ProcessProbe,
): HolderView | undefined {
  if (lease?.holderIdentity) {
    return {
      holder: lease.holderIdentity,
      liveness: holderLiveness(lease, now, host, probe),
      ...(lease.renewTime ? { renewTime: lease.renewTime } : {}),
    };
  }
  if (lease || !state?.owner?.heartbeat) return undefined;
  const hold = legacyHold(state.owner);
  return { holder: hold.holderIdentity!, liveness: holderLiveness(hold, now, host, probe), renewTime: state.owner.heartbeat, legacy: true };
}

/** "rollout X is being run by H (lease renewed N s ago); watch it with …, or take over with --force-takeover" */
export function ownedElsewhereMessage(name: string, v: HolderView, context?: string): string {
  const age = v.liveness.state === 'dead' ? 0 : Math.round(v.liveness.renewAgeMs / 1000);
  const what = v.legacy ? 'heartbeat' : 'lease renewed';
  const where = context ? ` --context ${context}` : '';
  return `rollout ${name} is being run by ${v.holder} (${what} ${age} s ago); watch it with fleetdeck rollout watch ${name}${where}, or take over with --force-takeover`;
}
