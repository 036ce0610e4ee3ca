/** Plain text and JSON of `fleetdeck backup` and `fleetdeck restore` (never a Secret's data: only names and counts). */
import type { BackupResult } from '../backup/backup.js';
import type { PlannedObject } from '../backup/restore.js';
import { planCounts } from '../backup/restore.js';
import { formatTable } from './status.js';

/** The restore plan's text is the workflow's (the Day 2 page shows it too). */
export { planText } from '../backup/restore-plan-text.js';

export interface BackupReport {
  file: string;
  context: string;
  result: BackupResult;
  includeSecrets: boolean;
}

/** The summary per kind: backed-up objects, then what was skipped and why. */
export function backupText(r: BackupReport): string {
  const lines = [
    `Backed up ${r.result.objects.length} objects of the control plane (context ${r.context})`,
    `to ${r.file} (mode 0600).`,
    '',
  ];
  lines.push(
    formatTable([
      ['KIND', 'APIVERSION', 'OBJECTS', 'SKIPPED'],
      ...r.result.kinds.map((k) => [
        k.kind,
        k.apiVersion,
        String(k.objects),
        k.skipped.map((s) => `${s.count} ${s.reason}`).join('; ') || '-',
      ]),
    ]),
  );
  if (r.result.unavailable.length) lines.push('', `Not read (their API server did not answer): ${r.result.unavailable.join(', ')}.`);
  if (!r.includeSecrets && r.result.kinds.some((k) => k.kind === 'Secret' && k.skipped.some((s) => s.reason.includes('--include-secrets'))))
    lines.push(
      '',
      'Secrets were skipped: back up their data too with --include-secrets (the file then holds credentials: keep it private).',
    );
  return lines.join('\n');
}

export function backupJson(r: BackupReport) {
  return {
    ok: true,
    file: r.file,
    context: r.context,
    includeSecrets: r.includeSecrets,
    objects: r.result.objects.length,
    kinds: r.result.kinds,
    unavailable: r.result.unavailable,
  };
}

export function restoreJson(o: { ok: boolean; dryRun: boolean; file: string; context: string; plan: readonly PlannedObject[] }) {
  return { ok: o.ok, dryRun: o.dryRun, file: o.file, context: o.context, counts: planCounts(o.plan), objects: o.plan };
}
