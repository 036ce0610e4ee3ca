/**
 * The restore as checklist rows (the Day 2 page's): read the file, plan against the control
 * plane, apply the CRDs and namespaces, apply the rest (custom resources once their CRDs are
 * Established), verify (a second plan changes nothing). Only what changes is written.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { ApiObject } from '../kube/api/api-resources.js';
import { StepError, type RowControl, type StepRunner } from '../install/runner.js';
import { readBackupFile } from './file.js';
import type { Phase } from './order.js';
import { type PlannedObject, planCounts, planRestore, runRestore } from './restore.js';

export const RESTORE_STEPS = [
  { id: 'read', label: 'Read the backup file' },
  { id: 'plan', label: 'Plan against the control plane' },
  { id: 'apply-first', label: 'Apply the CRDs and namespaces' },
  { id: 'apply-rest', label: 'Apply the other objects' },
  { id: 'verify', label: 'Verify: nothing left to change' },
];

const FIRST: readonly Phase[] = ['crds', 'namespaces'];
const REST: readonly Phase[] = ['config', 'workloads', 'custom'];

const countsLine = (plan: readonly PlannedObject[]) => {
  const c = planCounts(plan);
  return `${c.create} to create, ${c.update} to update, ${c.unchanged} unchanged`;
};

/** Applies the plan's objects of `phases`; the row counts them as they go. */
async function applyPhases(
  kc: KubeConfig,
  objects: readonly ApiObject[],
  plan: PlannedObject[],
  phases: readonly Phase[],
  row: RowControl,
  signal: AbortSignal,
): Promise<string> {
  let applied = 0;
  const ok = await runRestore(kc, objects, plan, {
    signal,
    phases,
    onApplied: (p) => {
      if (p.result !== 'failed') row.progress(`${++applied} applied · ${p.result} ${p.ref}`);
    },
    onWait: (d) => row.progress(d),
  });
  const failed = plan.find((p) => p.result === 'failed');
  if (!ok && failed) throw new StepError(`${failed.ref}: ${failed.error ?? 'failed'}`, 'fix what failed and restore again: it continues');
  return applied ? `${applied} applied` : 'nothing to change';
}

/** Restores `file` into the control plane, one row per step; throws (its row failed) when a step fails. */
export async function restoreInSteps(kc: KubeConfig, file: string, runner: StepRunner, signal: AbortSignal): Promise<PlannedObject[]> {
  runner.plan(RESTORE_STEPS);
  let objects: ApiObject[] = [];
  await runner.run('read', async () => {
    objects = readBackupFile(file);
    return `${objects.length} objects in ${file}`;
  });
  let plan: PlannedObject[] = [];
  await runner.run('plan', async () => {
    plan = await planRestore(kc, objects, signal);
    return countsLine(plan);
  });
  await runner.run('apply-first', (row) => applyPhases(kc, objects, plan, FIRST, row, signal));
  await runner.run('apply-rest', (row) => applyPhases(kc, objects, plan, REST, row, signal));
  await runner.run('verify', async () => {
    const again = planCounts(await planRestore(kc, objects, signal));
    if (again.create + again.update > 0)
      throw new StepError(`${again.create + again.update} objects still differ from the backup`, 'restore again: it continues');
    return `${again.unchanged} objects as in the backup`;
  });
  return plan;
}
