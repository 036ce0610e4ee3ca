/**
 * The backup as checklist rows (the Day 2 page's): discover the kinds, read the objects, write
 * the file (0600, recorded as the last backup of this machine). Reads only from the cluster.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { ApiResource } from '../kube/api/api-resources.js';
import type { StepRunner } from '../install/runner.js';
import { type BackupResult, discoverBackedUp, readBackedUp } from './backup.js';
import type { BackupChoice } from './clean.js';
import { backupText, writeBackupFile } from './file.js';
import { recordLastBackup } from './last.js';

export const BACKUP_STEPS = [
  { id: 'discover', label: 'Discover the kinds to back up' },
  { id: 'read', label: 'Read the objects' },
  { id: 'write', label: 'Write the backup file' },
];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Runs the backup into `file`, one row per step; throws (its row failed) when a step fails. */
export async function backupInSteps(
  kc: KubeConfig,
  context: string,
  file: string,
  choice: BackupChoice,
  runner: StepRunner,
): Promise<BackupResult> {
  runner.plan(BACKUP_STEPS);
  let found: { resources: ApiResource[]; unavailable: string[] } = { resources: [], unavailable: [] };
  await runner.run('discover', async () => {
    found = await discoverBackedUp(kc);
    const n = found.unavailable.length;
    const detail = plural(found.resources.length, 'kind');
    return n
      ? {
          detail: `${detail}; ${plural(n, 'API group')} not answering`,
          state: 'warn',
          hint: `not in the backup: ${found.unavailable.join(', ')}`,
        }
      : detail;
  });
  let read: Omit<BackupResult, 'unavailable'> = { objects: [], kinds: [] };
  await runner.run('read', async (row) => {
    read = await readBackedUp(kc, found.resources, choice, (r, i) => row.progress(`${r.kind} (${i + 1}/${found.resources.length})`));
    const skipped = read.kinds.reduce((n, k) => n + k.skipped.reduce((m, s) => m + s.count, 0), 0);
    return `${plural(read.objects.length, 'object')} kept, ${skipped} skipped (the server's or the install's own)`;
  });
  await runner.run('write', async () => {
    const at = new Date();
    writeBackupFile(file, backupText(read.objects, { context, at, includeSecrets: choice.includeSecrets }));
    recordLastBackup({ file, at: at.toISOString(), context });
    return `${file} (0600)`;
  });
  return { ...read, unavailable: found.unavailable };
}
