/**
 * A disruption budget, as Karpenter's NodePool budgets: how many nodes may be unavailable at once
 * (a count, or a percentage of the nodes counted), with sizes that apply on a cron schedule for a
 * duration. Pure: the schedules are evaluated with croner, no I/O.
 *
 * Percentages are rounded UP, as Karpenter does (`allowed_disruptions = roundup(total * percentage)
 * - total_deleting - total_notready`, Karpenter's disruption docs, NodePool Disruption Budgets;
 * `intstr.GetScaledValueFromIntOrPercent(…, numNodes, true)` in its `Budget.GetAllowedDisruptions`):
 * 10% of 12 nodes allows 2, 20% of 19 allows 4; a percentage above 0 of at least one node allows one.
 */
import { Cron } from 'croner';
import { formatDuration } from '../../duration.js';
import { UsageError } from '../../errors.js';
import type { BudgetSize, DisruptionBudget } from './types.js';
import { dayTime, isTimeZone } from './windows.js';

export type BudgetSchedule = DisruptionBudget['schedules'][number];

const SIZE_FORM = 'a node count such as 3, or a percentage such as 20%';
export const SCHEDULE_FORM =
  'SIZE at CRON for DURATION [in ZONE], e.g. "0 at 0 9 * * mon-fri for 8h in Europe/Berlin", "50% at @daily for 30m"';

/** `3` or `20%` (0 allowed, a percentage at most 100%). */
export function parseBudgetSize(text: string): BudgetSize {
  const t = text.trim();
  const m = /^(\d+)(%?)$/.exec(t);
  if (!m) throw new UsageError(`bad budget size "${text}": expected ${SIZE_FORM}`);
  const n = Number(m[1]);
  if (m[2] === '') return { nodes: n };
  if (n > 100) throw new UsageError(`bad budget size "${text}": a percentage is at most 100%`);
  return { percent: n };
}

/** `30s`, `10m`, `8h`, `1h30m`, `2d`: milliseconds, or undefined when not a duration above 0. */
export function parseSpan(text: string): number | undefined {
  const unit: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const parts = [...text.matchAll(/(\d+)([smhd])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]!]!, 0);
  return ms > 0 ? ms : undefined;
}

const crons = new Map<string, Cron>();

/** The schedule's cron in its zone (5 fields, or a macro such as @daily; day-of-month OR day-of-week as in cron). */
function cronOf(cron: string, timeZone: string): Cron {
  const key = `${timeZone} ${cron}`;
  let c = crons.get(key);
  if (!c) {
    c = new Cron(cron, { timezone: timeZone, mode: '5-part' });
    crons.set(key, c);
  }
  return c;
}

/** What is wrong with a cron expression, in one line, or undefined. */
export function cronProblem(cron: string): string | undefined {
  const fields = cron.trim().split(/\s+/);
  if (!cron.trim().startsWith('@') && fields.length !== 5)
    return `cron "${cron}" has ${fields.length} field${fields.length === 1 ? '' : 's'}, expected 5 (minute hour day-of-month month day-of-week) or a macro such as @daily`;
  try {
    cronOf(cron, 'UTC');
    return undefined;
  } catch (e) {
    return `invalid cron "${cron}": ${(e as Error).message.replace(/^\w+: /, '')}`;
  }
}

/** The problem with a budget (as read from YAML) in one line, or undefined when it is sound. */
export function validateBudget(b: DisruptionBudget): string | undefined {
  if (b.of !== 'cluster' && b.of !== 'selected') return `budget counts nodes of "${String(b.of)}": expected cluster or selected`;
  const sizeProblem = (s: BudgetSize) =>
    [s.nodes, s.percent].some((n) => n !== undefined && (!Number.isInteger(n) || n < 0)) || (s.percent ?? 0) > 100
      ? `bad size "${sizeText(s)}": expected ${SIZE_FORM} (0% to 100%)`
      : undefined;
  for (const s of b.schedules) {
    const problem =
      sizeProblem(s.size) ??
      cronProblem(s.cron) ??
      (s.durationMs > 0 ? undefined : `schedule "${s.cron}": the duration must be longer than 0`) ??
      (isTimeZone(s.timeZone) ? undefined : `unknown time zone "${s.timeZone}" (an IANA name such as UTC or Europe/Berlin)`);
    if (problem) return problem;
  }
  return sizeProblem(b);
}

/**
 * The flag form of a scheduled size: `SIZE at CRON for DURATION [in ZONE]` — while the schedule is
 * active, SIZE nodes (or percent) may be unavailable instead of the budget's own size. CRON is five
 * fields (minute hour day-of-month month day-of-week, names like mon-fri allowed) or a macro such
 * as @daily; DURATION is like 30s, 10m, 8h, 1h30m or 2d; ZONE an IANA zone, default UTC.
 * Examples: `0 at 0 9 * * mon-fri for 8h` (no disruption in office hours),
 * `50% at 0 22 * * sat,sun for 6h in Europe/Berlin`, `1 at @daily for 10m`.
 */
export function parseBudgetSchedule(text: string): BudgetSchedule {
  const fail = (problem: string): never => {
    throw new UsageError(`bad budget schedule "${text}": ${problem}; expected ${SCHEDULE_FORM}`);
  };
  const m = /^(\S+)\s+at\s+(.+?)\s+for\s+(\S+)(?:\s+in\s+(\S+))?$/.exec(text.trim());
  if (!m) return fail('not of the form');
  const [sizeText, cron, durationText, timeZone] = [m[1]!, m[2]!, m[3]!, m[4] ?? 'UTC'];
  let size: BudgetSize;
  try {
    size = parseBudgetSize(sizeText);
  } catch (e) {
    return fail((e as Error).message.replace(/^bad budget size /, 'size '));
  }
  const durationMs = parseSpan(durationText);
  if (durationMs === undefined) return fail(`"${durationText}" is not a duration above 0 (e.g. 30s, 10m, 8h, 1h30m)`);
  if (!isTimeZone(timeZone)) return fail(`unknown time zone "${timeZone}"`);
  const problem = cronProblem(cron);
  if (problem) return fail(problem);
  return { cron, durationMs, timeZone, size };
}

/** The flag form back: `0 at 0 9 * * mon-fri for 8h in UTC`. */
export function scheduleText(s: BudgetSchedule): string {
  return `${sizeText(s.size)} at ${s.cron} for ${formatDuration(s.durationMs, 'span')} in ${s.timeZone}`;
}

/** `3`, `20%`, or `unlimited`. */
function sizeText(s: BudgetSize): string {
  const parts = [s.nodes === undefined ? [] : [String(s.nodes)], s.percent === undefined ? [] : [`${s.percent}%`]].flat();
  return parts.length ? parts.join(' and ') : 'unlimited';
}

const plural = (n: number) => `${n} node${n === 1 ? '' : 's'}`;

/** How many nodes a size allows of `total` counted: percentages rounded up (Karpenter); no limit: Infinity. */
export function sizeNodes(size: BudgetSize, total: number): number {
  const byPercent = size.percent === undefined ? Number.POSITIVE_INFINITY : Math.ceil((total * size.percent) / 100);
  return Math.min(size.nodes ?? Number.POSITIVE_INFINITY, byPercent);
}

/** When an active schedule stops being active (later triggers that come while it is active extend it), if within a week. */
function activeUntil(s: BudgetSchedule, now: Date): Date | undefined {
  const c = cronOf(s.cron, s.timeZone);
  let until = (c.previousRuns(1, new Date(now.getTime() + 1))[0]?.getTime() ?? now.getTime()) + s.durationMs;
  const horizon = now.getTime() + 7 * 86_400_000;
  for (let i = 0; i < 500 && until <= horizon; i++) {
    const next = c.nextRun(new Date(until - s.durationMs))?.getTime();
    if (next === undefined || next > until) return new Date(until);
    until = next + s.durationMs;
  }
  return undefined;
}

/** Whether a schedule is active: its latest trigger at or before `now` is less than its duration ago (as Karpenter's Budget.IsActive). */
export function scheduleActive(s: BudgetSchedule, now: Date): boolean {
  const next = cronOf(s.cron, s.timeZone).nextRun(new Date(now.getTime() - s.durationMs));
  return next !== null && next.getTime() <= now.getTime();
}

/**
 * The size in force at `now`: the smallest (in nodes, of `total` counted) of the active schedules'
 * sizes, which apply instead of the budget's own; none active: the budget's own size (neither a
 * count nor a percentage: unlimited). `schedule` describes the schedule in force, with when it ends.
 */
export function activeSize(budget: DisruptionBudget, now: Date, total: number): { size: BudgetSize; schedule?: string; until?: Date } {
  const active = budget.schedules.filter((s) => scheduleActive(s, now));
  if (active.length === 0) {
    const { nodes, percent } = budget;
    return { size: { ...(nodes === undefined ? {} : { nodes }), ...(percent === undefined ? {} : { percent }) } };
  }
  const s = active.reduce((a, b) => (sizeNodes(b.size, total) < sizeNodes(a.size, total) ? b : a));
  const until = activeUntil(s, now);
  let when = '';
  if (until) {
    const [at, today] = [dayTime(until, s.timeZone), dayTime(now, s.timeZone)];
    when = `, active until ${at.slice(0, 3) === today.slice(0, 3) ? at.slice(4) : at} ${s.timeZone}`;
  }
  return { size: s.size, schedule: `schedule "${s.cron}" for ${formatDuration(s.durationMs, 'span')}${when}`, until };
}

export interface BudgetInput {
  budget: DisruptionBudget;
  now: Date;
  nodes: { name: string; unschedulable: boolean; ready: boolean }[];
  /** The rollout's nodes (counted alone when the budget is `of: 'selected'`). */
  selected: ReadonlySet<string>;
  /** How many more nodes the rollout is about to take. */
  taking: number;
}

export interface BudgetVerdict {
  ok: boolean;
  /** Nodes that may be unavailable at once (Infinity: no limit). */
  allowed: number;
  /** Counted nodes cordoned or NotReady, for whatever reason. */
  unavailable: string[];
  text: string;
}

/**
 * Whether taking `taking` more nodes keeps within the budget: unavailable nodes (cordoned or
 * NotReady, by anyone) among those counted (the whole cluster, or the selected nodes) plus
 * `taking` at most the size in force (a percentage of the counted nodes, rounded up).
 * Text like `disruption budget: 1 node of 1 allowed unavailable is taken (node-b NotReady); waiting`.
 */
export function budgetVerdict(input: BudgetInput): BudgetVerdict {
  const { budget, now, taking } = input;
  const counted = budget.of === 'cluster' ? input.nodes : input.nodes.filter((n) => input.selected.has(n.name));
  const down = counted.filter((n) => n.unschedulable || !n.ready);
  const unavailable = down.map((n) => n.name);
  const { size, schedule } = activeSize(budget, now, counted.length);
  const allowed = sizeNodes(size, counted.length);
  const ok = unavailable.length + taking <= allowed;
  const why = (n: (typeof down)[number]) =>
    `${n.name} ${[n.unschedulable ? 'cordoned' : '', n.ready ? '' : 'NotReady'].filter(Boolean).join(' and ')}`;
  const names = down.length ? ` (${down.slice(0, 5).map(why).join(', ')}${down.length > 5 ? `, ${down.length - 5} more` : ''})` : '';
  const of = size.percent === undefined ? '' : `${size.percent}% of ${plural(counted.length)}`;
  const basis = [of, schedule].filter(Boolean).join(', ');
  const used = `${plural(unavailable.length)} of ${allowed === Number.POSITIVE_INFINITY ? 'unlimited' : allowed} allowed unavailable ${unavailable.length === 1 ? 'is' : 'are'} taken${names}`;
  const head =
    allowed === 0
      ? `disruption budget 0 nodes${basis ? ` (${basis})` : ''}`
      : `disruption budget: ${used}${basis ? ` — budget ${basis}` : ''}`;
  const free = Math.max(0, allowed - unavailable.length);
  const tail = ok
    ? `; ${free === Number.POSITIVE_INFINITY ? 'any number' : free} more may be taken`
    : free > 0
      ? `; taking ${taking} would exceed it; waiting`
      : '; waiting';
  return { ok, allowed, unavailable, text: head + tail };
}

/** How many more nodes may be taken now (≥ 0; Infinity when the budget sets no limit): caps a batch. */
export function maxTakeNow(input: Omit<BudgetInput, 'taking'>): number {
  const v = budgetVerdict({ ...input, taking: 0 });
  return Math.max(0, v.allowed - v.unavailable.length);
}

/** One line for the plan: `at most 1 node unavailable in the cluster; 0 at 0 9 * * mon-fri for 8h in UTC`. */
export function budgetText(budget: DisruptionBudget): string {
  const of = budget.of === 'cluster' ? 'in the cluster' : "among the rollout's nodes";
  const n = sizeText(budget);
  const base =
    n === 'unlimited' ? `no limit on unavailable nodes ${of}` : `at most ${/^\d+$/.test(n) ? plural(Number(n)) : n} unavailable ${of}`;
  return [base, ...budget.schedules.map(scheduleText)].join('; ');
}
