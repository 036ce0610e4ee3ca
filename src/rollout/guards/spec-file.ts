/**
 * The guard rails of a NodeRollout file, `spec.guardRails` (a fleetdeck addition to Navarchos'
 * spec; a Navarchos controller does not read it):
 *
 * ```yaml
 * spec:
 *   nodeSelectors: [...]
 *   guardRails:
 *     maintenanceWindows:
 *     - days: [Sat, Sun]           # or "Sat,Sun 02:00-06:00 Europe/Berlin" as one string
 *       start: "02:00"
 *       end: "06:00"
 *       timeZone: Europe/Berlin
 *     disruptionBudget:
 *       nodes: 1                   # or "20%"
 *       of: cluster                # or selected: the rollout's nodes
 *       schedules:
 *       - schedule: "0 9 * * mon-fri"
 *         duration: 8h
 *         timeZone: Europe/Berlin
 *         nodes: 0
 *     gates:
 *       alerts:
 *         prometheusUrl: http://prometheus.monitoring:9090   # or alertmanagerUrl
 *         ignore: "^(Watchdog|InfoInhibitor)$"
 *         firingOnly: true
 *       blockingPodSelectors: ["app=backup"]
 *       recheckInterval: 1m
 *     soak: { afterNode: 10m, afterPriority: 30m }
 *     deadlines: { node: 45m, rollout: 6h }
 *     drainTimeout: pause             # skip, or force
 *     preferNoScheduleTaint: true
 *     labels: { before: { maintenance: "true" }, after: { os-image: "2026-11" } }
 *     concurrent: false
 *     notifications:
 *       webhookUrl: https://hooks.slack.com/services/...
 *       format: slack
 *       templates: { blocked: "{{rollout}} held: {{reason}}" }
 * ```
 */
import { parseDuration } from '../../duration.js';
import { parseSelector } from '../../kube/api/selector.js';
import { validateAlertGate } from './alerts.js';
import { budgetFromParts } from './budget-spec.js';
import { validateNotifications } from './notify.js';
import { labelProblem } from './labels.js';
import { MIN_RECHECK_MS, NOTIFY_EVENTS, type NotifyEvent, type RolloutGuards } from './types.js';
import { parseWindow, validateWindow } from './windows.js';

type Path = (string | number)[];
type Fail = (path: Path, why: string) => never;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The guard rails a file gives (only what it sets). */
export type GuardsInput = Partial<RolloutGuards>;

const BASE: Path = ['spec', 'guardRails'];
const FIELDS = [
  'maintenanceWindows',
  'disruptionBudget',
  'gates',
  'soak',
  'deadlines',
  'drainTimeout',
  'preferNoScheduleTaint',
  'labels',
  'concurrent',
  'notifications',
];

function keysOf(v: unknown, path: Path, allowed: readonly string[], fail: Fail): Record<string, unknown> {
  const where = path.join('.');
  if (!isRecord(v)) return fail(path, `${where} must be a mapping (${allowed.join(', ')})`);
  for (const k of Object.keys(v)) if (!allowed.includes(k)) fail([...path, k], `${where}.${k} is not a field (${allowed.join(', ')})`);
  return v;
}

function durationAt(v: unknown, path: Path, fail: Fail): number {
  const ms = typeof v === 'number' ? v * 1000 : typeof v === 'string' ? parseDuration(v) : undefined;
  if (ms === undefined || ms < 0)
    return fail(path, `${path.join('.')} must be a duration (e.g. 90s, 15m, 1h30m), not ${JSON.stringify(v)}`);
  return ms;
}

function stringAt(v: unknown, path: Path, fail: Fail): string {
  if (typeof v !== 'string' || v === '') return fail(path, `${path.join('.')} must be a non-empty string`);
  return v;
}

function boolAt(v: unknown, path: Path, fail: Fail): boolean {
  if (typeof v !== 'boolean') return fail(path, `${path.join('.')} must be true or false`);
  return v;
}

function labelsAt(v: unknown, path: Path, fail: Fail): Record<string, string> {
  if (!isRecord(v)) return fail(path, `${path.join('.')} must be a mapping of label to value`);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') fail([...path, k], `${path.join('.')}["${k}"] must be a string (quote it: "${String(x)}")`);
    const problem = labelProblem(k, x as string);
    if (problem) fail([...path, k], `${path.join('.')}["${k}"]: ${problem}`);
    out[k] = x as string;
  }
  return out;
}

function windowsAt(v: unknown, path: Path, fail: Fail): RolloutGuards['windows'] {
  if (!Array.isArray(v)) return fail(path, `${path.join('.')} must be a list of windows`);
  return v.map((w, i) => {
    const p = [...path, i];
    const where = p.join('.');
    // Outside the try: its FILE:LINE error is not wrapped in another.
    const o = typeof w === 'string' ? {} : keysOf(w, p, ['days', 'start', 'end', 'timeZone'], fail);
    let window: RolloutGuards['windows'][number];
    try {
      if (typeof w === 'string') return parseWindow(w);
      const days = Array.isArray(o.days) ? o.days.map(String).join(',') : typeof o.days === 'string' ? o.days : '*';
      window = parseWindow(`${days} ${String(o.start ?? '')}-${String(o.end ?? '')} ${String(o.timeZone ?? 'UTC')}`);
    } catch (err) {
      return fail(p, `${where}: ${(err as Error).message}`);
    }
    const problem = validateWindow(window);
    if (problem) fail(p, `${where}: ${problem}`);
    return window;
  });
}

function budgetAt(v: unknown, path: Path, fail: Fail): RolloutGuards['budget'] {
  const o = keysOf(v, path, ['nodes', 'of', 'schedules'], fail);
  const of = o.of ?? 'cluster';
  if (of !== 'cluster' && of !== 'selected') fail([...path, 'of'], `${path.join('.')}.of must be cluster or selected`);
  const schedules = o.schedules ?? [];
  if (!Array.isArray(schedules)) return fail([...path, 'schedules'], `${path.join('.')}.schedules must be a list`);
  const parts = schedules.map((s, i) => {
    const p = [...path, 'schedules', i];
    const x = keysOf(s, p, ['schedule', 'duration', 'timeZone', 'nodes'], fail);
    const part = {
      cron: stringAt(x.schedule, [...p, 'schedule'], fail),
      durationMs: durationAt(x.duration, [...p, 'duration'], fail),
      timeZone: x.timeZone === undefined ? 'UTC' : stringAt(x.timeZone, [...p, 'timeZone'], fail),
      size: String(x.nodes ?? ''),
    };
    // Each schedule checked alone: a bad cron or size is said at its schedule's line.
    try {
      budgetFromParts(undefined, 'cluster', [part]);
    } catch (err) {
      return fail(p, `${p.join('.')}: ${(err as Error).message}`);
    }
    return part;
  });
  try {
    return budgetFromParts(o.nodes === undefined ? undefined : String(o.nodes), of as 'cluster' | 'selected', parts);
  } catch (err) {
    return fail([...path, 'nodes'], `${path.join('.')}: ${(err as Error).message}`);
  }
}

function gatesAt(v: unknown, path: Path, fail: Fail): GuardsInput {
  const o = keysOf(v, path, ['alerts', 'blockingPodSelectors', 'recheckInterval'], fail);
  const out: GuardsInput = {};
  if (o.alerts !== undefined) {
    const p = [...path, 'alerts'];
    const a = keysOf(o.alerts, p, ['prometheusUrl', 'alertmanagerUrl', 'ignore', 'match', 'firingOnly'], fail);
    if ((a.prometheusUrl === undefined) === (a.alertmanagerUrl === undefined))
      fail(p, `${p.join('.')} needs one of prometheusUrl or alertmanagerUrl${a.prometheusUrl === undefined ? '' : ', not both'}`);
    const api = a.prometheusUrl !== undefined ? 'prometheus' : 'alertmanager';
    const urlKey = api === 'prometheus' ? 'prometheusUrl' : 'alertmanagerUrl';
    out.alerts = {
      url: stringAt(a.prometheusUrl ?? a.alertmanagerUrl, [...p, urlKey], fail),
      api,
      ...(a.ignore !== undefined ? { ignore: stringAt(a.ignore, [...p, 'ignore'], fail) } : {}),
      ...(a.match !== undefined ? { match: stringAt(a.match, [...p, 'match'], fail) } : {}),
      firingOnly: a.firingOnly === undefined ? true : boolAt(a.firingOnly, [...p, 'firingOnly'], fail),
    };
    const problem = validateAlertGate(out.alerts);
    if (problem) {
      // At the line of the field it is about (the URL, ignore or match).
      const key = /^alerts: (ignore|match) /.exec(problem)?.[1] ?? (/^alerts: url /.test(problem) ? urlKey : undefined);
      fail(key ? [...p, key] : p, `${p.join('.')}: ${problem.replace(/^alerts: /, '')}`);
    }
  }
  if (o.blockingPodSelectors !== undefined) {
    const p = [...path, 'blockingPodSelectors'];
    if (!Array.isArray(o.blockingPodSelectors)) fail(p, `${p.join('.')} must be a list of label selectors`);
    out.blockingPods = (o.blockingPodSelectors as unknown[]).map((s, i) => {
      const sel = stringAt(s, [...p, i], fail);
      try {
        parseSelector(sel);
      } catch (err) {
        fail([...p, i], `${p.join('.')}[${i}]: ${(err as Error).message}`);
      }
      return sel;
    });
  }
  if (o.recheckInterval !== undefined) {
    out.recheckMs = durationAt(o.recheckInterval, [...path, 'recheckInterval'], fail);
    if (out.recheckMs < MIN_RECHECK_MS) fail([...path, 'recheckInterval'], `${path.join('.')}.recheckInterval must be at least 1s`);
  }
  return out;
}

function notificationsAt(v: unknown, path: Path, fail: Fail): RolloutGuards['notify'] {
  const o = keysOf(v, path, ['webhookUrl', 'format', 'templates'], fail);
  const format = o.format ?? 'slack';
  if (format !== 'slack' && format !== 'json') fail([...path, 'format'], `${path.join('.')}.format must be slack or json`);
  const templates: Partial<Record<NotifyEvent, string>> = {};
  if (o.templates !== undefined) {
    const t = keysOf(o.templates, [...path, 'templates'], NOTIFY_EVENTS, fail);
    for (const [k, x] of Object.entries(t)) templates[k as NotifyEvent] = stringAt(x, [...path, 'templates', k], fail);
  }
  const notify = { url: stringAt(o.webhookUrl, [...path, 'webhookUrl'], fail), format: format as 'slack' | 'json', templates };
  const problem = validateNotifications(notify);
  if (problem) {
    // At the line of the field it is about (the URL or a template).
    const event = /^notify: templates\.(\w+)/.exec(problem)?.[1];
    const at = event ? ['templates', event] : /^notify: url /.test(problem) ? ['webhookUrl'] : [];
    fail([...path, ...at], `${path.join('.')}: ${problem.replace(/^notify: /, '')}`);
  }
  return notify;
}

/** `spec.guardRails` read; FILE:LINE errors through `fail`. */
export function readGuardRails(v: unknown, fail: Fail): GuardsInput {
  const o = keysOf(v, BASE, FIELDS, fail);
  const at = (k: string): Path => [...BASE, k];
  const out: GuardsInput = {};
  if (o.maintenanceWindows !== undefined) out.windows = windowsAt(o.maintenanceWindows, at('maintenanceWindows'), fail);
  if (o.disruptionBudget !== undefined) out.budget = budgetAt(o.disruptionBudget, at('disruptionBudget'), fail);
  if (o.gates !== undefined) Object.assign(out, gatesAt(o.gates, at('gates'), fail));
  if (o.soak !== undefined) {
    if (typeof o.soak === 'string' || typeof o.soak === 'number') out.soakMs = durationAt(o.soak, at('soak'), fail);
    else {
      const s = keysOf(o.soak, at('soak'), ['afterNode', 'afterPriority'], fail);
      if (s.afterNode !== undefined) out.soakMs = durationAt(s.afterNode, [...at('soak'), 'afterNode'], fail);
      if (s.afterPriority !== undefined) out.prioritySoakMs = durationAt(s.afterPriority, [...at('soak'), 'afterPriority'], fail);
    }
  }
  if (o.deadlines !== undefined) {
    const d = keysOf(o.deadlines, at('deadlines'), ['node', 'rollout'], fail);
    if (d.node !== undefined) out.nodeDeadlineMs = durationAt(d.node, [...at('deadlines'), 'node'], fail);
    if (d.rollout !== undefined) out.rolloutDeadlineMs = durationAt(d.rollout, [...at('deadlines'), 'rollout'], fail);
  }
  if (o.drainTimeout !== undefined) {
    if (!['pause', 'skip', 'force'].includes(o.drainTimeout as string))
      fail(at('drainTimeout'), `${at('drainTimeout').join('.')} must be pause, skip or force`);
    out.onDrainTimeout = o.drainTimeout as RolloutGuards['onDrainTimeout'];
  }
  if (o.preferNoScheduleTaint !== undefined) out.preferNoScheduleTaint = boolAt(o.preferNoScheduleTaint, at('preferNoScheduleTaint'), fail);
  if (o.labels !== undefined) {
    const l = keysOf(o.labels, at('labels'), ['before', 'after'], fail);
    if (l.before !== undefined) out.labelsBefore = labelsAt(l.before, [...at('labels'), 'before'], fail);
    if (l.after !== undefined) out.labelsAfter = labelsAt(l.after, [...at('labels'), 'after'], fail);
  }
  if (o.concurrent !== undefined) out.concurrent = boolAt(o.concurrent, at('concurrent'), fail);
  if (o.notifications !== undefined) out.notify = notificationsAt(o.notifications, at('notifications'), fail);
  return out;
}
