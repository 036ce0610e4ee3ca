/**
 * `fleetdeck restore FILE`: a backup re-applied to the control plane by server-side apply, in
 * dependency order — the plan first, confirmed (or --yes), only what changes written, through
 * the write gate. Idempotent: run it again after an interruption and it finishes.
 */
import path from 'node:path';
import { readBackupFile } from '../backup/file.js';
import { type PlannedObject, planCounts, planRestore, runRestore } from '../backup/restore.js';
import { UsageError, UserError } from '../errors.js';
import { describeError } from '../kube/transport/client.js';
import { document } from '../output/format.js';
import { planText, restoreJson } from '../report/backup.js';
import type { KubeConfig } from '@kubernetes/client-node';
import { restoreInSteps } from '../backup/restore-steps.js';
import { StepRunner } from '../install/runner.js';
import { asciiOnly, type GlobalOptions, requireOutput } from '../session/options.js';
import { lineReporter } from './install/lines.js';
import { confirm, interactive } from '../session/prompt.js';
import { startSession } from '../session/session.js';
import { runSignal } from '../session/signals.js';
import { controlPlaneTarget } from './backup/target.js';

export interface RestoreOptions extends GlobalOptions {
  dryRun?: boolean;
  yes?: boolean;
}

const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** The restore as the Day 2 page's rows (read, plan, apply, verify), one line per change; false when a step failed. */
async function restoreInRows(kc: KubeConfig, file: string, signal: AbortSignal, ascii: boolean): Promise<boolean> {
  const runner = new StepRunner(lineReporter(ascii));
  try {
    await restoreInSteps(kc, file, runner, signal);
    return true;
  } catch (err) {
    if (signal.aborted) throw err;
    return false;
  } finally {
    runner.stop();
  }
}

/** Confirmed by --yes, else a y/N question on the terminal; without one, --yes is required. */
async function confirmed(opts: RestoreOptions): Promise<boolean> {
  if (opts.yes) return true;
  if (!interactive()) throw new UsageError('restore changes the control plane: confirm with --yes (or look first with --dry-run)');
  return confirm('Apply these objects?');
}

/**
 * Exit 0 when everything is applied (or nothing had to be, or the dry run is complete); 1 when
 * an object failed, the control plane could not be read, or you declined; 2 usage (a bad file).
 */
export async function runRestoreCommand(fileArg: string, opts: RestoreOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const text = output === 'text';
  const file = path.resolve(fileArg);
  const objects = readBackupFile(file);
  const session = startSession(opts, { needs: 'control-plane' });
  if (!opts.dryRun) session.assertWritable('restore writes to the control plane', ' (use --dry-run to see its plan)');
  const { context, kc } = controlPlaneTarget(session, 'restore');
  const signal = runSignal();
  let plan: PlannedObject[];
  try {
    plan = await planRestore(kc, objects, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    throw new UserError(`cannot plan the restore on the control plane (context ${context}): ${describeError(err)}`);
  }
  const counts = planCounts(plan);
  const print = (ok: boolean, dryRun: boolean) => {
    if (!text) write(document(output, restoreJson({ ok, dryRun, file, context, plan })));
  };
  if (text) write(planText(plan, file, context));
  if (counts.create + counts.update === 0) {
    if (text) write('Nothing to do: the control plane already holds every object of the backup.');
    print(true, opts.dryRun === true);
    return 0;
  }
  if (opts.dryRun) {
    if (text) write('Dry run: nothing was changed.');
    print(true, true);
    return 0;
  }
  if (!(await confirmed(opts))) {
    write('Nothing was changed.');
    return 1;
  }
  const ok = text ? await restoreInRows(kc, file, signal, asciiOnly(opts)) : await runRestore(kc, objects, plan, { signal });
  if (text)
    write(
      ok
        ? `Restored: ${counts.create} created, ${counts.update} updated.`
        : 'The restore stopped; fix what failed and run it again: it continues.',
    );
  print(ok, false);
  return ok ? 0 : 1;
}
