/**
 * "Upgrade to a bundle" and "Roll back" on the Day 2 page, as `fleetdeck upgrade --bundle DIR`
 * and `fleetdeck upgrade --rollback`: the plan's text, then the run's rows (backup, record, the
 * control plane one component at a time behind the health gate, the agents canary first).
 */
import path from 'node:path';
import { defaultBackupName } from '../../backup/file.js';
import { fleetFilesDir } from '../../config/fleet-config.js';
import { fleetOf, fleetTargetsOf } from '../fleet-of.js';
import type { Day2Operation, Day2Target, OperationInputs } from '../operation.js';
import { runWithRows } from '../run-rows.js';
import { planLines } from './plan-lines.js';
import { changesAnything, planUpgrade } from './planner.js';
import { runUpgrade } from './run.js';
import type { UpgradeTargets } from './targets.js';

const targets = (target: Day2Target): UpgradeTargets => fleetTargetsOf(target, 'An upgrade');

/** The backup an upgrade makes first: with the fleet's files, in `backups/`, as uninstall's. */
const backupFile = (target: Day2Target) =>
  path.join(fleetFilesDir(fleetOf(target, 'An upgrade').fleetFile), 'backups', defaultBackupName(target.context, new Date()));

function options(inputs: OperationInputs, rollback: boolean, t: UpgradeTargets, signal: AbortSignal) {
  const canary = inputs.canary?.trim();
  const cluster = canary ? (t.workloads.find((w) => w.context === canary)?.clusterName ?? canary) : undefined;
  return {
    signal,
    ...(rollback ? { rollback: true } : inputs.bundle?.trim() ? { bundleDir: path.resolve(inputs.bundle.trim()) } : {}),
    ...(cluster ? { canary: cluster } : {}),
  };
}

function upgradeLike(rollback: boolean): Day2Operation {
  const what = rollback ? 'rollback' : 'upgrade';
  return {
    id: rollback ? 'rollback' : 'upgrade',
    label: rollback ? 'Roll back' : 'Upgrade to a bundle',
    writes: { action: `${what} changes the control plane` },
    inputs: () =>
      rollback
        ? []
        : [
            { key: 'bundle', label: 'Bundle directory (empty: the built-in bundle)', default: '' },
            { key: 'canary', label: 'Canary cluster (empty: the first)', default: '' },
          ],
    async plan(target, inputs, signal) {
      const t = targets(target);
      const { plan } = await planUpgrade(t, options(inputs, rollback, t, signal));
      const lines = [...planLines(plan, t.hosting.context), `Backup: the control plane's objects go to ${backupFile(target)} first.`];
      if (plan.blocking.length) return { todo: false, lines: [...lines, `Refused: ${plan.blocking.join('; ')}.`] };
      return {
        todo: true,
        lines: changesAnything(plan) ? lines : [...lines, 'Nothing to change: running it checks every component is healthy.'],
      };
    },
    run(target, inputs, onProgress, signal) {
      const t = targets(target);
      return runWithRows(onProgress, async (runner) => {
        const prepared = await planUpgrade(t, options(inputs, rollback, t, signal));
        if (prepared.plan.blocking.length) throw new Error(`refused: ${prepared.plan.blocking.join('; ')}`);
        const r = await runUpgrade(prepared, runner, { backupFile: backupFile(target), signal });
        if (!r.ok) throw new Error(`paused at "${r.failed?.step}": ${r.failed?.reason}`);
        return r.rolled.length
          ? `${rollback ? 'Rolled back' : 'Upgraded'}: ${r.rolled.join(', ')}`
          : 'Nothing changed; every component is healthy';
      });
    },
  };
}

export const upgradeOperation = (): Day2Operation => upgradeLike(false);
export const rollbackOperation = (): Day2Operation => upgradeLike(true);
