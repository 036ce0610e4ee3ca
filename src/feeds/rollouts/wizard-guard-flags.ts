/**
 * The options page's guard rails as `rollout create`'s flags (GuardFlags): what each field adds
 * to the spec's flags, what it is checked with alone (each part of a list on its own, so that the
 * error can name it), and the fields that mean nothing without another. Pure.
 */
import { parseDuration } from '../../duration.js';
import type { GuardFlags } from '../../rollout/guards/spec-flags.js';
import type { GuardField, GuardForm } from '../../store/rollout-wizard.js';

export interface FieldFlags {
  /** What the field adds to the spec's flags. */
  flags: GuardFlags;
  /** What it is checked with alone, in turn (default: its flags); `part`: the part of a list at fault. */
  checks?: { flags: GuardFlags; part?: string }[];
}

/**
 * An alert filter is checked against a URL that is sound, so that its error is its own (the URL
 * typed is checked in its own field); it never leaves the form.
 */
const SOUND_ALERTS_URL = 'http://alerts.invalid';

/** `a; b` (or `a,b`) into its parts. */
export const parts = (text: string, separator = ';') =>
  text
    .split(separator)
    .map((p) => p.trim())
    .filter(Boolean);

/** A duration typed (`10m`, `1h30m`, `90s`), or what is wrong with it. */
function durationOf(text: string): number | string {
  const ms = parseDuration(text);
  if (ms === undefined) return `"${text}" is not a duration (e.g. 90s, 15m, 1h30m)`;
  return ms > 0 ? ms : 'give a duration longer than 0, or leave it empty';
}

/** A list's flag, each part checked alone. */
function listOf(list: string[], flag: (parts: string[]) => GuardFlags): FieldFlags {
  if (!list.length) return { flags: {} };
  return { flags: flag(list), checks: list.map((p) => ({ flags: flag([p]), part: p })) };
}

/**
 * What a field needs to mean anything, when it is set without it: the words under it. (The
 * command line refuses these too; the page says which field to fill in instead of which flag.)
 */
export function missingOf(form: GuardForm): Partial<Record<GuardField, string>> {
  const out: Partial<Record<GuardField, string>> = {};
  const alerts = form.alertsUrl.trim() !== '';
  if (!alerts && form.alertIgnore.trim()) out.alertIgnore = 'needs an Alerts URL (above), or leave it empty';
  if (!alerts && form.alertMatch.trim()) out.alertMatch = 'needs an Alerts URL (above), or leave it empty';
  if (!alerts && form.alertPending) out.alertPending = 'needs an Alerts URL (above), or turn it off';
  if (form.budgetOf === 'selected' && !form.budget.trim() && !parts(form.budgetSchedules).length)
    out.budgetOf = 'needs a disruption budget or a schedule (above), or count the cluster';
  if (form.notifyFormat === 'json' && !form.webhook.trim()) out.notifyFormat = 'needs a Webhook URL (above), or keep slack';
  return out;
}

/** Each field's flags, as `rollout create` has them (only those filled in), or what is wrong with a duration. */
export function flagsOf(form: GuardForm): { fields: Record<GuardField, FieldFlags>; errors: Partial<Record<GuardField, string>> } {
  const errors: Partial<Record<GuardField, string>> = {};
  const t = (v: string) => v.trim();
  const duration = (field: GuardField, flag: (ms: number) => GuardFlags): FieldFlags => {
    const text = t(form[field] as string);
    if (!text) return { flags: {} };
    const ms = durationOf(text);
    if (typeof ms === 'string') {
      errors[field] = ms;
      return { flags: {} };
    }
    return { flags: flag(ms) };
  };
  const url = t(form.alertsUrl);
  const alertFilter = (flags: GuardFlags): FieldFlags =>
    url ? { flags, checks: [{ flags: { ...flags, prometheusUrl: SOUND_ALERTS_URL } }] } : { flags: {}, checks: [] };
  const webhook = t(form.webhook);
  const fields: Record<GuardField, FieldFlags> = {
    windows: { flags: parts(form.windows).length ? { window: parts(form.windows) } : {} },
    budget: { flags: t(form.budget) ? { budget: t(form.budget) } : {} },
    budgetSchedules: listOf(parts(form.budgetSchedules), (budgetSchedule) => ({ budgetSchedule })),
    budgetOf: { flags: form.budgetOf === 'cluster' ? {} : { budgetOf: form.budgetOf } },
    alertsApi: { flags: {} },
    alertsUrl: { flags: url ? (form.alertsApi === 'prometheus' ? { prometheusUrl: url } : { alertmanagerUrl: url }) : {} },
    alertIgnore: t(form.alertIgnore) ? alertFilter({ alertIgnore: t(form.alertIgnore) }) : { flags: {} },
    alertMatch: t(form.alertMatch) ? alertFilter({ alertMatch: t(form.alertMatch) }) : { flags: {} },
    alertPending: form.alertPending ? { ...alertFilter({ alertPending: true }), checks: [] } : { flags: {} },
    blockingPods: { flags: parts(form.blockingPods).length ? { blockingPodSelector: parts(form.blockingPods) } : {} },
    recheck: duration('recheck', (recheck) => ({ recheck })),
    soak: duration('soak', (soak) => ({ soak })),
    prioritySoak: duration('prioritySoak', (prioritySoak) => ({ prioritySoak })),
    nodeDeadline: duration('nodeDeadline', (nodeDeadline) => ({ nodeDeadline })),
    rolloutDeadline: duration('rolloutDeadline', (deadline) => ({ deadline })),
    onDrainTimeout: { flags: form.onDrainTimeout === 'pause' ? {} : { onDrainTimeout: form.onDrainTimeout } },
    taint: { flags: form.taint ? { preferNoScheduleTaint: true } : {} },
    labelsBefore: listOf(parts(form.labelsBefore, ','), (labelBefore) => ({ labelBefore })),
    labelsAfter: listOf(parts(form.labelsAfter, ','), (labelAfter) => ({ labelAfter })),
    concurrent: { flags: form.concurrent ? { concurrent: true } : {} },
    webhook: { flags: webhook ? { notifyUrl: webhook } : {} },
    notifyFormat: { flags: webhook && form.notifyFormat !== 'slack' ? { notifyFormat: form.notifyFormat } : {}, checks: [] },
  };
  return { fields, errors };
}
