/**
 * One model for rows of steps that move pending → running → ok / warn / fail (or are skipped):
 * install and uninstall steps, prerequisite checks. Rows are keyed by id (a child by the path of
 * ids from its top row), carry a detail and a hint, and know how long they ran. Plain data: the
 * board reports the whole list as CheckItem[] on every change; the clock is a parameter.
 */
import { formatDuration } from '../duration.js';
import type { CheckItem, CheckState } from './checklist.js';

/** A row's id, or the path of ids from a top row down to a child. */
export type RowKey = string | readonly string[];

/** The outcome of a check or a step, replacing a row's state, detail, hint and children. */
export interface RowVerdict {
  state: CheckState;
  detail?: string;
  hint?: string;
  children?: CheckItem[];
}

interface Row extends CheckItem {
  startedAt?: number;
  children?: Row[];
}

export class ProgressBoard {
  private readonly rows: Row[] = [];

  constructor(
    private readonly onChange: (items: CheckItem[]) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** Declares rows up front, pending: the whole plan is visible from the start. */
  plan(steps: readonly { id: string; label: string }[]): void {
    for (const s of steps) this.rows.push({ id: s.id, label: s.label, state: 'pending' });
    this.emit();
  }

  /**
   * Moves a row to `state`: entering `running` starts its clock, a final state stops it. The
   * detail and hint are kept unless given; an `ok` row without a new hint loses its old one.
   */
  set(key: RowKey, state: CheckState, detail?: string, hint?: string): void {
    const r = this.row(key);
    if (state === 'running' && r.state !== 'running') r.startedAt = this.now();
    if (state !== 'running' && state !== 'pending' && r.startedAt !== undefined) r.elapsedMs = this.now() - r.startedAt;
    r.state = state;
    if (detail !== undefined) r.detail = detail;
    if (hint !== undefined) r.hint = hint;
    else if (state === 'ok') delete r.hint;
    this.emit();
  }

  start(key: RowKey, detail?: string): void {
    this.set(key, 'running', detail);
  }

  finish(key: RowKey, detail?: string, state: 'ok' | 'warn' = 'ok', hint?: string): void {
    this.set(key, state, detail, hint);
  }

  fail(key: RowKey, detail: string, hint?: string): void {
    this.set(key, 'fail', detail, hint);
  }

  /** Marks a row as skipped (`info`), e.g. nothing to do in a dry run; no time is recorded. */
  markSkipped(key: RowKey, detail: string): void {
    const r = this.row(key);
    r.state = 'info';
    r.detail = detail;
    this.emit();
  }

  /** Replaces a row's outcome as a whole (a check's verdict): no clock, no detail or hint kept. */
  replace(key: RowKey, verdict: RowVerdict): void {
    const r = this.row(key);
    for (const k of ['detail', 'hint', 'children', 'elapsedMs', 'startedAt'] as const) delete r[k];
    r.state = verdict.state;
    if (verdict.detail !== undefined) r.detail = verdict.detail;
    if (verdict.hint !== undefined) r.hint = verdict.hint;
    if (verdict.children?.length) r.children = verdict.children.map((c) => ({ ...c }));
    this.emit();
  }

  /** The detail shown while a row runs ("1/3 ready"). */
  progress(key: RowKey, detail: string): void {
    this.row(key).detail = detail;
    this.emit();
  }

  /** Sets or clears a row's hint. */
  hint(key: RowKey, text: string | undefined): void {
    const r = this.row(key);
    if (text === undefined) delete r.hint;
    else r.hint = text;
    this.emit();
  }

  /** A child row under `key` (created pending the first time); returns its key. */
  child(key: RowKey, id: string, label: string): string[] {
    const r = this.row(key);
    r.children ??= [];
    if (!r.children.some((c) => c.id === id)) r.children.push({ id, label, state: 'pending' });
    return [...path(key), id];
  }

  /** Whether any row (or child) is running: its elapsed time changes by itself. */
  running(): boolean {
    const any = (rows: readonly Row[]): boolean => rows.some((r) => r.state === 'running' || any(r.children ?? []));
    return any(this.rows);
  }

  /** The elapsed time of a row as people read it ("0.4s", "2m05s"), when it has one. */
  elapsed(key: RowKey): string | undefined {
    const ms = this.snap(this.row(key), this.now()).elapsedMs;
    return ms === undefined ? undefined : formatDuration(ms);
  }

  state(key: RowKey): CheckState {
    return this.row(key).state;
  }

  hintOf(key: RowKey): string | undefined {
    return this.row(key).hint;
  }

  /** The rows as checklist items; running rows show how long they have been running. */
  items(): CheckItem[] {
    const now = this.now();
    return this.rows.map((r) => this.snap(r, now));
  }

  private snap(r: Row, now: number): CheckItem {
    const { startedAt, children, ...item } = r;
    const out: CheckItem = { ...item };
    if (r.state === 'running' && startedAt !== undefined) out.elapsedMs = now - startedAt;
    if (children) out.children = children.map((c) => this.snap(c, now));
    return out;
  }

  private row(key: RowKey): Row {
    let rows = this.rows;
    let found: Row | undefined;
    for (const id of path(key)) {
      found = rows.find((x) => x.id === id);
      if (!found) throw new Error(`no step ${path(key).join('/')}`);
      rows = found.children ?? [];
    }
    if (!found) throw new Error('no step');
    return found;
  }

  private emit(): void {
    this.onChange(this.items());
  }
}

function path(key: RowKey): readonly string[] {
  return typeof key === 'string' ? [key] : key;
}
