/**
 * `fleetdeck upgrade [--bundle DIR] [--canary C] [--rollback] [--dry-run] [--yes]`: the plan, then
 * (confirmed) the upgrade as rows. Exit 0 when done (or a dry run, or nothing to change), 1 when a
 * step failed (it pauses, saying how to go back) or the plan breaks the version skew rules, 2 usage.
 */
import fs from 'node:fs';
import { fleetFilePath } from '../config/fleet-config.js';
import { planLines } from '../day2/upgrade/plan-lines.js';
import { changesAnything, planUpgrade } from '../day2/upgrade/planner.js';
import { runUpgrade, type UpgradeResult } from '../day2/upgrade/run.js';
import type { UpgradePlan, UpgradeTargets } from '../day2/upgrade/targets.js';
import { UsageError } from '../errors.js';
import { StepRunner } from '../install/runner.js';
import { document } from '../output/format.js';
import { asciiOnly, type GlobalOptions, requireOutput } from '../session/options.js';
import { confirm, interactive } from '../session/prompt.js';
import { type Session, startSession } from '../session/session.js';
import { runSignal } from '../session/signals.js';
import { fleetTargets } from './backup/target.js';
import { lineReporter, write } from './install/lines.js';
import { uninstallBackupPath } from './install/uninstall-backup.js';

export interface UpgradeCommandOptions extends GlobalOptions {
  bundle?: string;
  canary?: string;
  rollback?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/** The fleet of the fleet file (or --hosting-context), each context's credentials checked. */
function targets(session: Session): UpgradeTargets {
  return fleetTargets(session, 'upgrade');
}

/** --canary names a cluster (or its context). */
function canaryCluster(t: UpgradeTargets, canary: string | undefined): string | undefined {
  if (canary === undefined) return undefined;
  return t.workloads.find((w) => w.context === canary)?.clusterName ?? canary;
}

async function confirmed(opts: UpgradeCommandOptions, plan: UpgradePlan): Promise<boolean> {
  if (opts.yes) return true;
  const what = plan.rollback ? 'rollback' : 'upgrade';
  if (!interactive()) throw new UsageError(`${what} changes the control plane: confirm with --yes (or look first with --dry-run)`);
  if (await confirm(plan.rollback ? 'Roll back?' : 'Upgrade?')) return true;
  write('Nothing was changed.');
  return false;
}

function resultLines(plan: UpgradePlan, r: UpgradeResult): string[] {
  const what = plan.rollback ? 'rollback' : 'upgrade';
  if (r.ok)
    return [
      r.rolled.length
        ? `Done: ${r.rolled.join(', ')} ${plan.rollback ? 'rolled back' : 'upgraded'}.`
        : 'Done: nothing changed; every component is healthy.',
      plan.rollback ? 'No earlier bundle is recorded now.' : 'Go back with: fleetdeck upgrade --rollback',
    ];
  return [`The ${what} paused at "${r.failed?.step}": ${r.failed?.reason}`, `${r.failed?.hint}.`];
}

export async function runUpgradeCommand(opts: UpgradeCommandOptions): Promise<number> {
  const output = requireOutput(opts.output);
  const text = output === 'text';
  if (opts.rollback && opts.bundle !== undefined)
    throw new UsageError('--rollback re-applies the recorded previous bundle: leave out --bundle');
  const session = startSession(opts);
  if (!opts.dryRun)
    session.assertWritable(
      opts.rollback ? 'rollback changes the control plane' : 'upgrade changes the control plane',
      ' (use --dry-run to see the plan)',
    );
  if (opts.bundle !== undefined && !fs.existsSync(opts.bundle)) throw new UsageError(`bundle directory ${opts.bundle} does not exist`);
  const t = targets(session);
  const canary = canaryCluster(t, opts.canary);
  const prepared = await planUpgrade(t, {
    ...(opts.bundle !== undefined ? { bundleDir: opts.bundle } : {}),
    ...(opts.rollback ? { rollback: true } : {}),
    ...(canary !== undefined ? { canary } : {}),
  });
  const { plan } = prepared;
  const backupFile = uninstallBackupPath(fleetFilePath(), t.controlPlane.context);
  if (text) {
    for (const line of planLines(plan, t.hosting.context)) write(line);
    write(`Backup: ${opts.dryRun ? 'would write' : 'writes'} the control plane's objects to ${backupFile} first.`);
  }
  if (plan.blocking.length) {
    if (text) write(`Refused: ${plan.blocking.join('; ')}. Nothing was changed.`);
    else write(document(output, { ok: false, dryRun: opts.dryRun === true, plan, steps: [], rolled: [], backup: null, failed: null }));
    return 1;
  }
  if (opts.dryRun) {
    if (text) write('\nDry run: nothing was changed.');
    else write(document(output, { ok: true, dryRun: true, plan, steps: [], rolled: [], backup: null, failed: null }));
    return 0;
  }
  if (changesAnything(plan) && !(await confirmed(opts, plan))) return 1;
  if (text) write(changesAnything(plan) ? '' : '\nNothing to change: checking that every component is healthy.');
  const runner = new StepRunner(text ? lineReporter(asciiOnly(opts)) : () => {});
  const result = await runUpgrade(prepared, runner, { backupFile, signal: runSignal() });
  if (text) {
    write('');
    for (const line of resultLines(plan, result)) write(line);
  } else {
    write(
      document(output, {
        ok: result.ok,
        dryRun: false,
        plan,
        steps: runner.items(),
        rolled: result.rolled,
        backup: result.backup ?? null,
        failed: result.failed ?? null,
      }),
    );
  }
  return result.ok ? 0 : 1;
}
