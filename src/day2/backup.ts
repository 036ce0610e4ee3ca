/**
 * "Back up now" on the Day 2 page: the control plane's objects into one YAML file (0600), as
 * `fleetdeck backup -f FILE`. Reads only (allowed under --read-only). Plan: the kinds it reads.
 */
import path from 'node:path';
import { discoverBackedUp } from '../backup/backup.js';
import { BACKUP_STEPS, backupInSteps } from '../backup/backup-steps.js';
import { defaultBackupName } from '../backup/file.js';
import type { Day2Operation } from './operation.js';
import { runWithRows } from './run-rows.js';

export interface BackupOperationOptions {
  /** Where the default file goes (default: the working directory, as the command). */
  dir?: string;
  /** The control-plane context (it names the default file). */
  context?: () => string;
}

export function backupOperation(opts: BackupOperationOptions = {}): Day2Operation {
  const dir = opts.dir ?? process.cwd();
  return {
    id: 'backup',
    label: 'Back up now',
    inputs: () => [
      { key: 'file', label: 'Backup file', default: path.join(dir, defaultBackupName(opts.context?.() ?? 'nova', new Date())) },
    ],
    async plan(target, inputs, signal) {
      const { resources, unavailable } = await discoverBackedUp(target.kc);
      signal.throwIfAborted();
      const kinds = [...new Set(resources.map((r) => r.kind))];
      return {
        todo: true,
        lines: [
          `Back up the control plane (context ${target.context}) to ${path.resolve(inputs.file ?? '')} (0600).`,
          `Reads ${kinds.length} kinds: ${kinds.join(', ')}.`,
          "Secrets' data is not included (fleetdeck backup --include-secrets includes it).",
          ...(unavailable.length ? [`Not answering (left out): ${unavailable.join(', ')}.`] : []),
          `Steps: ${BACKUP_STEPS.map((s) => s.label.toLowerCase()).join(', ')}. Nothing in the cluster changes.`,
        ],
      };
    },
    run(target, inputs, onProgress) {
      const file = path.resolve(inputs.file ?? '');
      return runWithRows(onProgress, async (runner) => {
        const r = await backupInSteps(target.kc, target.context, file, { includeSecrets: false }, runner);
        return `Backed up ${r.objects.length} objects to ${file}`;
      });
    },
  };
}
