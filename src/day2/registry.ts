/**
 * The Day 2 page's menu: every day-2 operation, in the order shown. The Day 2 feed takes its
 * entries from here and knows nothing of any one of them.
 *
 * Wiring an operation that is built elsewhere (one entry each, nothing else changes):
 * - Renew certificates: replace `notAvailable('renew', …)` with an operation from
 *   src/day2/renew/ — plan: `planRenew(…)`'s lines; run: `runWithRows(onProgress, (runner) =>
 *   runRenew(…, runner))` (its StepRunner rows are the page's rows).
 * - Upgrade to a bundle / Roll back: the same with `planUpgrade` / `runUpgrade` from
 *   src/day2/upgrade/ (inputs: `{ key: 'bundle', label: 'Bundle directory', default: … }`;
 *   rollback: `runUpgrade` with `rollback: true`), `writes: { action: 'upgrade changes the control plane' }`.
 * - `installedBundle`: what upgrade records in the cluster (the bundle and version in use), for the page's facts.
 */
import { readLastBackup, type LastBackup } from '../backup/last.js';
import { backupOperation } from './backup.js';
import { type Day2Operation, type Day2Target, notAvailable } from './operation.js';
import { restoreOperation } from './restore.js';

export interface Day2Registry {
  operations: Day2Operation[];
  /** The last backup made from this machine. */
  lastBackup(): LastBackup | undefined;
  /** The control plane's installed bundle and version, when recorded in the cluster (undefined: not recorded). */
  installedBundle?(target: Day2Target, signal: AbortSignal): Promise<string | undefined>;
}

export interface Day2RegistryOptions {
  /** Where "Back up now" writes by default (default: the working directory). */
  dir?: string;
  context?: () => string;
}

export function day2Registry(opts: Day2RegistryOptions = {}): Day2Registry {
  const lastBackup = () => readLastBackup();
  return {
    operations: [
      backupOperation({ ...(opts.dir ? { dir: opts.dir } : {}), ...(opts.context ? { context: opts.context } : {}) }),
      restoreOperation(lastBackup),
      notAvailable('renew', 'Renew certificates'),
      notAvailable('upgrade', 'Upgrade to a bundle'),
      notAvailable('rollback', 'Roll back'),
    ],
    lastBackup,
  };
}
