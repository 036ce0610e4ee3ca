/**
 * The Install tab's Day 2 page slice: the menu of day-2 operations, where the chosen one
 * stands (its plan, its live rows, how it ended), and the control plane's day-2 facts. Pure
 * reducers; the Day 2 feed is their only caller. A run's answer is dropped when the page moved
 * on (`seq` changed).
 */
import type { CheckItem } from '../checklist/checklist.js';
import type { OperationInput, OperationInputs } from '../day2/operation.js';

export interface Day2Entry {
  id: string;
  label: string;
  /** Confirming its plan changes the cluster: under --read-only the gate's line refuses it. */
  writes?: { action: string };
  inputs: OperationInput[];
  unavailable?: string;
}

export type Day2Stage =
  | { stage: 'menu' }
  | { stage: 'planning'; id: string; inputs: OperationInputs }
  | { stage: 'plan'; id: string; inputs: OperationInputs; lines: string[]; todo: boolean; refused?: string }
  | { stage: 'running'; id: string; inputs: OperationInputs; items: CheckItem[] }
  | { stage: 'done'; id: string; inputs: OperationInputs; items: CheckItem[]; ok: boolean; summary: string; hint?: string }
  | { stage: 'error'; id: string; error: string };

export interface Day2Facts {
  /** The control plane's context; undefined: no fleet (nothing to operate on). */
  context?: string;
  /** The installed bundle and version as recorded in the cluster; undefined: not recorded (or not read yet). */
  bundle?: string;
  lastBackup?: { file: string; at: string };
}

export interface Day2Slice {
  open: boolean;
  entries: Day2Entry[];
  stage: Day2Stage;
  facts: Day2Facts;
  /** Bumped on every change of stage the feed starts; an answer for an older one is dropped. */
  seq: number;
}

export const emptyDay2 = (): Day2Slice => ({ open: false, entries: [], stage: { stage: 'menu' }, facts: {}, seq: 0 });

export function day2Opened(s: Day2Slice, entries: Day2Entry[], facts: Day2Facts): Day2Slice {
  return { ...s, open: true, entries, facts: { ...s.facts, ...facts } };
}

export function day2Closed(s: Day2Slice): Day2Slice {
  return { ...s, open: false };
}

/** A new stage the feed starts (planning, running, back to the menu): earlier answers are dropped from now on. */
export function day2Stage(s: Day2Slice, stage: Day2Stage): Day2Slice {
  return { ...s, stage, seq: s.seq + 1 };
}

/** An answer for the stage numbered `seq` (live rows, a plan, the end of a run). */
export function day2Answer(s: Day2Slice, seq: number, stage: Day2Stage): Day2Slice {
  return s.seq === seq ? { ...s, stage } : s;
}

export function day2Facts(s: Day2Slice, facts: Day2Facts): Day2Slice {
  return { ...s, facts: { ...s.facts, ...facts } };
}

/** A run is under way: leaving the page or starting another is not offered until it ends. */
export function day2Busy(s: Day2Slice): boolean {
  return s.stage.stage === 'running';
}
