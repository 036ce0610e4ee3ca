/** An operation's run on a StepRunner: its rows published live, its outcome from the last row. */
import type { CheckItem } from '../checklist/checklist.js';
import { StepRunner } from '../install/runner.js';
import type { OperationOutcome } from './operation.js';

/**
 * Runs `steps` on a fresh StepRunner publishing to `onProgress`; `steps` returns the summary.
 * A failing step ends it with `ok: false`, the failed row's detail as the summary and its hint.
 */
export async function runWithRows(
  onProgress: (items: CheckItem[]) => void,
  steps: (runner: StepRunner) => Promise<string>,
): Promise<OperationOutcome> {
  const runner = new StepRunner(onProgress);
  try {
    const summary = await steps(runner);
    return { ok: true, steps: runner.items(), summary };
  } catch (err) {
    const items = runner.items();
    const failed = items.find((i) => i.state === 'fail');
    const summary = failed ? `${failed.label}: ${failed.detail ?? 'failed'}` : err instanceof Error ? err.message : String(err);
    return { ok: false, steps: items, summary, ...(failed?.hint ? { hint: failed.hint } : {}) };
  } finally {
    runner.stop();
  }
}
