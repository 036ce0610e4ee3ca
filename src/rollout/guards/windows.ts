/**
 * Maintenance windows (kured's --reboot-days/--start-time/--end-time/--time-zone): parsing the
 * flag form, writing it back, and whether a rollout may take a node now or when it next may.
 * Pure: zone arithmetic by Intl only, no I/O.
 */
import { UsageError } from '../../errors.js';
import { type MaintenanceWindow, WEEKDAYS, type Weekday } from './types.js';

export const WINDOW_FORM = 'DAYS HH:MM-HH:MM [ZONE], e.g. "Sat,Sun 02:00-06:00 Europe/Berlin", "Mon-Fri 22:00-04:00 UTC", "* 01:00-05:00"';

/** Monday first: the order windowText writes days in. */
const WEEK_ORDER: readonly Weekday[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const FULL_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_MS = 86_400_000;
/** How far ahead an opening is looked for: every weekly window opens within it. */
const HORIZON_DAYS = 8;

function dayOf(text: string): Weekday | undefined {
  const t = text.toLowerCase();
  const i = FULL_NAMES.findIndex((full) => full === t || full.slice(0, 3) === t);
  return i < 0 ? undefined : WEEKDAYS[i];
}

/** `*`, or a comma list of days and ranges (`Mon-Fri`, wrapping `Fri-Mon`); Monday first, each once. */
function parseDays(text: string): Weekday[] | string {
  if (text === '*') return [...WEEK_ORDER];
  const days = new Set<Weekday>();
  for (const part of text.split(',')) {
    const [from, to, extra] = part.split('-');
    const a = dayOf(from ?? '');
    const b = to === undefined ? a : dayOf(to);
    if (extra !== undefined || a === undefined || b === undefined) return `unknown day "${part}" (Mon … Sun, Monday … Sunday, or *)`;
    const start = WEEK_ORDER.indexOf(a);
    const span = (WEEK_ORDER.indexOf(b) - start + 7) % 7;
    for (let i = 0; i <= span; i++) days.add(WEEK_ORDER[(start + i) % 7]!);
  }
  return WEEK_ORDER.filter((d) => days.has(d));
}

/** Minutes after midnight of `HH:MM`, or undefined; `24:00` only where `allow24`. */
function minutesOf(text: string, allow24: boolean): number | undefined {
  const m = /^(\d\d):(\d\d)$/.exec(text);
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (allow24 && h === 24 && min === 0) return 24 * 60;
  return h < 24 && min < 60 ? h * 60 + min : undefined;
}

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** The problem with a window (as read from YAML) in one line, or undefined when it is sound. */
export function validateWindow(w: MaintenanceWindow): string | undefined {
  if (!Array.isArray(w.days) || w.days.length === 0) return 'no days (give days such as Sat,Sun, Mon-Fri or *)';
  const bad = w.days.find((d) => !WEEKDAYS.includes(d));
  if (bad !== undefined) return `unknown day "${String(bad)}" (one of ${WEEKDAYS.join(', ')})`;
  const start = minutesOf(w.start, false);
  if (start === undefined) return `start "${w.start}" is not a time HH:MM from 00:00 to 23:59`;
  const end = minutesOf(w.end, true);
  if (end === undefined) return `end "${w.end}" is not a time HH:MM from 00:00 to 24:00`;
  if (start === end) return `start and end are the same time (${w.start}-${w.end}): the window would be empty or never close`;
  if (!isTimeZone(w.timeZone)) return `unknown time zone "${w.timeZone}" (an IANA name such as UTC or Europe/Berlin)`;
  return undefined;
}

/** The flag form `DAYS HH:MM-HH:MM [ZONE]` (see WINDOW_FORM); day names in any case, 3 letters or in full; zone default UTC. */
export function parseWindow(text: string): MaintenanceWindow {
  const fail = (problem: string): never => {
    throw new UsageError(`bad maintenance window "${text}": ${problem}; expected ${WINDOW_FORM}`);
  };
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2 || parts.length > 3) fail('wrong number of parts');
  const [daysText, times, timeZone = 'UTC'] = parts as [string, string, string?];
  const days = parseDays(daysText);
  if (typeof days === 'string') return fail(days);
  const [start, end, extra] = times.split('-');
  if (start === undefined || end === undefined || extra !== undefined) return fail(`"${times}" is not HH:MM-HH:MM`);
  const w: MaintenanceWindow = { days, start, end, timeZone };
  const problem = validateWindow(w);
  return problem === undefined ? w : fail(problem);
}

/** The canonical one-line form: `Sat,Sun 02:00-06:00 Europe/Berlin`; parseWindow reads it back. */
export function windowText(w: MaintenanceWindow): string {
  const idx = WEEK_ORDER.map((d, i) => (w.days.includes(d) ? i : -1)).filter((i) => i >= 0);
  let days: string;
  if (idx.length === 7) days = '*';
  else {
    const runs: number[][] = [];
    for (const i of idx) {
      const last = runs.at(-1);
      if (last && last.at(-1) === i - 1) last.push(i);
      else runs.push([i]);
    }
    const name = (i: number) => WEEK_ORDER[i]!;
    days = runs.flatMap((r) => (r.length >= 3 ? [`${name(r[0]!)}-${name(r.at(-1)!)}`] : r.map(name))).join(',');
  }
  return `${days} ${w.start}-${w.end} ${w.timeZone}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `ms`: year, month (1-12), day, hour, minute, second. */
function wallClock(ms: number, zone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return { y: p.year!, mo: p.month!, d: p.day!, h: p.hour!, mi: p.minute!, s: p.second! };
}

/** The zone's offset from UTC at `ms`, in milliseconds. */
function offsetAt(ms: number, zone: string): number {
  const c = wallClock(ms, zone);
  return Date.UTC(c.y, c.mo - 1, c.d, c.h, c.mi, c.s) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant of a wall-clock time in `zone` (`wall` is that time as if it were UTC). A time that
 * occurs twice (clocks going back) is its first occurrence; a time skipped (clocks going forward)
 * is moved forward by the gap (02:30 in a 02:00-03:00 gap is 03:30), as Temporal's "compatible".
 */
function instantOf(wall: number, zone: string): number {
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const valid = [wall - before, wall - after].filter((t) => offsetAt(t, zone) === wall - t);
  return valid.length > 0 ? Math.min(...valid) : wall - before;
}

/** "30 s", "45 min", "3 h 12 min", "2 d 4 h" (rounded down, but never below a second). */
export function formatUntil(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const [h, d] = [Math.floor(m / 60), Math.floor(m / 1440)];
  if (d === 0) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** `Sat 02:00` in `zone`. */
export function dayTime(at: Date, zone: string): string {
  const c = wallClock(at.getTime(), zone);
  const day = WEEKDAYS[new Date(Date.UTC(c.y, c.mo - 1, c.d)).getUTCDay()]!;
  return `${day} ${String(c.h).padStart(2, '0')}:${String(c.mi).padStart(2, '0')}`;
}

interface Interval {
  window: MaintenanceWindow;
  opens: number;
  closes: number;
}

/** The window's openings from the day before `now` (in its zone) to HORIZON_DAYS after. */
function intervals(w: MaintenanceWindow, now: number): Interval[] {
  const start = minutesOf(w.start, false);
  const end = minutesOf(w.end, true);
  if (start === undefined || end === undefined || !isTimeZone(w.timeZone)) return [];
  const today = wallClock(now, w.timeZone);
  const out: Interval[] = [];
  for (let k = -1; k <= HORIZON_DAYS; k++) {
    const midnight = Date.UTC(today.y, today.mo - 1, today.d + k);
    if (!w.days.includes(WEEKDAYS[new Date(midnight).getUTCDay()]!)) continue;
    const endWall = midnight + (end <= start ? DAY_MS : 0) + end * 60_000;
    out.push({ window: w, opens: instantOf(midnight + start * 60_000, w.timeZone), closes: instantOf(endWall, w.timeZone) });
  }
  return out;
}

export type WindowVerdict = { open: true; closesAt?: Date; text: string } | { open: false; opensAt: Date; text: string };

/**
 * Whether `now` is in one of the windows (none: any time). A window whose end is at or before its
 * start crosses midnight and belongs to the day it starts on. When open, `closesAt` is when no
 * window is open any more (windows that meet or overlap are one stretch), left out when that is
 * beyond 8 days; when closed, `opensAt` is the earliest opening. Each window is looked at on 10
 * days only, so this is cheap to call every minute.
 */
export function windowVerdict(windows: readonly MaintenanceWindow[], now: Date): WindowVerdict {
  if (windows.length === 0) return { open: true, text: 'no maintenance window: any time' };
  const t = now.getTime();
  const all = windows.flatMap((w) => intervals(w, t)).sort((a, b) => a.opens - b.opens);
  const current = all.find((i) => i.opens <= t && t < i.closes);
  if (current) {
    let closes = current.closes;
    for (const i of all) if (i.opens <= closes && i.closes > closes) closes = i.closes;
    const horizon = t + HORIZON_DAYS * DAY_MS - DAY_MS;
    const name = `in the window ${windowText(current.window)}`;
    if (closes > horizon) return { open: true, text: name };
    return { open: true, closesAt: new Date(closes), text: `${name} (closes in ${formatUntil(closes - t)})` };
  }
  const next = all.find((i) => i.opens > t);
  if (!next) {
    return {
      open: false,
      opensAt: new Date(t + HORIZON_DAYS * DAY_MS),
      text: `waiting for the window: none opens within ${HORIZON_DAYS} days`,
    };
  }
  const zone = next.window.timeZone;
  const when = `${dayTime(new Date(next.opens), zone)} ${zone}`;
  return { open: false, opensAt: new Date(next.opens), text: `waiting for the window: opens ${when} (in ${formatUntil(next.opens - t)})` };
}
