/**
 * The guard rails of the new-rollout wizard's options page: the form as typed turned into the
 * spec's guard rails by the same code as `rollout create`'s flags (guardsFromFlags, combineGuards),
 * or what is wrong with each field; and the options page's choices and toggles. Pure.
 */
import { combineGuards, type GuardFlags, guardsFromFlags } from '../../rollout/guards/spec-flags.js';
import type { RolloutGuards } from '../../rollout/guards/types.js';
import {
  FIRST_GUARD_ROW,
  type GuardChoiceField,
  type GuardField,
  type GuardForm,
  type NewRolloutState,
  OPTION_ROWS,
  type OptionRow,
} from '../../store/rollout-wizard.js';
import { type FieldFlags, flagsOf, missingOf } from './wizard-guard-flags.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
/**
 * A flag's error as the line under its field: without the flag's name, nor the part of a list
 * named after it (`--notify-url: `, `--label-before a: `), nor the text quoted in front (`bad
 * maintenance window "…": `), nor the form (the page shows it) unless the text is not of it.
 */
function withoutFlag(text: string, part?: string): string {
  const named = part === undefined ? -1 : text.indexOf(` ${part}: `);
  const own = text.startsWith('--') && named > 0 ? text.slice(named + (part?.length ?? 0) + 3) : text;
  return own
    .replace(/^--[a-z-]+: /, '')
    .replace(/^--[a-z-]+ must /, 'must ')
    .replace(/^bad [a-z ]+ "[^"]*": /, '')
    .replace(/^not of the form; expected (.*?), e\.g\. .*$/, 'not of the form $1')
    .replace(/; expected .*$/, '')
    .replace(/^(ignore|match) (?=")/, '');
}

/** What is wrong with a field checked alone, if anything; a part at fault named when the field has several. */
function problemOf(field: FieldFlags): string | undefined {
  const checks = field.checks ?? [{ flags: field.flags }];
  for (const check of checks) {
    try {
      combineGuards(undefined, guardsFromFlags(check.flags));
    } catch (err) {
      const text = withoutFlag(message(err), check.part);
      return check.part !== undefined && checks.length > 1 ? `"${check.part}": ${text}` : text;
    }
  }
  return undefined;
}

/** The spec's guard rails from the form, or what is wrong with each field that does not parse (`problem`: with them together). */
export function guardsOfForm(
  form: GuardForm,
): { guards: RolloutGuards } | { errors: Partial<Record<GuardField, string>>; problem?: string } {
  const { fields, errors } = flagsOf(form);
  Object.assign(errors, missingOf(form));
  // Each field alone first, so that its error is shown under it.
  for (const [field, f] of Object.entries(fields) as [GuardField, FieldFlags][]) {
    const problem = errors[field] ? undefined : problemOf(f);
    if (problem) errors[field] = problem;
  }
  if (Object.keys(errors).length) return { errors };
  try {
    const flags = Object.assign({}, ...Object.values(fields).map((f) => f.flags)) as GuardFlags;
    return { guards: combineGuards(undefined, guardsFromFlags(flags)) };
  } catch (err) {
    return { errors: {}, problem: withoutFlag(message(err)) };
  }
}

/** Each choice's values, in the order ←/→ go through them. */
const CHOICES: { [K in GuardChoiceField]: readonly GuardForm[K][] } = {
  budgetOf: ['cluster', 'selected'],
  alertsApi: ['prometheus', 'alertmanager'],
  onDrainTimeout: ['pause', 'skip', 'force'],
  notifyFormat: ['slack', 'json'],
};

/** ←/→ or space on a guard rail's choice or toggle (text rows take typed keys instead): its error goes until it is checked again. */
export function guardOption(state: NewRolloutState, row: OptionRow, delta: 1 | -1): NewRolloutState {
  const form = state.guardForm;
  const field = row.id as GuardField;
  let value: GuardForm[GuardField];
  if (row.kind === 'toggle' && typeof form[field] === 'boolean') value = !form[field];
  else if (row.kind === 'choice' && field in CHOICES) {
    const values = CHOICES[field as GuardChoiceField] as readonly string[];
    value = values[(values.indexOf(form[field] as string) + delta + values.length) % values.length]!;
  } else return state;
  const { [field]: _fixed, ...errors } = state.guardErrors;
  return { ...state, guardForm: { ...form, [field]: value }, guardErrors: errors };
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
