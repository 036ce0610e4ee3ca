/**
 * The Install tab's "Prepare nodes" slice: where the preflight checks of this host stand. Pure
 * reducers; the prepare feed is their only caller. A run's answer is dropped when a later run
 * started since.
 */
import type { CheckItem } from '../checklist/checklist.js';

export type PrepareState =
  | { status: 'running'; run: number }
  | { status: 'done'; run: number; items: CheckItem[] }
  | { status: 'error'; run: number; error: string };

export interface PrepareSlice {
  /** Undefined until the checks first ran. */
  state?: PrepareState;
}

export const emptyPrepare = (): PrepareSlice => ({});

export function prepareRunning(s: PrepareSlice): boolean {
  return s.state?.status === 'running';
}

export function prepareStarted(s: PrepareSlice): PrepareSlice {
  return { state: { status: 'running', run: (s.state?.run ?? 0) + 1 } };
}

export function prepareSettled(s: PrepareSlice, run: number, outcome: { items: CheckItem[] } | { error: string }): PrepareSlice {
  if (s.state?.run !== run) return s;
  return { state: 'items' in outcome ? { status: 'done', run, items: outcome.items } : { status: 'error', run, error: outcome.error } };
}
