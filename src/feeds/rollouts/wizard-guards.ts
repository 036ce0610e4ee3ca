/**
 * The guard rails of the new-rollout wizard's options page: the form as typed turned into the
 * spec's guard rails by the same code as `rollout create`'s flags (guardsFromFlags, combineGuards),
 * or what is wrong with each field; and the options page's choices and toggles. Pure.
 */
import { parseDuration } from '../../duration.js';
import { combineGuards, type GuardFlags, guardsFromFlags } from '../../rollout/guards/spec-flags.js';
import type { DrainTimeoutPolicy, RolloutGuards } from '../../rollout/guards/types.js';
import {
  FIRST_GUARD_ROW,
  type GuardField,
  type GuardForm,
  type NewRolloutState,
  OPTION_ROWS,
  type OptionRow,
} from '../../store/rollout-wizard.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
/**
 * A flag's error as the line under its field: without the flag's name or the text quoted in
 * front (`--notify-url: `, `bad maintenance window "…": `), nor the form (the page shows it).
 */
const withoutFlag = (text: string) =>
  text
    .replace(/^--[a-z-]+: /, '')
    .replace(/^bad [a-z ]+ "[^"]*": /, '')
    .replace(/; expected .*$/, '');
/** `a; b` into its parts. */
const parts = (text: string) =>
  text
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean);

/** A duration typed (`10m`, `1h30m`, `90s`), or what is wrong with it. */
function durationOf(text: string): number | string {
  const ms = parseDuration(text);
  if (ms === undefined) return `"${text}" is not a duration (e.g. 90s, 15m, 1h30m)`;
  return ms > 0 ? ms : 'give a duration longer than 0, or leave it empty';
}

/** Each field's flag, as `rollout create` has it (only those filled in). */
function flagsOf(form: GuardForm): { flags: Record<GuardField, GuardFlags>; errors: Partial<Record<GuardField, string>> } {
  const errors: Partial<Record<GuardField, string>> = {};
  const t = (v: string) => v.trim();
  const duration = (field: GuardField, text: string, flag: (ms: number) => GuardFlags): GuardFlags => {
    if (!t(text)) return {};
    const ms = durationOf(t(text));
    if (typeof ms === 'string') {
      errors[field] = ms;
      return {};
    }
    return flag(ms);
  };
  const url = t(form.alertsUrl);
  const flags: Record<GuardField, GuardFlags> = {
    windows: parts(form.windows).length ? { window: parts(form.windows) } : {},
    budget: t(form.budget) ? { budget: t(form.budget) } : {},
    alertsApi: {},
    alertsUrl: url ? (form.alertsApi === 'prometheus' ? { prometheusUrl: url } : { alertmanagerUrl: url }) : {},
    blockingPods: parts(form.blockingPods).length ? { blockingPodSelector: parts(form.blockingPods) } : {},
    soak: duration('soak', form.soak, (soak) => ({ soak })),
    nodeDeadline: duration('nodeDeadline', form.nodeDeadline, (nodeDeadline) => ({ nodeDeadline })),
    rolloutDeadline: duration('rolloutDeadline', form.rolloutDeadline, (deadline) => ({ deadline })),
    onDrainTimeout: form.onDrainTimeout === 'pause' ? {} : { onDrainTimeout: form.onDrainTimeout },
    taint: form.taint ? { preferNoScheduleTaint: true } : {},
    webhook: t(form.webhook) ? { notifyUrl: t(form.webhook) } : {},
  };
  return { flags, errors };
}

/** The spec's guard rails from the form, or what is wrong with each field that does not parse (`problem`: with them together). */
export function guardsOfForm(
  form: GuardForm,
): { guards: RolloutGuards } | { errors: Partial<Record<GuardField, string>>; problem?: string } {
  const { flags, errors } = flagsOf(form);
  // Each field alone first, so that its error is shown under it.
  for (const [field, f] of Object.entries(flags) as [GuardField, GuardFlags][]) {
    if (errors[field]) continue;
    try {
      guardsFromFlags(f);
    } catch (err) {
      errors[field] = withoutFlag(message(err));
    }
  }
  if (Object.keys(errors).length) return { errors };
  try {
    return { guards: combineGuards(undefined, guardsFromFlags(Object.assign({}, ...Object.values(flags)) as GuardFlags)) };
  } catch (err) {
    return { errors: {}, problem: withoutFlag(message(err)) };
  }
}

const POLICIES: readonly DrainTimeoutPolicy[] = ['pause', 'skip', 'force'];

/** ←/→ or space on a guard rail's choice or toggle (text rows take typed keys instead). */
export function guardOption(state: NewRolloutState, row: OptionRow, delta: 1 | -1): NewRolloutState {
  const form = state.guardForm;
  switch (row.id) {
    case 'alertsApi':
      return { ...state, guardForm: { ...form, alertsApi: form.alertsApi === 'prometheus' ? 'alertmanager' : 'prometheus' } };
    case 'onDrainTimeout': {
      const i = POLICIES.indexOf(form.onDrainTimeout);
      return { ...state, guardForm: { ...form, onDrainTimeout: POLICIES[(i + delta + POLICIES.length) % POLICIES.length]! } };
    }
    case 'taint':
      return { ...state, guardForm: { ...form, taint: !form.taint } };
    default:
      return state;
  }
}

/** A guard rail's text as typed: its error goes until it is checked again. */
export function guardText(state: NewRolloutState, field: GuardField, text: string): NewRolloutState {
  if (state.guardForm[field] === text) return state;
  const { [field]: _fixed, ...errors } = state.guardErrors;
  return { ...state, guardForm: { ...state.guardForm, [field]: text }, guardErrors: errors };
}

/**
 * Leaving the options page: the guard rails checked; when one is wrong the page stays, its
 * error under it and the focus on the first wrong one; else `next` (the plan) with them.
 */
export function leaveOptions(
  state: NewRolloutState,
  submitted: { field?: GuardField; text?: string },
  next: (s: NewRolloutState) => NewRolloutState,
): NewRolloutState {
  const s = submitted.field !== undefined ? guardText(state, submitted.field, submitted.text ?? '') : state;
  const result = guardsOfForm(s.guardForm);
  if ('errors' in result) {
    if (result.problem) return { ...s, guardErrors: result.errors, error: result.problem };
    const first = OPTION_ROWS.findIndex((r, i) => i >= FIRST_GUARD_ROW && result.errors[r.id as GuardField] !== undefined);
    return { ...s, guardErrors: result.errors, focus: Math.max(FIRST_GUARD_ROW, first), editing: false };
  }
  return next({ ...s, guardErrors: {}, guards: result.guards });
}
