/** The values of `fleetdeck logs`' flags, checked as kubectl checks them (a bad one: one line, exit 2). */
import { UsageError } from '../errors.js';

const UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/**
 * `--since`: a Go duration as kubectl takes it (10s, 5m, 1h, 1h30m, 1.5h, 300ms), in whole
 * seconds rounded up, as kubectl sends it (sinceSeconds); must be longer than 0.
 */
export function parseSince(value: string): number {
  const v = value.trim();
  const parts = [...v.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)];
  if (!v || parts.length === 0 || parts.map((p) => p[0]).join('') !== v) {
    throw new UsageError(`--since "${value}" is not a duration (e.g. 10s, 5m, 1h, 1h30m)`);
  }
  const seconds = parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]!]!, 0);
  if (!(seconds > 0)) throw new UsageError('--since must be longer than 0');
  return Math.ceil(seconds);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** `--since-time`: an RFC 3339 time (2026-11-25T10:00:00Z), passed on as given. */
export function parseSinceTime(value: string): string {
  const v = value.trim();
  if (!RFC3339.test(v) || Number.isNaN(Date.parse(v))) {
    throw new UsageError(`--since-time "${value}" is not an RFC 3339 time (e.g. 2026-11-25T10:00:00Z)`);
  }
  return v;
}

/** `--tail`: lines of the end of each container's log; -1 (kubectl's default) is all of it. */
export function parseTail(value: string): number {
  const v = value.trim();
  if (!/^-?\d+$/.test(v) || Number(v) < -1) throw new UsageError(`--tail "${value}" is not a number of lines (-1 for all)`);
  return Number(v);
}

/** `--max-log-requests`: a whole number ≥ 1. */
export function parseMaxRequests(value: string): number {
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--max-log-requests "${value}" is not a whole number of at least 1`);
  return Number(v);
}
