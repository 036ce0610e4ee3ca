/**
 * The Day 2 page's menu: every day-2 operation, in the order shown. The Day 2 feed takes its
 * entries from here and knows nothing of any one of them.
 */
import { readLastBackup, type LastBackup } from '../backup/last.js';
import path from 'node:path';
import { DEFAULT_BUNDLE_DIR } from '../install/bundle.js';
import { readRecord } from '../install/bundle-record.js';
import { Applier } from '../kube/api/apply.js';
import { backupOperation } from './backup.js';
import type { Day2Operation, Day2Target } from './operation.js';
import { renewOperation } from './renew/operation.js';
import { rollbackOperation, upgradeOperation } from './upgrade/operation.js';
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
      renewOperation(),
      upgradeOperation(),
      rollbackOperation(),
    ],
    lastBackup,
    installedBundle: async (target) => {
      if (!target.fleet) return undefined;
      const { current } = await readRecord(new Applier(target.fleet.hosting.kc), target.fleet.namespace);
      if (!current) return undefined;
      const source = path.resolve(current.source) === path.resolve(DEFAULT_BUNDLE_DIR) ? 'the built-in reference bundle' : current.source;
      return `${source}${current.ha ? ' (HA)' : ''}, recorded ${current.recordedAt}`;
    },
  };
}
