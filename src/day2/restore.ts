/**
 * "Restore from a file" on the Day 2 page: a backup re-applied by server-side apply in
 * dependency order, as `fleetdeck restore FILE`. Plan: the command's plan text; the run writes
 * through the write gate (refused under --read-only).
 */
import path from 'node:path';
import { readBackupFile } from '../backup/file.js';
import type { LastBackup } from '../backup/last.js';
import { planCounts, planRestore } from '../backup/restore.js';
import { restoreInSteps } from '../backup/restore-steps.js';
import { planText } from '../backup/restore-plan-text.js';
import type { Day2Operation } from './operation.js';
import { runWithRows } from './run-rows.js';

export function restoreOperation(last: () => LastBackup | undefined): Day2Operation {
  return {
    id: 'restore',
    label: 'Restore from a file',
    writes: { action: 'restore writes to the control plane' },
    inputs: () => [{ key: 'file', label: 'Backup file', default: last()?.file ?? '' }],
    async plan(target, inputs, signal) {
      const file = path.resolve(inputs.file ?? '');
      const plan = await planRestore(target.kc, readBackupFile(file), signal);
      const c = planCounts(plan);
      const todo = c.create + c.update > 0;
      const lines = planText(plan, file, target.context).split('\n');
      return { todo, lines: todo ? lines : [...lines, 'Nothing to do: the control plane already holds every object of the backup.'] };
    },
    run(target, inputs, onProgress, signal) {
      const file = path.resolve(inputs.file ?? '');
      return runWithRows(onProgress, async (runner) => {
        const plan = await restoreInSteps(target.kc, file, runner, signal);
        const c = planCounts(plan);
        return `Restored: ${c.create} created, ${c.update} updated`;
      });
    },
  };
}
