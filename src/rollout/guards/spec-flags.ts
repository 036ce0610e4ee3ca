/**
 * The guard rails of `rollout create`'s flags, and the spec's guard rails from the file's and
 * the flags' (a flag wins over the file's field; a repeatable flag given replaces the file's list).
 */
import { UsageError } from '../../errors.js';
import { parseSelector } from '../../kube/api/selector.js';
import { validateAlertGate } from './alerts.js';
import { budgetFromParts, parseScheduleFlag } from './budget-spec.js';
import { validateNotifications } from './notify.js';
import type { GuardsInput } from './spec-file.js';
import { labelProblem } from './labels.js';
import { MIN_RECHECK_MS, NO_GUARDS, NOTIFY_EVENTS, type NotifyEvent, type RolloutGuards } from './types.js';
import { parseWindow } from './windows.js';

/** The flags as commander gives them (durations in ms, repeatable ones as lists). */
export interface GuardFlags {
  window?: string[];
  budget?: string;
  budgetOf?: string;
  budgetSchedule?: string[];
  prometheusUrl?: string;
  alertmanagerUrl?: string;
  alertIgnore?: string;
  alertMatch?: string;
  alertPending?: boolean;
  blockingPodSelector?: string[];
  recheck?: number;
  soak?: number;
  prioritySoak?: number;
  nodeDeadline?: number;
  deadline?: number;
  onDrainTimeout?: string;
  preferNoScheduleTaint?: boolean;
  labelBefore?: string[];
  labelAfter?: string[];
  concurrent?: boolean;
  notifyUrl?: string;
  notifyFormat?: string;
  notifyTemplate?: string[];
}

/** `k=v` pairs into labels, each checked as Kubernetes checks a label. */
export function labelsOf(pairs: readonly string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    const [k, v] = i < 0 ? [p, ''] : [p.slice(0, i), p.slice(i + 1)];
    const problem = i < 0 ? 'give KEY=VALUE (e.g. maintenance=true)' : labelProblem(k, v);
    if (problem) throw new UsageError(`${flag} ${p}: ${problem}`);
    out[k] = v;
  }
  return out;
}

function alertsOf(f: GuardFlags): RolloutGuards['alerts'] {
  if (f.prometheusUrl && f.alertmanagerUrl) throw new UsageError('give --prometheus-url or --alertmanager-url, not both');
  const url = f.prometheusUrl ?? f.alertmanagerUrl;
  if (!url) {
    if (f.alertIgnore || f.alertMatch || f.alertPending)
      throw new UsageError('--alert-ignore, --alert-match and --alert-pending need --prometheus-url or --alertmanager-url');
    return undefined;
  }
  const gate = {
    url,
    api: f.prometheusUrl ? ('prometheus' as const) : ('alertmanager' as const),
    ...(f.alertIgnore ? { ignore: f.alertIgnore } : {}),
    ...(f.alertMatch ? { match: f.alertMatch } : {}),
    firingOnly: f.alertPending !== true,
  };
  const problem = validateAlertGate(gate)?.replace(/^alerts: /, '');
  if (problem) {
    const flag = problem.startsWith('match ')
      ? '--alert-match'
      : problem.startsWith('ignore ')
        ? '--alert-ignore'
        : f.prometheusUrl
          ? '--prometheus-url'
          : '--alertmanager-url';
    throw new UsageError(`${flag}: ${problem}`);
  }
  return gate;
}

function notifyOf(f: GuardFlags): RolloutGuards['notify'] {
  if (!f.notifyUrl) {
    if (f.notifyFormat || f.notifyTemplate?.length) throw new UsageError('--notify-format and --notify-template need --notify-url');
    return undefined;
  }
  const templates: Partial<Record<NotifyEvent, string>> = {};
  for (const t of f.notifyTemplate ?? []) {
    const i = t.indexOf('=');
    const event = t.slice(0, Math.max(0, i)) as NotifyEvent;
    if (i < 0 || !NOTIFY_EVENTS.includes(event))
      throw new UsageError(`--notify-template ${t}: give EVENT=TEXT, EVENT one of ${NOTIFY_EVENTS.join(', ')}`);
    templates[event] = t.slice(i + 1);
  }
  const format = f.notifyFormat ?? 'slack';
  if (format !== 'slack' && format !== 'json') throw new UsageError(`--notify-format ${format}: use slack or json`);
  const notify = { url: f.notifyUrl, format: format as 'slack' | 'json', templates };
  const problem = validateNotifications(notify)?.replace(/^notify: /, '');
  if (problem) throw new UsageError(`${problem.startsWith('template') ? '--notify-template' : '--notify-url'}: ${problem}`);
  return notify;
}

/** The guard rails the flags set (only those given). */
export function guardsFromFlags(f: GuardFlags): GuardsInput {
  const out: GuardsInput = {};
  if (f.window?.length) out.windows = f.window.map((w) => parseWindow(w));
  if (f.budget !== undefined || f.budgetSchedule?.length || f.budgetOf !== undefined) {
    const of = f.budgetOf ?? 'cluster';
    if (of !== 'cluster' && of !== 'selected') throw new UsageError(`--budget-of ${of}: use cluster or selected`);
    out.budget = budgetFromParts(f.budget, of, (f.budgetSchedule ?? []).map(parseScheduleFlag));
  }
  const alerts = alertsOf(f);
  if (alerts) out.alerts = alerts;
  if (f.blockingPodSelector?.length) {
    for (const s of f.blockingPodSelector) parseSelector(s);
    out.blockingPods = [...f.blockingPodSelector];
  }
  if (f.recheck !== undefined) out.recheckMs = f.recheck;
  if (f.soak !== undefined) out.soakMs = f.soak;
  if (f.prioritySoak !== undefined) out.prioritySoakMs = f.prioritySoak;
  if (f.nodeDeadline !== undefined) out.nodeDeadlineMs = f.nodeDeadline;
  if (f.deadline !== undefined) out.rolloutDeadlineMs = f.deadline;
  if (f.onDrainTimeout !== undefined) {
    if (!['pause', 'skip', 'force'].includes(f.onDrainTimeout))
      throw new UsageError(`--on-drain-timeout ${f.onDrainTimeout}: use pause, skip or force`);
    out.onDrainTimeout = f.onDrainTimeout as RolloutGuards['onDrainTimeout'];
  }
  if (f.preferNoScheduleTaint) out.preferNoScheduleTaint = true;
  if (f.labelBefore?.length) out.labelsBefore = labelsOf(f.labelBefore, '--label-before');
  if (f.labelAfter?.length) out.labelsAfter = labelsOf(f.labelAfter, '--label-after');
  if (f.concurrent) out.concurrent = true;
  const notify = notifyOf(f);
  if (notify) out.notify = notify;
  return out;
}

/** The spec's guard rails: the defaults, then the file's, then the flags'. */
export function combineGuards(file: GuardsInput | undefined, flags: GuardsInput): RolloutGuards {
  const g: RolloutGuards = { ...NO_GUARDS, ...file, ...flags };
  if (g.recheckMs < MIN_RECHECK_MS) throw new UsageError('--recheck must be at least 1s');
  return g;
}
