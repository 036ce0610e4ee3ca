import type { CheckItem, CheckState } from '../checklist/checklist.js';
import { ProgressBoard, type RowKey } from '../checklist/progress-board.js';
import { describeError } from '../kube/transport/client.js';
import { ServerLost, WaitTimeout } from '../kube/watch/wait.js';

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

/** The one-line message of a step's failure. */
function failureDetail(err: unknown): string {
  return err instanceof StepError || err instanceof WaitTimeout || err instanceof ServerLost ? err.message : describeError(err);
}

/**
 * Runs a workflow's steps one after another as checklist rows (pending → running → ok / warn /
 * fail) with their elapsed time, publishing the whole list on every change. The first failing
 * step stops the run: its row says why (one line) and what to do (the hint).
 */
export class StepRunner {
  private readonly board: ProgressBoard;
  private readonly ticker: NodeJS.Timeout;

  constructor(publish: (items: CheckItem[]) => void, now: () => number = Date.now) {
    this.board = new ProgressBoard(publish, now);
    // Running rows show their elapsed time: refresh it every second.
    this.ticker = setInterval(() => {
      if (this.board.running()) publish(this.board.items());
    }, 1000);
    this.ticker.unref();
  }

  /** Declares the steps up front: the whole plan is visible from the start. */
  plan(steps: { id: string; label: string }[]): void {
    this.board.plan(steps);
  }

  items(): CheckItem[] {
    return this.board.items();
  }

  stop(): void {
    clearInterval(this.ticker);
  }

  private control(key: RowKey): RowHandle {
    const b = this.board;
    return {
      progress: (detail) => b.progress(key, detail),
      hint: (text) => b.hint(key, text),
      child: (id, label) => this.control(b.child(key, id, label)),
      set: (state, detail, hint) => b.set(key, state, detail, hint),
    };
  }

  /** Runs one declared step; throws (after marking its row failed) when it fails. */
  async run(id: string, fn: (row: RowControl) => Promise<StepOutcome>): Promise<void> {
    const handle = this.control(id);
    this.board.start(id);
    try {
      const outcome = await fn(handle);
      const o = typeof outcome === 'string' ? { detail: outcome } : outcome;
      this.board.finish(id, o.detail, o.state ?? 'ok', o.hint);
    } catch (err) {
      const hint = err instanceof StepError ? err.hint : undefined;
      this.board.fail(id, failureDetail(err), hint ?? this.board.hintOf(id));
      throw err;
    }
  }

  /** Marks a declared step as skipped (e.g. nothing to do in a dry run). */
  markSkipped(id: string, detail: string): void {
    this.board.markSkipped(id, detail);
  }
}
