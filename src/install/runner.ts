import { describeError } from '../kube/client.js';
import { WaitTimeout } from '../kube/wait.js';
import type { CheckItem, CheckState } from '../checklist/checklist.js';

/** A failure with the hint the row shows under it. */
export class StepError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** What a running step may do to its row. */
export interface RowControl {
  /** The detail shown while the step runs ("1/3 ready (ContainerCreating)"). */
  progress(detail: string): void;
  /** A hint shown while it runs (e.g. why it may be slow). */
  hint(text: string | undefined): void;
  /** Child rows (e.g. one per control-plane component, one per workload cluster). */
  child(id: string, label: string): RowHandle;
}

export interface RowHandle extends RowControl {
  set(state: CheckState, detail?: string, hint?: string): void;
}

/** The result of a step: its final detail, and `warn` when it finished with a caveat. */
export type StepOutcome = string | { detail: string; state?: 'ok' | 'warn'; hint?: string };

interface Row extends CheckItem {
  startedAt?: number;
}

/**
 * Runs a workflow's steps one after another as checklist rows (pending → running → ok / warn /
 * fail) with their elapsed time, publishing the whole list on every change. The first failing
 * step stops the run: its row says why (one line) and what to do (the hint).
 */
export class StepRunner {
  private readonly rows: Row[] = [];
  private readonly ticker: NodeJS.Timeout;

  constructor(
    private readonly publish: (items: CheckItem[]) => void,
    private readonly now: () => number = Date.now,
  ) {
    // Running rows show their elapsed time: refresh it every second.
    this.ticker = setInterval(() => {
      if (this.rows.some((r) => r.state === 'running')) this.emit();
    }, 1000);
    this.ticker.unref();
  }

  /** Declares the steps up front: the whole plan is visible from the start. */
  plan(steps: { id: string; label: string }[]): void {
    for (const s of steps) this.rows.push({ id: s.id, label: s.label, state: 'pending' });
    this.emit();
  }

  items(): CheckItem[] {
    const now = this.now();
    const snap = (r: Row): CheckItem => {
      const { startedAt, ...item } = r;
      const out: CheckItem = { ...item };
      if (r.state === 'running' && startedAt !== undefined) out.elapsedMs = now - startedAt;
      if (r.children) out.children = r.children.map((c) => snap(c as Row));
      return out;
    };
    return this.rows.map(snap);
  }

  stop(): void {
    clearInterval(this.ticker);
  }

  private emit(): void {
    this.publish(this.items());
  }

  private row(id: string): Row {
    const r = this.rows.find((x) => x.id === id);
    if (!r) throw new Error(`no step ${id}`);
    return r;
  }

  private control(r: Row): RowHandle {
    return {
      progress: (detail) => {
        r.detail = detail;
        this.emit();
      },
      hint: (text) => {
        if (text === undefined) delete r.hint;
        else r.hint = text;
        this.emit();
      },
      child: (id, label) => {
        r.children ??= [];
        let c = r.children.find((x) => x.id === id) as Row | undefined;
        if (!c) {
          c = { id, label, state: 'pending' };
          r.children.push(c);
        }
        return this.control(c);
      },
      set: (state, detail, hint) => {
        if (state === 'running' && r.state !== 'running') r.startedAt = this.now();
        if (state !== 'running' && state !== 'pending' && r.startedAt !== undefined) r.elapsedMs = this.now() - r.startedAt;
        r.state = state;
        if (detail !== undefined) r.detail = detail;
        if (hint !== undefined) r.hint = hint;
        else if (state === 'ok') delete r.hint;
        this.emit();
      },
    };
  }

  /** Runs one declared step; throws (after marking its row failed) when it fails. */
  async run(id: string, fn: (row: RowControl) => Promise<StepOutcome>): Promise<void> {
    const r = this.row(id);
    const handle = this.control(r);
    handle.set('running');
    try {
      const outcome = await fn(handle);
      const o = typeof outcome === 'string' ? { detail: outcome } : outcome;
      handle.set(o.state ?? 'ok', o.detail, o.hint);
    } catch (err) {
      const hint = err instanceof StepError ? err.hint : undefined;
      const detail = err instanceof StepError || err instanceof WaitTimeout ? err.message : describeError(err);
      handle.set('fail', detail, hint ?? r.hint);
      throw err;
    }
  }

  /** Marks a declared step as skipped (e.g. nothing to do in a dry run). */
  skip(id: string, detail: string): void {
    const r = this.row(id);
    r.state = 'info';
    r.detail = detail;
    this.emit();
  }
}
